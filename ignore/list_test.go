package ignore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/gitrepo"
)

// These tests hold List to `git ls-files --cached --others --exclude-standard` run in the same directory,
// on repositories of every shape git's listing has a rule for, keeping of git's answer what a search can
// read: regular files, reached without following a link.

func commit(t *testing.T, dir string, args ...string) {
	t.Helper()
	git(t, dir, "", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"}, args...)...)
}

// gitListed is what git ls-files lists in dir that is a regular file below dir, no link on the way.
func gitListed(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, p := range strings.Split(git(t, dir, "", "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if p == "" || strings.HasSuffix(p, "/") {
			continue
		}
		if reachable(dir, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func reachable(dir, rel string) bool {
	cur := dir
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return false
		}
		if i < len(parts)-1 && !fi.IsDir() || i == len(parts)-1 && !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func listed(t *testing.T, dir string) Listing {
	t.Helper()
	l, err := List(context.Background(), dir, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func compareListWithGit(t *testing.T, dir string) {
	t.Helper()
	l := listed(t, dir)
	want := gitListed(t, dir)
	if !l.Git {
		t.Errorf("%s: not listed as a work tree", dir)
	}
	if !slices.Equal(l.Files, want) {
		t.Errorf("List(%s) listed %d files, git %d\nonly in List: %q\nonly in git: %q", dir, len(l.Files), len(want),
			minus(l.Files, want), minus(want, l.Files))
	}
	if l.Refused != 0 {
		t.Errorf("%d entries refused in an ordinary repository", l.Refused)
	}
}

func TestListMatchesGitLsFiles(t *testing.T) {
	needGit(t)
	t.Run("nested ignores, negations, tracked ignored files", func(t *testing.T) {
		dir := newRepo(t, map[string]string{
			".gitignore": "*.log\nbuild/\n!keep.log\n/top-only\ncache/*\n!cache/.keep\n",
			"a.go":       "", "debug.log": "", "keep.log": "", "top-only": "", "src/top-only": "", "build/out.o": "",
			"cache/.keep": "", "cache/data": "", "src/.gitignore": "!*.log\nlocal/\n*.tmp\n", "src/x.log": "",
			"src/local/f": "", "src/deep/.gitignore": "!*.tmp\n", "src/deep/a.tmp": "", "src/b.tmp": "",
			"vendor/forced.log": "", "build/forced.o": "", "docs/readme.md": "",
		})
		commit(t, dir, "add", "-A")
		commit(t, dir, "add", "-f", "vendor/forced.log", "build/forced.o")
		commit(t, dir, "commit", "-qm", "x")
		writeTree(t, dir, map[string]string{"new.go": "", "build/new.o": "", "src/local/new": "", "docs/new.md": ""})
		compareListWithGit(t, dir)
		compareListWithGit(t, filepath.Join(dir, "src"))
	})
	t.Run("submodules and nested repositories", func(t *testing.T) {
		dir := newRepo(t, map[string]string{"a.txt": ""})
		lib := t.TempDir()
		git(t, lib, "", "init", "-q")
		writeTree(t, lib, map[string]string{"lib.go": ""})
		commit(t, lib, "add", "-A")
		commit(t, lib, "commit", "-qm", "lib")
		commit(t, dir, "submodule", "add", "-q", lib, "mods/lib")
		git(t, dir, "", "update-index", "--add", "--cacheinfo", "160000,0123456789012345678901234567890123456789,unpopulated")
		writeTree(t, dir, map[string]string{"unpopulated/stray": "", "nested/n.txt": "", "tracked-nested/t.txt": "", "tracked-nested/u.txt": ""})
		git(t, dir, "", "init", "-q", "nested")
		commit(t, dir, "add", "tracked-nested/t.txt")
		git(t, dir, "", "init", "-q", "tracked-nested")
		compareListWithGit(t, dir)
		if l := listed(t, dir); slices.Contains(l.Files, "mods/lib/lib.go") || slices.Contains(l.Files, "nested/n.txt") {
			t.Errorf("listed a submodule's or nested repository's files: %q", l.Files)
		}
	})
	t.Run("unmerged paths", func(t *testing.T) {
		dir := newRepo(t, map[string]string{"c.txt": "base\n", "other.txt": ""})
		commit(t, dir, "add", "-A")
		commit(t, dir, "commit", "-qm", "base")
		commit(t, dir, "checkout", "-qb", "side")
		writeTree(t, dir, map[string]string{"c.txt": "side\n"})
		commit(t, dir, "commit", "-qam", "side")
		commit(t, dir, "checkout", "-q", "-")
		writeTree(t, dir, map[string]string{"c.txt": "main\n"})
		commit(t, dir, "commit", "-qam", "main")
		cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@t", "merge", "-q", "side")
		cmd.Dir = dir
		if cmd.Run() == nil {
			t.Fatal("the merge did not conflict")
		}
		compareListWithGit(t, dir)
	})
	t.Run("sparse checkout reads a left-out .gitignore from the index", func(t *testing.T) {
		dir := newRepo(t, map[string]string{"a.txt": "", "docs/.gitignore": "*.log\n", "docs/guide.md": "", "src/x.go": ""})
		commit(t, dir, "add", "-A")
		commit(t, dir, "commit", "-qm", "x")
		commit(t, dir, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/")
		if _, err := os.Stat(filepath.Join(dir, "docs", ".gitignore")); err == nil {
			t.Fatal("the sparse checkout left docs/.gitignore")
		}
		writeTree(t, dir, map[string]string{"docs/new.log": "", "docs/new.md": ""})
		compareListWithGit(t, dir)
		if l := listed(t, dir); slices.Contains(l.Files, "docs/new.log") {
			t.Error("the .gitignore the index holds was not applied")
		}
	})
	t.Run("links, deleted and replaced files", func(t *testing.T) {
		outside := t.TempDir()
		writeTree(t, outside, map[string]string{"o.txt": ""})
		dir := newRepo(t, map[string]string{"a.txt": "", "gone.txt": "", "dirlink": "-> " + outside, "filelink": "-> a.txt",
			"became-dir": "", "sub/s.txt": ""})
		commit(t, dir, "add", "-A")
		commit(t, dir, "commit", "-qm", "x")
		os.Remove(filepath.Join(dir, "gone.txt"))
		os.Remove(filepath.Join(dir, "became-dir"))
		writeTree(t, dir, map[string]string{"became-dir/inside.txt": "", "untracked-link": "-> sub"})
		compareListWithGit(t, dir)
	})
	t.Run("index version 4 in a linked work tree", func(t *testing.T) {
		dir := newRepo(t, map[string]string{"f.txt": "", "deep/er/g.txt": "", ".gitignore": "*.ex\n"})
		commit(t, dir, "add", "-A")
		commit(t, dir, "commit", "-qm", "x")
		wt := filepath.Join(t.TempDir(), "wt")
		commit(t, dir, "worktree", "add", "-q", wt)
		git(t, wt, "", "update-index", "--index-version", "4")
		writeTree(t, wt, map[string]string{"a.ex": "", "b.txt": "", "deep/er/h.txt": ""})
		compareListWithGit(t, wt)
	})
	t.Run("core.ignoreCase", func(t *testing.T) {
		dir := newRepo(t, map[string]string{".gitignore": "*.LOG\nBuild/\n", "x.log": "", "build/y": "", "z.txt": ""})
		git(t, dir, "", "config", "core.ignoreCase", "true")
		compareListWithGit(t, dir)
	})
}

// A directory git ignores is listed whole when it is the one asked for, and outside a work tree every
// file is listed, unless the tree's own rules are asked for.
func TestListOfAnIgnoredDirectoryOrOutsideARepository(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitignore": "node_modules/\n*.log\n", "node_modules/p/index.js": "", "node_modules/p/x.log": "", "a.js": ""})
	if l := listed(t, filepath.Join(dir, "node_modules")); l.Git || !slices.Equal(l.Files, []string{"p/index.js", "p/x.log"}) {
		t.Errorf("the ignored directory: %+v", l)
	}
	out := t.TempDir()
	writeTree(t, out, map[string]string{".gitignore": "*.log\n", "a.log": "", "b.txt": "", ".git/HEAD": ""})
	if l := listed(t, out); l.Git || !slices.Equal(l.Files, []string{".gitignore", "a.log", "b.txt"}) {
		t.Errorf("outside a repository: %+v", l)
	}
	l, err := List(context.Background(), out, ListOptions{IgnoreOutsideRepo: true, Dirs: true})
	if err != nil || !slices.Equal(l.Files, []string{".gitignore", "b.txt"}) {
		t.Errorf("outside a repository, with its rules: %+v %v", l, err)
	}
}

// A crafted index cannot lead a listing out of its directory: entries that climb out, are absolute or
// name .git, and entries below a tracked directory now a link, are counted, not listed, though git
// lists them all.
func TestListRefusesIndexEntriesThatLeadOut(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "", "docs/guide.md": "", "docs/more/x.md": ""})
	commit(t, dir, "add", "-A")
	commit(t, dir, "commit", "-qm", "x")
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"guide.md": "", "more/x.md": ""})
	if err := os.RemoveAll(filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, filepath.Dir(dir), map[string]string{"home-secret": ""})
	r, _ := FindRepo(dir, nil, nil)
	idx, ok := gitrepo.NewReader().ReadIndex(r, nil)
	if !ok {
		t.Fatal("index not read")
	}
	crafted := append([]string{"../home-secret", "/etc/passwd", ".git/config", "sub/.GIT/x"}, idx.Paths...)
	slices.Sort(crafted)
	// update-index refuses these paths; write the entries the way a crafted index file would hold them.
	writeIndex(t, dir, crafted)
	gitSees := git(t, dir, "", "ls-files", "--cached")
	for _, p := range []string{"../home-secret", "/etc/passwd", ".git/config", "docs/guide.md"} {
		if !strings.Contains(gitSees, p+"\n") {
			t.Fatalf("git does not list %s from the crafted index:\n%s", p, gitSees)
		}
	}
	l := listed(t, dir)
	if !slices.Equal(l.Files, []string{"a.txt"}) || l.Refused != 6 {
		t.Errorf("listed %q, refused %d; want only a.txt, 6 refused", l.Files, l.Refused)
	}
}

// writeIndex replaces dir's index with one listing paths (sorted), each an empty file.
func writeIndex(t *testing.T, dir string, paths []string) {
	t.Helper()
	var b []byte
	b = append(b, "DIRC\x00\x00\x00\x02"...)
	b = be32(b, uint32(len(paths)))
	empty := []byte{0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b, 0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91}
	for _, p := range paths {
		start := len(b)
		b = append(b, make([]byte, 24)...)
		b = be32(b, 0o100644)
		b = append(b, make([]byte, 12)...)
		b = append(b, empty...)
		b = append(b, byte(len(p)>>8), byte(len(p)))
		b = append(b, p...)
		b = append(b, 0)
		for (len(b)-start)%8 != 0 {
			b = append(b, 0)
		}
	}
	b = append(b, make([]byte, 20)...) // git does not check the checksum when it reads
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func be32(b []byte, v uint32) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }

// Each is told every file and directory once.
func TestListEach(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitignore": "ign/\n", "a.txt": "", "sub/b.txt": "", "ign/tracked.txt": ""})
	commit(t, dir, "add", "-A")
	commit(t, dir, "add", "-f", "ign/tracked.txt")
	var seen []string
	l, err := List(context.Background(), dir, ListOptions{Dirs: true, Each: func(rel string) { seen = append(seen, rel) }})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(seen)
	want := append(slices.Clone(l.Files), l.Dirs...)
	slices.Sort(want)
	if !slices.Equal(seen, want) || !slices.Contains(l.Dirs, "ign/") || !slices.Contains(l.Files, "ign/tracked.txt") {
		t.Errorf("Each saw %q; listing %+v", seen, l)
	}
}
