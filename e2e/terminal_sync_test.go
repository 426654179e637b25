package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// rawTerminal is the binary in a pseudo-terminal whose output is kept as written, byte for byte, and
// which answers the question whether it supports synchronized output (mode 2026) as a modern terminal
// does, or not at all.
type rawTerminal struct {
	t   *testing.T
	pty *os.File
	mu  sync.Mutex
	out []byte
}

func startRawTerminal(t *testing.T, r *invocation, supportsSync bool, args ...string) *rawTerminal {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = r.workspace, append(append([]string(nil), r.env...), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	rt := &rawTerminal{t: t, pty: f}
	go func() {
		buf := make([]byte, 32<<10)
		answered := false
		for {
			n, err := f.Read(buf)
			rt.mu.Lock()
			rt.out = append(rt.out, buf[:n]...)
			ask := supportsSync && !answered && bytes.Contains(rt.out, []byte("\x1b[?2026$p"))
			rt.mu.Unlock()
			if ask {
				answered = true
				f.WriteString("\x1b[?2026;2$y")
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	return rt
}

func (rt *rawTerminal) output() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return string(rt.out)
}

func (rt *rawTerminal) waitFor(want string) {
	rt.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(rt.output(), want) {
		if time.Now().After(deadline) {
			rt.t.Fatalf("the output never held %q: %q", want, rt.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFramesAreSynchronizedUpdatesWhereTheTerminalSupportsThem(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("The answer, drawn in one piece."))
	rt := startRawTerminal(t, newRun(t), true, "--base-url", server.URL(), "--model", "m")
	rt.waitFor("Ask Warden")
	rt.pty.WriteString("a question\r")
	rt.waitFor("drawn in one piece.")
	out := rt.output()
	// Every frame after the terminal's answer starts and ends a synchronized update, and the answer was
	// drawn inside one.
	typed := strings.Index(out, "a question")
	after := out[max(strings.LastIndex(out[:typed], "\x1b[?2026h"), 0):]
	begin, end := strings.Count(after, "\x1b[?2026h"), strings.Count(after, "\x1b[?2026l")
	if begin == 0 || begin-end > 1 || end > begin {
		t.Fatalf("%d frames began a synchronized update and %d ended one: %q", begin, end, after)
	}
	at := strings.Index(after, "drawn in one piece.")
	if strings.LastIndex(after[:at], "\x1b[?2026h") < strings.LastIndex(after[:at], "\x1b[?2026l") {
		t.Fatalf("the answer was drawn outside a synchronized update: %q", after)
	}

	plain := startRawTerminal(t, newRun(t), false, "--base-url", server.URL(), "--model", "m")
	plain.waitFor("Ask Warden")
	if strings.Contains(plain.output(), "\x1b[?2026h") {
		t.Fatal("a terminal that never said it supports synchronized output got synchronized updates")
	}
}
