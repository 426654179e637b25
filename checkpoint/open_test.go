package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Open runs before Warden's first frame, so it must not read the saved index (megabytes in a large
// workspace): the index is read by the first snapshot. The index here is a named pipe with no writer,
// whose reading would block, so an Open that read it would never return.
func TestOpenLeavesTheIndexForTheFirstSnapshot(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "checkpoints")
	real, _ := filepath.EvalSymlinks(ws)
	wsDir := WorkspaceDir(dir, real)
	if err := os.MkdirAll(wsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(wsDir, "index")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	// Whatever happens, the pipe gets a writer at the end, so that no reader stays blocked.
	t.Cleanup(func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	opened := make(chan *Checkpoints, 1)
	go func() {
		c, err := Open(Options{Dir: dir, Workspace: ws, Session: "s1"})
		if err != nil {
			t.Error(err)
		}
		opened <- c
	}()
	select {
	case c := <-opened:
		if c != nil {
			c.Close()
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open read the saved index: it blocked on it for 10 s")
	}
}
