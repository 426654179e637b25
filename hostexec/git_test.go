package hostexec

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitLab is a repository that names a program wherever its configuration can: each writes a marker
// file named for the key that ran it.
type gitLab struct {
	*lab
	markers string
	missing string // an object the repository lacks, which a lazy fetch would go for
}

func newGitLab(t *testing.T) *gitLab {
	t.Helper()
	l := &gitLab{lab: newLab(t), markers: filepath.Join(t.TempDir(), "markers")}
	if err := os.Mkdir(l.markers, 0o755); err != nil {
		t.Fatal(err)
	}
	upstream := filepath.Join(l.root, "upstream")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	must(t, os.MkdirAll(upstream, 0o755))
	git(upstream, "init", "-q")
	must(t, os.WriteFile(filepath.Join(upstream, "far.txt"), []byte("only upstream has this\n"), 0o644))
	git(upstream, "add", "far.txt")
	git(upstream, "commit", "-qm", "far")
	l.missing = git(upstream, "rev-parse", "HEAD:far.txt")

	git(l.ws, "init", "-q")
	must(t, os.WriteFile(filepath.Join(l.ws, "tracked.txt"), []byte("x\n"), 0o644))
	git(l.ws, "add", "tracked.txt")
	must(t, os.WriteFile(filepath.Join(l.ws, "untracked.txt"), []byte("y\n"), 0o644))
	marker := func(key string) string {
		return l.program2(filepath.Join(l.root, "progs", key), filepath.Join(l.markers, key))
	}
	git(l.ws, "config", "core.repositoryformatversion", "1")
	for key, value := range map[string]string{
		"core.fsmonitor":           marker("fsmonitor"),
		"core.pager":               marker("pager"),
		"core.sshCommand":          marker("ssh"),
		"credential.helper":        marker("credential"),
		"extensions.partialClone":  "origin",
		"remote.origin.url":        upstream,
		"remote.origin.promisor":   "true",
		"remote.origin.uploadpack": marker("uploadpack"),
	} {
		git(l.ws, "config", key, value)
	}
	return l
}

// program2 writes a script at path that creates marker.
func (l *lab) program2(path, marker string) string {
	l.t.Helper()
	must(l.t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(l.t, os.WriteFile(path, []byte(fmt.Sprintf("#!/bin/sh\ntouch %s\nexit 1\n", marker)), 0o755))
	return path
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (l *gitLab) ran() []string {
	entries, _ := os.ReadDir(l.markers)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestGitRunsNoProgramTheRepositoryNames(t *testing.T) {
	l := newGitLab(t)
	f := NewFinder(os.Getenv("PATH"), []string{l.ws})
	// What the caller's environment says about git must not count either.
	env := append(os.Environ(), "GIT_CONFIG_PARAMETERS='core.fsmonitor'='"+l.program2(filepath.Join(l.root, "progs", "env"),
		filepath.Join(l.markers, "env-fsmonitor"))+"'", "GIT_DIR="+filepath.Join(l.root, "upstream", ".git"))
	cmd, err := f.Git(context.Background(), env, l.ws, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ls-files: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if slices.Sort(got); strings.Join(got, " ") != "tracked.txt untracked.txt" {
		t.Errorf("ls-files listed %q", got)
	}
	cmd, err = f.Git(context.Background(), env, l.ws, "cat-file", "-p", l.missing)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("cat-file of an object the repository lacks succeeded: %s", out)
	}
	if ran := l.ran(); len(ran) > 0 {
		t.Fatalf("the repository's programs ran: %v", ran)
	}

	// The same gits started plainly run them: the fixture is what it says.
	for _, args := range [][]string{{"ls-files"}, {"cat-file", "-p", l.missing}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = l.ws
		_ = cmd.Run()
	}
	if ran := strings.Join(l.ran(), " "); !strings.Contains(ran, "fsmonitor") || !strings.Contains(ran, "uploadpack") {
		t.Errorf("plain git ran only %q; the fixture does not show what it should", ran)
	}
}

func TestGitRefusesSubcommandsThatMayRunTheRepositorysDrivers(t *testing.T) {
	l := newLab(t)
	f := NewFinder(os.Getenv("PATH"), []string{l.ws})
	for _, args := range [][]string{
		nil, {""}, {"status"}, {"diff"}, {"log", "-p"}, {"show"}, {"blame", "x"}, {"checkout", "."}, {"fetch"},
		{"-c", "core.pager=x", "ls-files"}, {"--exec-path=/tmp", "ls-files"}, {"cat-file", "--filters", "HEAD:x"},
		{"cat-file", "--textconv", "HEAD:x"}, {"cat-file", "--batch", "--filters"}, {"cat-file", "--textconv=yes"},
	} {
		if cmd, err := f.Git(context.Background(), nil, l.ws, args...); err == nil {
			t.Errorf("git %q was built: %v", args, cmd.Args)
		}
	}
	for _, args := range [][]string{{"ls-files"}, {"rev-parse", "--show-toplevel"}, {"cat-file", "-p", "HEAD"}} {
		if _, err := f.Git(context.Background(), nil, l.ws, args...); err != nil {
			t.Errorf("git %q: %v", args, err)
		}
	}
}

func TestGitIsNeverTheWorkspaces(t *testing.T) {
	l := newGitLab(t)
	venv := filepath.Join(l.ws, ".venv", "bin")
	l.program2(filepath.Join(venv, "git"), filepath.Join(l.markers, "workspace-git"))
	f := NewFinder(pathOf(venv, os.Getenv("PATH")), []string{l.ws})
	cmd, err := f.Git(context.Background(), nil, l.ws, "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != l.ws {
		t.Errorf("rev-parse: %q, %v", out, err)
	}
	if ran := l.ran(); len(ran) > 0 {
		t.Errorf("ran: %v", ran)
	}
}
