package ignore

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Whoever controls a tree can put a FIFO where git reads rules; opening one for reading waits for a
// writer, so a walk that opened it would never end.
func TestFIFOsWhereRulesAreReadDoNotBlock(t *testing.T) {
	cases := map[string]struct {
		repo  bool
		setup func(t *testing.T, dir, home string)
	}{
		"a .gitignore":            {false, func(t *testing.T, dir, _ string) { mkfifo(t, filepath.Join(dir, "sub", ".gitignore")) }},
		"a .git file":             {false, func(t *testing.T, dir, _ string) { mkfifo(t, filepath.Join(dir, ".git")) }},
		"info/exclude":            {true, func(t *testing.T, dir, _ string) { replaceWithFIFO(t, filepath.Join(dir, ".git", "info", "exclude")) }},
		"commondir":               {true, func(t *testing.T, dir, _ string) { mkfifo(t, filepath.Join(dir, ".git", "commondir")) }},
		"HEAD":                    {true, func(t *testing.T, dir, _ string) { replaceWithFIFO(t, filepath.Join(dir, ".git", "HEAD")) }},
		"the repository's config": {true, func(t *testing.T, dir, _ string) { replaceWithFIFO(t, filepath.Join(dir, ".git", "config")) }},
		"core.excludesFile": {true, func(t *testing.T, _, home string) {
			writeTree(t, home, map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/ignore-fifo\n"})
			mkfifo(t, filepath.Join(home, "ignore-fifo"))
		}},
		"an included config": {true, func(t *testing.T, _, home string) {
			writeTree(t, home, map[string]string{".gitconfig": "[include]\n\tpath = ~/inc-fifo\n"})
			mkfifo(t, filepath.Join(home, "inc-fifo"))
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var dir string
			if tc.repo {
				dir = newRepo(t, map[string]string{"a.txt": "", "sub/b.txt": ""})
			} else {
				isolate(t)
				dir = t.TempDir()
				writeTree(t, dir, map[string]string{"a.txt": "", "sub/b.txt": ""})
			}
			tc.setup(t, dir, os.Getenv("HOME"))
			done := make(chan []string, 1)
			go func() {
				m, err := ForDir(dir)
				if err != nil {
					done <- []string{err.Error()}
					return
				}
				var paths []string
				_ = m.Walk("", func(rel string, _ fs.DirEntry, _ error) error {
					paths = append(paths, rel)
					return nil
				})
				done <- paths
			}()
			select {
			case paths := <-done:
				if len(paths) == 0 {
					t.Errorf("the walk found nothing")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("reading the rules blocked on a FIFO")
			}
		})
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceWithFIFO(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	mkfifo(t, path)
}
