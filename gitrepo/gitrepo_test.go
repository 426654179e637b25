package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// git runs git with the test's own configuration only, so the machine's files change nothing.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
		"-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadConfig reads a configuration chain with the policy Everything, through a Reader of its own.
func loadConfig(r Repo, env Env, home string) Config {
	return NewReader().Load(r, LoadOptions{Env: env, Home: home})
}

func tempDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLoadConfigFollowsEveryInclude: include.path and includeIf are followed whatever the condition,
// relative to the including file, and the environment's variables come last.
func TestLoadConfigFollowsEveryInclude(t *testing.T) {
	dir := tempDir(t)
	home := filepath.Join(dir, "home")
	write(t, filepath.Join(home, ".gitconfig"), "[includeIf \"gitdir:/nowhere/\"]\npath = inc/a\n")
	write(t, filepath.Join(home, "inc", "a"), "[include]\npath = b\n")
	write(t, filepath.Join(home, "inc", "b"), "[diff \"x\"]\ntextconv = ./conv\n")
	write(t, filepath.Join(dir, "loop"), "[include]\npath = loop\n")
	env := func(name string) (string, bool) {
		switch name {
		case "GIT_CONFIG_NOSYSTEM":
			return "1", true
		case "GIT_CONFIG_COUNT":
			return "1", true
		case "GIT_CONFIG_KEY_0":
			return "Core.FSMonitor", true
		case "GIT_CONFIG_VALUE_0":
			return "./m", true
		}
		return "", false
	}
	cfg := loadConfig(Repo{}, env, home)
	if cfg.Problem != "" {
		t.Fatalf("problem: %s", cfg.Problem)
	}
	e, ok := cfg.Last("diff.x.textconv")
	if !ok || e.File != filepath.Join(home, "inc", "b") || e.Line != 2 {
		t.Errorf("textconv: %+v %v", e, ok)
	}
	if e, ok := cfg.Last("core.fsmonitor"); !ok || e.File != "" || e.Value != "./m" {
		t.Errorf("fsmonitor from the environment: %+v %v", e, ok)
	}
	loop := loadConfig(Repo{}, func(n string) (string, bool) {
		if n == "GIT_CONFIG_GLOBAL" {
			return filepath.Join(dir, "loop"), true
		}
		return "", n == "GIT_CONFIG_NOSYSTEM"
	}, home)
	if !strings.Contains(loop.Problem, "nest") {
		t.Errorf("an include loop: problem %q", loop.Problem)
	}
}

// TestFindRepositories: top-level, nested, linked work trees, submodules, GIT_DIR, inside .git.
func TestFindRepositories(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	top := filepath.Join(dir, "top")
	write(t, filepath.Join(top, "a.txt"), "a\n")
	git(t, dir, "init", "-q", top)
	git(t, top, "add", "-A")
	git(t, top, "commit", "-qm", "a")
	nested := filepath.Join(top, "vendor", "x")
	write(t, filepath.Join(nested, "b.txt"), "b\n")
	git(t, dir, "init", "-q", nested)
	sub := filepath.Join(dir, "sub")
	write(t, filepath.Join(sub, "s.txt"), "s\n")
	git(t, dir, "init", "-q", sub)
	git(t, sub, "add", "-A")
	git(t, sub, "commit", "-qm", "s")
	git(t, top, "submodule", "add", "-q", sub, "mods/s")
	wt := filepath.Join(dir, "wt")
	git(t, top, "worktree", "add", "-q", wt)

	for _, c := range []struct{ dir, top, gitDir, common string }{
		{top, top, top + "/.git", top + "/.git"},
		{filepath.Join(top, "vendor"), top, top + "/.git", top + "/.git"},
		{nested, nested, nested + "/.git", nested + "/.git"},
		{filepath.Join(top, "mods", "s"), filepath.Join(top, "mods", "s"), top + "/.git/modules/mods/s", top + "/.git/modules/mods/s"},
		{wt, wt, top + "/.git/worktrees/wt", top + "/.git"},
		{filepath.Join(top, ".git", "hooks"), "", top + "/.git", top + "/.git"},
	} {
		r, ok := rd.Find(c.dir, func(string) (string, bool) { return "", false }, nil)
		if !ok || r.Top != c.top || r.GitDir != c.gitDir || r.CommonDir != c.common {
			t.Errorf("Find(%s) = %+v %v, want top %s, git dir %s, common %s", c.dir, r, ok, c.top, c.gitDir, c.common)
		}
	}
	r, ok := rd.Find(dir, func(n string) (string, bool) {
		if n == "GIT_DIR" {
			return "top/.git", true
		}
		return "", false
	}, nil)
	if !ok || r.GitDir != top+"/.git" || r.Top != dir || !r.FromEnv {
		t.Errorf("GIT_DIR: %+v %v", r, ok)
	}
	if _, ok := rd.Find(dir, func(string) (string, bool) { return "", false }, nil); ok {
		t.Errorf("found a repository above %s", dir)
	}
}

// TestReadIndexVersions: versions 2, 3 and 4 list the same files; a split index is refused.
func TestReadIndexVersions(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	for _, f := range []string{"a.txt", "src/main.go", "src/deep/x.go", "src/deep/y.go", "z"} {
		write(t, filepath.Join(dir, f), f)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,0123456789012345678901234567890123456789,lib")
	want := strings.Fields(git(t, dir, "ls-files"))
	r, _ := rd.Find(dir, nil, nil)
	for _, v := range []string{"2", "3", "4"} {
		git(t, dir, "update-index", "--index-version", v)
		idx, ok := rd.ReadIndex(r, nil)
		if !ok || !slices.Equal(idx.Paths, want) || !slices.Equal(idx.Gitlinks, []string{"lib"}) {
			t.Errorf("version %s: %v %q %q, want %q", v, ok, idx.Paths, idx.Gitlinks, want)
		}
	}
	git(t, dir, "update-index", "--split-index")
	if _, ok := rd.ReadIndex(r, nil); ok {
		t.Errorf("a split index was read as complete")
	}
}

// TestReadHistoryMatchesGit: the paths of every commit reachable from refs and reflogs, read from loose
// objects and from packs with deltas, are the ones git lists.
func TestReadHistoryMatchesGit(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	git(t, dir, "init", "-q")
	for i := range 30 {
		write(t, filepath.Join(dir, "src", fmt.Sprintf("f%d.go", i%7)), strings.Repeat(fmt.Sprintf("line %d\n", i), 50+i))
		if i == 3 {
			write(t, filepath.Join(dir, ".env"), "SECRET=1\n")
		}
		if i == 5 {
			git(t, dir, "rm", "-q", "--cached", ".env")
			os.Remove(filepath.Join(dir, ".env"))
		}
		if i == 9 {
			write(t, filepath.Join(dir, "deep", "a", "b", "c.txt"), "c\n")
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint(i))
	}
	git(t, dir, "tag", "-a", "-m", "v1", "v1", "HEAD~3")
	// A commit only a reflog remembers.
	write(t, filepath.Join(dir, "dropped.key"), "k\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "dropped")
	git(t, dir, "reset", "-q", "--hard", "HEAD~1")
	// A stash holding an untracked file.
	write(t, filepath.Join(dir, "stashed.pem"), "p\n")
	git(t, dir, "stash", "-q", "-u")

	r, _ := rd.Find(dir, nil, nil)
	check := func(when string) {
		t.Helper()
		want := map[string]bool{}
		for _, p := range strings.Split(git(t, dir, "log", "--all", "--reflog", "--format=", "--name-only", "--no-renames", "-m", "--first-parent", "--root"), "\n") {
			if p != "" {
				want[p] = true
			}
		}
		// --name-only lists what each commit changed, which covers every path any commit holds once
		// the root commits are included; the stash's untracked-files commit is a parentless commit.
		for _, p := range strings.Split(git(t, dir, "ls-tree", "-r", "--name-only", "stash^3"), "\n") {
			if p != "" {
				want[p] = true
			}
		}
		h, err := rd.ReadHistory(r, nil, 0)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var wantList []string
		for p := range want {
			wantList = append(wantList, p)
		}
		slices.Sort(wantList)
		if !slices.Equal(h.Paths, wantList) {
			t.Errorf("%s:\n got  %q\n want %q", when, h.Paths, wantList)
		}
		for _, p := range []string{".env", "dropped.key", "stashed.pem", "deep/a/b/c.txt"} {
			if !h.Has(p) {
				t.Errorf("%s: %s not in history", when, p)
			}
		}
	}
	check("loose objects")
	git(t, dir, "gc", "-q", "--aggressive", "--prune=now")
	check("packed with deltas")
	// New commits after the packs are read too.
	write(t, filepath.Join(dir, "later.txt"), "l\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "later")
	check("a new commit")
}

// TestReadHistoryWithinALimit: a walk that takes longer than it is given says so, finishes in the
// background, and is found done afterwards.
func TestReadHistoryWithinALimit(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	git(t, dir, "init", "-q")
	for i := range 80 {
		write(t, filepath.Join(dir, fmt.Sprintf("d%d", i%9), fmt.Sprintf("f%d.txt", i)), fmt.Sprint(i))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint(i))
	}
	r, _ := rd.Find(dir, nil, nil)
	if _, err := rd.ReadHistory(r, nil, time.Nanosecond); !errors.Is(err, ErrHistoryNotYet) {
		t.Fatalf("a walk given a nanosecond: %v", err)
	}
	// A call without a limit waits for the walk going on in the background.
	done := make(chan error, 1)
	go func() { _, err := rd.ReadHistory(r, nil, 0); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the background walk did not finish in 30s")
	}
	h, err := rd.ReadHistory(r, nil, time.Nanosecond)
	if err != nil || !h.Has("d3/f75.txt") || len(h.Paths) != 80 {
		t.Errorf("history after the background walk: %d paths, %v", len(h.Paths), err)
	}
}
