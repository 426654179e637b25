package files

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// glob and grep run unasked, so what they list is what the model reads. These tests hold them to the
// directory decided about whatever git says: a crafted index, a tracked directory turned into a link,
// and a repository whose configuration would make git run its program.

// writeCraftedIndex replaces the workspace's index with one listing paths, each an empty file: the
// paths git's own commands refuse to add, as a crafted index file holds them.
func writeCraftedIndex(t *testing.T, h *fileHarness, paths ...string) {
	t.Helper()
	slices.Sort(paths)
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(paths)))
	empty := []byte("\xe6\x9d\xe2\x9b\xb2\xd1\xd6\x43\x4b\x8b\x29\xae\x77\x5a\xd8\xc2\xe4\x8c\x53\x91")
	for _, p := range paths {
		start := len(b)
		b = append(b, make([]byte, 24)...)
		b = binary.BigEndian.AppendUint32(b, 0o100644)
		b = append(b, make([]byte, 12)...)
		b = append(b, empty...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
		b = append(b, 0)
		for (len(b)-start)%8 != 0 {
			b = append(b, 0)
		}
	}
	b = append(b, make([]byte, 20)...)
	if err := os.WriteFile(h.path(".git/index"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func bothSearchers(t *testing.T, f func(t *testing.T)) {
	for _, rg := range []bool{true, false} {
		t.Run(fmt.Sprintf("rg=%v", rg), func(t *testing.T) {
			if !rg {
				hideRg(t)
			}
			f(t)
		})
	}
}

func TestGrepLeavesOutAnIndexEntryThatClimbsOut(t *testing.T) {
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write("a.txt", "PLANTED in the workspace\n")
	// Beside the workspace, as a private file of the home is beside a checkout in it.
	secret := filepath.Join(filepath.Dir(h.ws), "home-secret")
	if err := os.WriteFile(secret, []byte("PLANTED-HOME-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(secret) })
	writeCraftedIndex(t, h, "../home-secret", "a.txt", secret[1:], ".git/config")
	bothSearchers(t, func(t *testing.T) {
		got := h.ok("grep", map[string]any{"pattern": "PLANTED"})
		if strings.Contains(got, "HOME-SECRET") || strings.Contains(got, "home-secret") {
			t.Errorf("grep read a file outside the workspace through the index:\n%s", got)
		}
		mustContain(t, got, "a.txt:1:PLANTED in the workspace", "(2 files the index lists not searched")
	})
	got := h.ok("glob", map[string]any{"pattern": "**"})
	if strings.Contains(got, "home-secret") || strings.Contains(got, ".git/") {
		t.Errorf("glob listed through the index:\n%s", got)
	}
}

func TestGrepDoesNotFollowATrackedDirectoryTurnedIntoALink(t *testing.T) {
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write("docs/guide.md", "a guide\n")
	h.write("docs/more/notes.md", "notes\n")
	h.write("main.go", "package main\n")
	h.git("add", "-A")
	h.git("commit", "-qm", "x")
	outside := t.TempDir()
	for rel, content := range map[string]string{"guide.md": "PLANTED-OUTSIDE guide\n", "more/notes.md": "PLANTED-OUTSIDE notes\n"} {
		p := filepath.Join(outside, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(h.path("docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, h.path("docs")); err != nil {
		t.Fatal(err)
	}
	bothSearchers(t, func(t *testing.T) {
		got := h.ok("grep", map[string]any{"pattern": "PLANTED"})
		if strings.Contains(got, "PLANTED-OUTSIDE") {
			t.Errorf("grep followed a tracked directory that is now a link:\n%s", got)
		}
		mustContain(t, got, "No matches", "(2 files the index lists not searched")
	})
	got := h.ok("glob", map[string]any{"pattern": "**/*.md"})
	if strings.Contains(got, "docs/") {
		t.Errorf("glob listed through a tracked directory that is now a link:\n%s", got)
	}
}

// A partial clone's .gitignore that a sparse checkout leaves out has no object yet: git, listing files,
// fetches it, running remote.origin.uploadpack outside any sandbox. Warden's listing reads no object it
// has not got.
func TestFileSearchesRunNoProgramOfAPartialClone(t *testing.T) {
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write(".gitignore", "*.log\n")
	h.write("a.go", "package a // needle\n")
	h.git("add", "-A")
	h.git("commit", "-qm", "x")
	h.git("update-index", "--skip-worktree", ".gitignore")
	os.Remove(h.path(".gitignore"))
	blob := strings.TrimSpace(h.gitOut("rev-parse", "HEAD:.gitignore"))
	os.Remove(h.path(".git/objects/" + blob[:2] + "/" + blob[2:]))
	marker := filepath.Join(h.home, "ran")
	h.write("fetch.sh", "#!/bin/sh\necho ran >> "+marker+"\nexit 1\n")
	os.Chmod(h.path("fetch.sh"), 0o755)
	f, err := os.OpenFile(h.path(".git/config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "[core]\n\trepositoryformatversion = 1\n[remote \"origin\"]\n\turl = %s\n\tpromisor = true\n"+
		"\tpartialclonefilter = blob:none\n\tuploadpack = %s\n[extensions]\n\tpartialClone = origin\n", h.ws, h.path("fetch.sh"))
	f.Close()
	bothSearchers(t, func(t *testing.T) {
		mustContain(t, h.ok("grep", map[string]any{"pattern": "needle"}), "a.go:1:")
	})
	mustContain(t, h.ok("glob", map[string]any{"pattern": "*.go"}), "a.go")
	if _, err := os.Stat(marker); err == nil {
		t.Error("listing the files ran the repository's fetch program")
	}
}

// The listing is Warden's own: with no git to run at all, a search still sees what git would list.
func TestFileSearchesNeedNoGit(t *testing.T) {
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write(".gitignore", "build/\n*.log\n")
	h.write("main.go", "package main // needle\n")
	h.write("build/out.go", "package out // needle\n")
	h.write("vendor/forced.log", "needle\n")
	h.git("add", "-A")
	h.git("add", "-f", "vendor/forced.log")
	t.Setenv("PATH", t.TempDir())
	got := h.ok("grep", map[string]any{"pattern": "needle"})
	mustContain(t, got, "main.go:1:", "vendor/forced.log:1:")
	if strings.Contains(got, "build/") {
		t.Errorf("grep searched an ignored directory:\n%s", got)
	}
	got = h.ok("glob", map[string]any{"pattern": "**"})
	mustContain(t, got, "main.go\n", "vendor/forced.log\n", ".gitignore\n")
	if strings.Contains(got, "build/") {
		t.Errorf("glob listed an ignored directory:\n%s", got)
	}
}

// A listed file is opened without following a link on the way, so a directory replaced with a link
// after the listing leads nowhere.
func TestOpenListedRefusesALinkOnTheWay(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "f"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	os.WriteFile(filepath.Join(dir, "real", "f"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "swapped"))
	os.Symlink(filepath.Join(outside, "f"), filepath.Join(dir, "link"))
	if f, err := openListed(dir, "real/f"); err != nil {
		t.Errorf("an ordinary file: %v", err)
	} else {
		f.Close()
	}
	for _, rel := range []string{"swapped/f", "link", "../" + filepath.Base(dir) + "/real/f"} {
		if f, err := openListed(dir, rel); err == nil {
			f.Close()
			t.Errorf("%s was opened", rel)
		}
	}
}
