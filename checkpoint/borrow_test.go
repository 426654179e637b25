package checkpoint

import (
	"bytes"
	"crypto/sha1"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The person's git index may stand for a file's content only when the session starts: a command can
// write an index whose entry has its file's stat and another file's object, and what it changed would
// then be recorded, shown and undone as that other content. Within a session, what changed is read.
func TestACallCannotLendItsChangeAnotherContent(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, `git init -q . && echo good > f && echo other > g && touch -d '-5 seconds' f g &&
		git add -A && git -c user.name=t -c user.email=t@t commit -qm files`)
	c := openTest(t, ws)
	w, _ := c.Before()
	// The command: new content in f, staged with an old mtime (so that git's stat would be trusted),
	// then the index's object for f swapped for the one of "good". The entry is dropped before git add:
	// git compares whole seconds of a stat (unless built with USE_NSEC), so it would keep the entry of
	// "good", of the same size and changed within the same second, and stage nothing.
	sh(t, ws, `echo evil > f && touch -d '-5 seconds' f && git rm -q --cached f && git add f`)
	indexPath := filepath.Join(ws, ".git", "index")
	index, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	evil, good := blobID([]byte("evil\n")), blobID([]byte("good\n"))
	if !bytes.Contains(index, evil[:]) {
		t.Fatal("the index does not hold the staged object")
	}
	index = bytes.Replace(index, evil[:], good[:], 1)
	sum := sha1.Sum(index[:len(index)-20])
	copy(index[len(index)-20:], sum[:])
	if err := os.WriteFile(indexPath, index, 0o644); err != nil {
		t.Fatal(err)
	}
	changes, err := w.After("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "f" || !changes[0].New.IsFile() || changes[0].New.ID != evil {
		t.Fatalf("the call's changes %q, where f became %v", changeLines(changes), evil)
	}
	if d, err := c.Diff(changes[0]); err != nil || !strings.Contains(d, "+evil") {
		t.Errorf("diff %q, %v", d, err)
	}
	restoreTo(t, c, []Recorded{{Changes: changes}}, false)
	if b, err := os.ReadFile(filepath.Join(ws, "f")); err != nil || string(b) != "good\n" {
		t.Errorf("after the undo f holds %q, %v", b, err)
	}
}

// Two sessions' checkpoints of one workspace read the person's repository each through a Reader of its
// own, which the snapshots, the tracked paths and the borrowed contents share: what one session learnt
// of the repository is not the other's.
func TestEachSessionReadsTheRepositoryThroughItsOwnReader(t *testing.T) {
	ws := gitWorkspace(t, "echo a > a && git add a")
	one, other := openTest(t, ws), openTest(t, ws)
	for _, c := range []*Checkpoints{one, other} {
		if c.tree.git == nil || c.tree.tracked.git != c.tree.git || c.tree.borrow.git != c.tree.git {
			t.Fatalf("the snapshots read with %p, the tracked paths with %p, the borrowed contents with %p",
				c.tree.git, c.tree.tracked.git, c.tree.borrow.git)
		}
	}
	if one.tree.git == other.tree.git {
		t.Error("two sessions' checkpoints share one Reader")
	}
}
