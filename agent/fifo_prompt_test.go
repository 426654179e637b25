package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/safefile"
)

// A FIFO named AGENTS.md is reported as unreadable, not waited on at every turn.
func TestAFIFOForInstructionsIsReportedNotWaitedOn(t *testing.T) {
	ws := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(ws, "AGENTS.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "CLAUDE.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() {
		_, _, warnings := LoadInstructionFiles(safefile.NewOpener([]string{ws}, nil, 0), ws)
		done <- warnings
	}()
	select {
	case w := <-done:
		if len(w) != 1 || !strings.Contains(w[0], "AGENTS.md") {
			t.Errorf("warnings %q; want one naming AGENTS.md", w)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("reading the instructions stalled on a FIFO")
	}
}
