package checkpoint

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A link or a file where a directory of the path should be means nothing is there to snapshot or restore:
// the walk from the workspace stops at it and says so, whichever step of the walk meets it.
func TestALinkOrAFileOnTheWayIsGone(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rootFd, err := openRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootFd)
	for _, rel := range []string{"l/f", "file/f", "missing/f"} {
		if _, err := statAt(rootFd, rel); err == nil || !isGone(err) {
			t.Errorf("statAt(%s) = %v, want an error isGone reports", rel, err)
		}
	}
}
