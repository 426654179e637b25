package hostexec

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// git runs git in dir with a configuration of the test's own, failing the test on an error.
func (l *lab) git(dir string, args ...string) {
	l.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
		"-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		l.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// repo makes a git repository at dir with one commit holding the files named.
func (l *lab) repo(dir string, files ...string) {
	l.t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		l.t.Fatal(err)
	}
	for _, f := range files {
		l.program(filepath.Join(dir, f))
	}
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("x\n"), 0o644); err != nil {
		l.t.Fatal(err)
	}
	l.git(dir, "init", "-q")
	l.git(dir, "add", "-A")
	l.git(dir, "commit", "-qm", "files")
}

// findsTrusted checks that rg is found in the lab's trusted directory, not in the planted one.
func (l *lab) findsTrusted(planted string, untrusted ...string) {
	l.t.Helper()
	want := l.program(filepath.Join(l.trusted, "rg"))
	p, err := NewFinder(pathOf(planted, l.trusted), untrusted).Find("rg")
	if err != nil || p.Path != want {
		l.t.Errorf("Find(rg) = %+v, %v; want %s, not the one in %s", p, err, want, planted)
	}
}

// The workspace is a submodule: its superproject, cloned with it, is the repository's too.
func TestFindPassesOverTheSuperprojectOfASubmodule(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newLab(t)
	t.Setenv("HOME", filepath.Join(l.root, "home"))
	l.repo(filepath.Join(l.root, "subsrc"))
	super := filepath.Join(l.root, "super")
	l.repo(super, "tools/rg")
	l.git(super, "submodule", "add", "-q", filepath.Join(l.root, "subsrc"), "sub")
	l.findsTrusted(filepath.Join(super, "tools"), filepath.Join(super, "sub"))
}

// The workspace is a linked work tree: the main checkout shares its repository; and the other way round,
// a linked work tree of the workspace's repository is the repository's too.
func TestFindPassesOverTheOtherCheckoutsOfTheRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newLab(t)
	t.Setenv("HOME", filepath.Join(l.root, "home"))
	main := filepath.Join(l.root, "main")
	l.repo(main, ".venv/bin/rg")
	linked := filepath.Join(l.root, "linked")
	l.git(main, "worktree", "add", "-q", linked)
	l.findsTrusted(filepath.Join(main, ".venv", "bin"), linked)
	l.program(filepath.Join(linked, "node_modules", ".bin", "rg"))
	l.findsTrusted(filepath.Join(linked, "node_modules", ".bin"), main)
}

// A repository checked out inside another: the outer work tree is untrusted too, up to the home, whose
// own repository (the person's dotfiles) holds the person's programs; a workspace in the home outside any
// other repository is the home repository's, as before.
func TestFindPassesOverEveryWorkTreeAroundTheWorkspaceBelowTheHome(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newLab(t)
	home := filepath.Join(l.root, "home")
	t.Setenv("HOME", home)
	l.repo(home, ".local/bin/rg")
	outer := filepath.Join(home, "src", "outer")
	l.repo(outer, "bin/rg")
	inner := filepath.Join(outer, "vendor", "inner")
	l.repo(inner)
	l.findsTrusted(filepath.Join(outer, "bin"), inner)
	mine := filepath.Join(home, ".local", "bin", "rg")
	if p, err := NewFinder(pathOf(filepath.Join(home, ".local", "bin"), l.trusted), []string{inner}).Find("rg"); err != nil || p.Path != mine {
		t.Errorf("Find(rg) = %+v, %v; want the person's own %s", p, err, mine)
	}
	notes := filepath.Join(home, "notes")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	l.findsTrusted(filepath.Join(home, ".local", "bin"), notes)
}

// A git directory's commondir that is a FIFO is passed over without waiting.
func TestFindDoesNotWaitOnAPlantedGitFile(t *testing.T) {
	l := newLab(t)
	gd := filepath.Join(l.root, "gd")
	if err := os.MkdirAll(gd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.ws, ".git"), []byte("gitdir: "+gd+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(gd, "commondir"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- repositoryTrees(l.ws, "") }()
	select {
	case got := <-done:
		if len(got) != 1 || got[0] != l.ws {
			t.Errorf("trees = %v, want the workspace alone", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search waited on a FIFO")
	}
}
