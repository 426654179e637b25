package ignore

import (
	"fmt"
	"testing"
)

// TestAMatcherRemembersABoundedNumberOfDirectories: Match keeps the rules of the directories it met, in
// its own memory, never more than maxDirStates of them, and a directory it forgot has its rules read
// again, so the answers stay the same.
func TestAMatcherRemembersABoundedNumberOfDirectories(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".gitignore": "*.log\n", "keep/.gitignore": "*.tmp\n!important.log\n"})
	m, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	other, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		for path, want := range map[string]bool{"keep/a.tmp": true, "keep/important.log": false, "keep/b.log": true, "keep/c.go": false} {
			if got := m.Match(path, false); got != want {
				t.Errorf("%s: Match(%s) = %v, want %v", when, path, got, want)
			}
		}
	}
	check("first")
	if other.dirs.Len() != 0 {
		t.Fatalf("another Matcher of the same tree holds %d directories it never met", other.dirs.Len())
	}
	// Paths in directories that do not exist still have the directories above them looked at.
	for i := range maxDirStates + 100 {
		if m.Match(fmt.Sprintf("d%d/x.tmp", i), false) {
			t.Fatalf("d%d/x.tmp is ignored, though only keep/.gitignore names *.tmp", i)
		}
	}
	if got := m.dirs.Len(); got != maxDirStates {
		t.Errorf("after %d directories the Matcher holds %d; its bound is %d", maxDirStates+101, got, maxDirStates)
	}
	if _, held := m.dirs.Get("keep"); held {
		t.Fatal("keep, met first, is still held after the bound was passed")
	}
	check("after keep was forgotten")
}
