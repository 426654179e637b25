package checkpoint

import (
	"os"
	"strings"
	"testing"
)

// A command can nest directories past PATH_MAX (4096 bytes). What it makes there is seen and undone
// like the rest, and such a directory does not cost the watch (every snapshot a full walk after it).
func TestPathsPastPathMax(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	c := openTest(t, ws)
	if c.tree.watch == nil {
		t.Skip("inotify is not available here")
	}
	before := describe(t, ws, false)
	// 30 directories of 200 bytes: the file is 6,000 bytes deep.
	nest := `d=$(printf 'x%.0s' $(seq 200)); for i in $(seq 30); do mkdir -p "$d" && cd "$d"; done; `
	changes := call(t, c, ws, nest+"echo deep > file")
	if got := changeLines(changes); !strings.Contains(got, "/file (+1 −0)") {
		t.Errorf("the file past PATH_MAX was not seen:\n%.400s", got)
	}
	since := []Recorded{{Changes: changes}}
	changes = call(t, c, ws, nest+"echo deeper >> file")
	if got := changeLines(changes); !strings.HasSuffix(got, "/file (+1 −0)") || strings.Count(got, "\n") != 0 {
		t.Errorf("a change past PATH_MAX:\n%.400s", got)
	}
	since = append(since, Recorded{Changes: changes})
	if c.tree.watch == nil || c.tree.full != 1 {
		t.Errorf("the watch was given up (%d full walks)", c.tree.full)
	}
	r := restoreTo(t, c, since, false)
	if len(r.Skipped) > 0 {
		t.Errorf("skipped: %v", r.Skipped)
	}
	if d := diffTrees(before, describe(t, ws, false)); d != "" {
		t.Errorf("the tree differs after undo:\n%.400s", d)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 0 {
		t.Errorf("left after undo: %v", entries)
	}
}
