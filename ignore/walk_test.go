package ignore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func walkAll(t *testing.T, m *Matcher, dir string) []string {
	t.Helper()
	var got []string
	err := m.Walk(dir, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel += "/"
		}
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWalkNeverReadsIgnoredDirectories(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore": "node_modules/\n/target\n", "node_modules/a/b/c.js": "", "target/debug/x": "",
		"src/target/keep": "", "src/main.rs": "",
	})
	var mu sync.Mutex
	var read []string
	readDir = func(d string) ([]Entry, error) {
		mu.Lock()
		rel, _ := filepath.Rel(dir, d)
		read = append(read, filepath.ToSlash(rel))
		mu.Unlock()
		return ReadDir(d)
	}
	t.Cleanup(func() { readDir = ReadDir })
	m, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := walkAll(t, m, "")
	want := []string{".gitignore", "src/", "src/main.rs", "src/target/", "src/target/keep"}
	if !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	for _, r := range read {
		if strings.HasPrefix(r, "node_modules") || strings.HasPrefix(r, "target") {
			t.Errorf("the walk read the ignored directory %s", r)
		}
	}
}

func TestWalkSkipsGitAndDoesNotFollowLinks(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret": ""})
	writeTree(t, dir, map[string]string{
		".git/config": "", "sub/.git": "gitdir: nowhere", "sub/f": "", "out": "-> " + outside, "in": "-> sub",
	})
	m, err := New(dir, Options{Sources: []Source{{Name: ".gitignore"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := walkAll(t, m, "")
	want := []string{"in", "out", "sub/", "sub/f"}
	if !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
}

func TestWalkSkipDirAndSubdirectory(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".gitignore": "*.o\n", "a/x.o": "", "a/y": "", "b/c/z": "", "b/c/z.o": "", "b/d": ""})
	m, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		got = append(got, rel)
		if rel == "a" {
			return SkipDir
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "a", "b", "b/c", "b/c/z", "b/d"}; !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	if got, want := walkAll(t, m, "b/c"), []string{"b/c/z"}; !slices.Equal(got, want) {
		t.Errorf("walk of b/c = %q, want %q", got, want)
	}
	stop := errors.New("stop")
	if err := m.Walk("", func(string, fs.DirEntry, error) error { return stop }); err != stop {
		t.Errorf("an error from the callback came back as %v", err)
	}
}

// Dir and Child, the parts for walks that read directories themselves, agree with Match.
func TestDirAgreesWithMatch(t *testing.T) {
	dir := newRepo(t, map[string]string{
		".gitignore": "*.log\n!keep.log\nsub/deep/\n", "sub/.gitignore": "/x\n", "sub/x": "", "sub/a.log": "",
		"sub/keep.log": "", "sub/deep/f": "", "sub/y/x": "",
	})
	m, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	root := m.Dir("", nil)
	sub := root.Child("sub", nil)
	for name, want := range map[string]bool{"x": true, "a.log": true, "keep.log": false, "deep": true, "y": false} {
		isDir := name == "deep" || name == "y"
		if got := sub.Ignored(name, isDir); got != want || m.Match("sub/"+name, isDir) != want {
			t.Errorf("sub/%s: Dir says %v, Match says %v, want %v", name, got, m.Match("sub/"+name, isDir), want)
		}
	}
	if m.Dir("sub/y", nil).Ignored("x", false) {
		t.Error("sub/.gitignore's /x matched sub/y/x")
	}
}

func TestReadDirReportsTypes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "x", "d/": "", "l": "-> f"})
	entries, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name()+":"+e.Type().String())
	}
	if want := []string{"d:d---------", "f:----------", "l:L---------"}; !slices.Equal(got, want) {
		t.Errorf("ReadDir = %q, want %q", got, want)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing directory gave %v", err)
	}
}

// The fingerprint changes with the rules that live outside the tree, and only with them.
func TestFingerprintFollowsRulesOutsideTheTree(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitignore": "*.o\n"})
	fp := func() string {
		m, err := ForDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return m.Fingerprint()
	}
	first := fp()
	writeTree(t, dir, map[string]string{".gitignore": "*.a\n", "x.o": ""})
	if fp() != first {
		t.Error("a change inside the tree changed the fingerprint")
	}
	writeTree(t, dir, map[string]string{".git/info/exclude": "*.tmp\n"})
	second := fp()
	if second == first {
		t.Error("info/exclude changed and the fingerprint did not")
	}
	writeTree(t, os.Getenv("HOME"), map[string]string{".gitconfig": "[core]\n\tignoreCase = true\n"})
	if fp() == second {
		t.Error("core.ignoreCase changed and the fingerprint did not")
	}
}
