package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warden-cli/warden/printable"
)

// stderrLog keeps what a server writes to stderr: all of it in a log file, up to logCap bytes a session,
// and the last tailSize bytes of the current run in memory, to report why a server failed. A server that
// floods stderr costs a bounded file and a fixed buffer.
type stderrLog struct {
	path string

	mu      sync.Mutex
	f       *os.File
	written int64
	full    bool
	tail    []byte
}

const (
	logCap   = 4 << 20
	tailSize = 2 << 10
)

func newStderrLog(dir, name string) *stderrLog {
	return &stderrLog{path: filepath.Join(dir, name+".log")}
}

// begin marks the start of a run in the file and forgets the previous run's tail.
func (l *stderrLog) begin(target string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = l.tail[:0]
	l.writeLocked(fmt.Appendf(nil, "--- %s started: %s\n", time.Now().Format(time.RFC3339), target))
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = append(l.tail, p...)
	if over := len(l.tail) - tailSize; over > 0 {
		l.tail = append(l.tail[:0], l.tail[over:]...)
	}
	l.writeLocked(p)
	return len(p), nil
}

func (l *stderrLog) writeLocked(p []byte) {
	if l.full {
		return
	}
	if l.f == nil {
		// A log of an earlier run (warden mcp list keeps its logs in one place) is replaced, not added to:
		// the cap is per run, and appending would let the file grow by it at every run.
		if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
			l.full = true
			return
		}
		f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			l.full = true
			return
		}
		l.f = f
	}
	if room := logCap - l.written; int64(len(p)) > room {
		p = p[:room]
		l.full = true
	}
	n, _ := l.f.Write(p)
	l.written += int64(n)
	if l.full {
		fmt.Fprintf(l.f, "\n[log stopped at %d MB; later output is not kept]\n", logCap>>20)
	}
}

// Tail returns the last lines of the current run's stderr, cleaned for one display block.
func (l *stderrLog) Tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := strings.ToValidUTF8(string(l.tail), "\uFFFD")
	if len(l.tail) == tailSize {
		// The first line is likely cut; drop it.
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	t = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !printable.Control(r) {
			return r
		}
		return -1
	}, t)
	return strings.TrimSpace(t)
}

func (l *stderrLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
