package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file a command made unreadable cannot be saved, but its change is recorded all the same, and an
// undo puts back what was there before; a directory made unreadable does not make what it holds count
// as deleted.
func TestUnreadableFilesAndDirectories(t *testing.T) {
	if asUnprivileged(t) {
		return
	}
	for _, watched := range []bool{true, false} {
		t.Run(map[bool]string{true: "watched", false: "full walks"}[watched], func(t *testing.T) {
			isolateHome(t)
			ws := t.TempDir()
			// Whatever happens, the test's directory can be removed.
			t.Cleanup(func() { sh(t, ws, "chmod -R u+rwx .") })
			sh(t, ws, "echo keep > f && mkdir d && echo inner > d/g")
			c := openTest(t, ws)
			if !watched && c.tree.watch != nil {
				c.tree.watch.close()
				c.tree.watch, c.tree.noWatch = nil, true
			}
			var since []Recorded
			changes := call(t, c, ws, "echo evil > f && chmod 000 f")
			if got := changeLines(changes); !strings.HasPrefix(got, "M f") || !strings.Contains(got, "could not be read") {
				t.Errorf("a file made unreadable: %q", got)
			}
			since = append(since, Recorded{Changes: changes})
			changes = call(t, c, ws, "chmod 000 d")
			if got := changeLines(changes); got != "T d/ (-rwxr-xr-x → ----------)" {
				t.Errorf("a directory made unreadable: %q", got)
			}
			since = append(since, Recorded{Changes: changes})
			r := restoreTo(t, c, since, false)
			if len(r.Skipped) > 0 {
				t.Errorf("skipped: %v", r.Skipped)
			}
			if b, err := os.ReadFile(filepath.Join(ws, "f")); err != nil || string(b) != "keep\n" {
				t.Errorf("f after undo: %q, %v", b, err)
			}
			if b, err := os.ReadFile(filepath.Join(ws, "d", "g")); err != nil || string(b) != "inner\n" {
				t.Errorf("d/g after undo: %q, %v", b, err)
			}
		})
	}
}
