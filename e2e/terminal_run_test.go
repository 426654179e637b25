package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// terminalRun is the real binary's TUI in a pseudo-terminal, its output drawn by a terminal emulator so
// that a test reads the screen a person would see, and types as they would.
type terminalRun struct {
	t   *testing.T
	cmd *exec.Cmd
	pty *os.File
	emu *vt.SafeEmulator
	// mu orders the emulator's writes and the reads of its screen, which SafeEmulator does not lock.
	mu sync.Mutex
	// raw is every byte the program wrote, for what the screen does not show (a notification).
	raw bytes.Buffer
}

// startTerminal starts the binary with args in r's workspace and environment, in a terminal of 120x40.
func startTerminal(t *testing.T, r *invocation, args ...string) *terminalRun {
	t.Helper()
	const w, h = 120, 40
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = r.workspace, append(append([]string(nil), r.env...), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: h, Cols: w})
	if err != nil {
		t.Fatal(err)
	}
	tr := &terminalRun{t: t, cmd: cmd, pty: f, emu: vt.NewSafeEmulator(w, h)}
	go func() { _, _ = io.Copy(lockedWriter{tr}, f) }() // ends when the terminal closes
	// The terminal's answers to the program's queries. The emulator is not closed at the end (its Close
	// races with a Read in progress), so this copy waits for the test binary's exit.
	go func() { _, _ = io.Copy(f, tr.emu) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	return tr
}

// screen is the text on the screen now.
func (tr *terminalRun) screen() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.emu.String()
}

// lockedWriter draws the program's output under the lock screen takes.
type lockedWriter struct{ tr *terminalRun }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.tr.mu.Lock()
	defer w.tr.mu.Unlock()
	w.tr.raw.Write(p)
	return w.tr.emu.Write(p)
}

// waitFor waits until the screen shows every one of want, and returns it. Blanks do not count, so that
// a line the screen wrapped (a long path in a notice) still matches.
func (tr *terminalRun) waitFor(want ...string) string {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tr.screen()
		flat := withoutBlanks(s)
		missing := ""
		for _, w := range want {
			if !strings.Contains(flat, withoutBlanks(w)) {
				missing = w
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tr.t.Fatalf("the screen never showed %q; it shows:\n%s", missing, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// written is every byte the program has written so far.
func (tr *terminalRun) written() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.raw.String()
}

// typeText sends keys as a person types them ("\r" is Enter).
func (tr *terminalRun) typeText(s string) {
	tr.t.Helper()
	if _, err := tr.pty.WriteString(s); err != nil {
		tr.t.Fatal(err)
	}
}

func withoutBlanks(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, s)
}
