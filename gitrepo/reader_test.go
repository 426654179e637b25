package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadersKeepWhatTheyLearnToThemselvesWithinABound: each memory of a Reader holds what that Reader
// read and nothing another Reader read, and never more than its bound, however many repositories and
// files it is asked about.
func TestReadersKeepWhatTheyLearnToThemselvesWithinABound(t *testing.T) {
	// A bare git directory of its own for each i: HEAD, objects and refs, no history, an empty index.
	gitDir := func(root string, i int) Repo {
		d := filepath.Join(root, fmt.Sprint(i))
		write(t, filepath.Join(d, "HEAD"), "ref: refs/heads/main\n")
		for _, sub := range []string{"objects", "refs"} {
			if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return Repo{GitDir: d, CommonDir: d}
	}
	for _, c := range []struct {
		name  string
		bound int
		// learn asks rd about the i-th thing of its kind below root.
		learn func(t *testing.T, rd *Reader, root string, i int)
		held  func(rd *Reader) int
	}{
		{"git directories", maxGitDirs, func(t *testing.T, rd *Reader, root string, i int) {
			// What a directory is not is remembered too: most directories asked about are not git's.
			d := filepath.Join(root, fmt.Sprint(i))
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if rd.IsGitDir(d, nil) {
				t.Fatalf("%s is taken for a git directory", d)
			}
		}, func(rd *Reader) int { return rd.gitDirs.Len() }},
		{"default openers", maxOpeners, func(t *testing.T, rd *Reader, root string, i int) {
			rd.Opener(Repo{Top: filepath.Join(root, fmt.Sprint(i))})
		}, func(rd *Reader) int { return rd.openers.Len() }},
		{"configuration files", maxConfigs, func(t *testing.T, rd *Reader, root string, i int) {
			p := filepath.Join(root, fmt.Sprintf("config%d", i))
			write(t, p, fmt.Sprintf("[core]\n\tabbrev = %d\n", 8+i%30))
			if e, ok := rd.LoadFile(p, false, "").Last("core.abbrev"); !ok || e.Value != fmt.Sprint(8+i%30) {
				t.Fatalf("%s: %+v %v", p, e, ok)
			}
		}, func(rd *Reader) int { return rd.configs.Len() }},
		{"indexes", maxIndexes, func(t *testing.T, rd *Reader, root string, i int) {
			r := gitDir(root, i)
			write(t, filepath.Join(r.GitDir, "index"), string(indexFile(2, rawEntry{path: fmt.Sprintf("f%d", i), nameLen: -1})))
			if idx, ok := rd.ReadIndex(r, nil); !ok || len(idx.Paths) != 1 {
				t.Fatalf("index of %s: %v %v", r.GitDir, idx.Paths, ok)
			}
		}, func(rd *Reader) int { return rd.indexes.Len() }},
		{"tips of history", maxTips, func(t *testing.T, rd *Reader, root string, i int) {
			if _, err := rd.listTips(gitDir(root, i)); err != nil {
				t.Fatal(err)
			}
		}, func(rd *Reader) int { return rd.tips.Len() }},
		{"walks of history", maxHistories, func(t *testing.T, rd *Reader, root string, i int) {
			if _, err := rd.ReadHistory(gitDir(root, i), nil, 0); err != nil {
				t.Fatal(err)
			}
		}, func(rd *Reader) int { return rd.histories.Len() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := tempDir(t)
			one, other := NewReader(), NewReader()
			c.learn(t, one, root, 0)
			if c.held(one) != 1 || c.held(other) != 0 {
				t.Fatalf("after one Reader read one: it holds %d, the other %d", c.held(one), c.held(other))
			}
			for i := 1; i < c.bound+10; i++ {
				c.learn(t, one, root, i)
			}
			if got := c.held(one); got != c.bound {
				t.Errorf("asked about %d, it holds %d; its bound is %d", c.bound+10, got, c.bound)
			}
			if c.held(other) != 0 {
				t.Errorf("the other Reader holds %d it never read", c.held(other))
			}
		})
	}
}

// TestReadersDoNotShareAWalkOfHistory: one Reader's finished walk of a repository's history is not
// another's. Asked with a budget too short for the walk, a Reader that never walked that history says so,
// where a history shared by the whole process was handed over walked by someone else.
func TestReadersDoNotShareAWalkOfHistory(t *testing.T) {
	needGit(t)
	dir := tempDir(t)
	git(t, dir, "init", "-q")
	for i := range 80 {
		write(t, filepath.Join(dir, fmt.Sprintf("d%d", i%9), fmt.Sprintf("f%d.txt", i)), fmt.Sprint(i))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint(i))
	}
	walked, fresh := NewReader(), NewReader()
	r, _ := walked.Find(dir, nil, nil)
	if h, err := walked.ReadHistory(r, nil, 0); err != nil || len(h.Paths) != 80 {
		t.Fatalf("the first Reader's walk: %d paths, %v", len(h.Paths), err)
	}
	if h, err := walked.ReadHistory(r, nil, time.Nanosecond); err != nil || len(h.Paths) != 80 {
		t.Fatalf("asked again, the Reader that walked: %d paths, %v", len(h.Paths), err)
	}
	if _, err := fresh.ReadHistory(r, nil, time.Nanosecond); !errors.Is(err, ErrHistoryNotYet) {
		t.Fatalf("a Reader that never walked this history, given a nanosecond: %v, want ErrHistoryNotYet", err)
	}
	// Its walk goes on in the background; a call without a limit waits for it.
	if h, err := fresh.ReadHistory(r, nil, 0); err != nil || len(h.Paths) != 80 {
		t.Fatalf("the second Reader's own walk: %d paths, %v", len(h.Paths), err)
	}
}
