package hostexec

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lab is a machine in miniature: a workspace, a trusted bin directory outside it, and programs to plant.
type lab struct {
	t       *testing.T
	root    string
	ws      string
	trusted string
}

func newLab(t *testing.T) *lab {
	t.Helper()
	root := t.TempDir()
	l := &lab{t: t, root: root, ws: filepath.Join(root, "ws"), trusted: filepath.Join(root, "usr", "bin")}
	for _, d := range []string{l.ws, l.trusted} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// program writes an executable script at path, making its directory.
func (l *lab) program(path string) string {
	l.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		l.t.Fatal(err)
	}
	return path
}

func (l *lab) link(target, at string) {
	l.t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		l.t.Fatal(err)
	}
}

func pathOf(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }

func TestFindPassesOverAProgramInsideTheWorkspace(t *testing.T) {
	l := newLab(t)
	venv := filepath.Join(l.ws, ".venv", "bin")
	l.program(filepath.Join(venv, "rg"))
	want := l.program(filepath.Join(l.trusted, "rg"))
	f := NewFinder(pathOf(venv, filepath.Join(l.ws, "node_modules", ".bin"), l.trusted), []string{l.ws})
	p, err := f.Find("rg")
	if err != nil || p.Path != want || p.Name != "rg" {
		t.Fatalf("Find(rg) = %+v, %v; want %s", p, err, want)
	}
}

func TestFindPassesOverAnAdditionalDirectory(t *testing.T) {
	l := newLab(t)
	extra := filepath.Join(l.root, "extra")
	l.program(filepath.Join(extra, "bin", "git"))
	f := NewFinder(pathOf(filepath.Join(extra, "bin")), []string{l.ws, extra})
	if p, err := f.Find("git"); err == nil {
		t.Fatalf("Find(git) = %+v from an additional directory", p)
	}
}

func TestFindNeverSearchesRelativeOrEmptyEntries(t *testing.T) {
	l := newLab(t)
	l.program(filepath.Join(l.ws, "bwrap"))
	l.program(filepath.Join(l.ws, "bin", "bwrap"))
	want := l.program(filepath.Join(l.trusted, "bwrap"))
	// Warden's current directory is not the workspace here: the entries mean whatever directory the
	// search runs in, and that alone disqualifies them.
	t.Chdir(l.ws)
	for _, path := range []string{pathOf("", l.trusted), pathOf(".", l.trusted), pathOf("bin", l.trusted),
		pathOf("./bin", l.trusted)} {
		f := NewFinder(path, nil)
		p, err := f.Find("bwrap")
		if err != nil || p.Path != want {
			t.Errorf("PATH=%s: Find(bwrap) = %+v, %v; want %s", path, p, err, want)
		}
	}
	_, err := NewFinder(pathOf("", "."), nil).Find("bwrap")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Passed) != 2 || !strings.Contains(err.Error(), "relative PATH entry") {
		t.Errorf("only relative entries: %v", err)
	}
}

func TestFindRefusesALinkOutOfATrustedEntryIntoTheWorkspace(t *testing.T) {
	l := newLab(t)
	inWS := l.program(filepath.Join(l.ws, "tools", "git"))
	l.link(inWS, filepath.Join(l.trusted, "git"))
	f := NewFinder(pathOf(l.trusted), []string{l.ws})
	p, err := f.Find("git")
	if err == nil {
		t.Fatalf("Find(git) = %+v: a link into the workspace was taken", p)
	}
	if !errors.Is(err, exec.ErrNotFound) || !strings.Contains(err.Error(), inWS) {
		t.Errorf("error = %v; want not found, naming %s", err, inWS)
	}
	// The same holds for an entry that is itself a link to a directory of the workspace.
	l2 := newLab(t)
	venv := filepath.Join(l2.ws, ".venv", "bin")
	l2.program(filepath.Join(venv, "git"))
	linked := filepath.Join(l2.root, "home", "bin")
	l2.link(venv, linked)
	if p, err := NewFinder(pathOf(linked), []string{l2.ws}).Find("git"); err == nil {
		t.Errorf("Find(git) through an entry linked into the workspace = %+v", p)
	}
}

func TestFindRefusesTheWorkspaceReachedThroughALink(t *testing.T) {
	l := newLab(t)
	l.program(filepath.Join(l.ws, ".venv", "bin", "rg"))
	wsLink := filepath.Join(l.root, "ws-link")
	l.link(l.ws, wsLink)
	// Warden started in the link; PATH names the real directory.
	f := NewFinder(pathOf(filepath.Join(l.ws, ".venv", "bin")), []string{wsLink})
	if p, err := f.Find("rg"); err == nil {
		t.Errorf("Find(rg) = %+v", p)
	}
}

func TestFindRefusesTheRestOfTheWorkTreeThatHoldsTheWorkspace(t *testing.T) {
	l := newLab(t)
	repo := filepath.Join(l.root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "services", "api")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	l.program(filepath.Join(repo, ".venv", "bin", "rg"))
	want := l.program(filepath.Join(l.trusted, "rg"))
	f := NewFinder(pathOf(filepath.Join(repo, ".venv", "bin"), l.trusted), []string{sub})
	if p, err := f.Find("rg"); err != nil || p.Path != want {
		t.Errorf("Find(rg) = %+v, %v; want %s", p, err, want)
	}
}

func TestFindResolvesLinksAndKeepsTheName(t *testing.T) {
	l := newLab(t)
	real := l.program(filepath.Join(l.root, "opt", "ripgrep", "rg-14"))
	l.link(real, filepath.Join(l.trusted, "rg"))
	p, err := NewFinder(pathOf(l.trusted), []string{l.ws}).Find("rg")
	if err != nil || p.Path != real || p.Name != "rg" {
		t.Errorf("Find(rg) = %+v, %v; want %s started as rg", p, err, real)
	}
}

func TestFindSkipsWhatCannotRun(t *testing.T) {
	l := newLab(t)
	notExec := filepath.Join(l.trusted, "git")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(l.trusted, "rg"), 0o755); err != nil {
		t.Fatal(err)
	}
	l.link(filepath.Join(l.root, "nowhere"), filepath.Join(l.trusted, "bwrap"))
	later := filepath.Join(l.root, "later")
	want := l.program(filepath.Join(later, "git"))
	f := NewFinder(pathOf(l.trusted, later), []string{l.ws})
	if p, err := f.Find("git"); err != nil || p.Path != want {
		t.Errorf("Find(git) = %+v, %v; want %s", p, err, want)
	}
	for _, name := range []string{"rg", "bwrap"} {
		if p, err := f.Find(name); err == nil {
			t.Errorf("Find(%s) = %+v", name, p)
		}
	}
}

func TestFindReportsAMissingProgram(t *testing.T) {
	l := newLab(t)
	_, err := NewFinder(pathOf(l.trusted), []string{l.ws}).Find("no-such-program")
	if !errors.Is(err, exec.ErrNotFound) || err.Error() != "no-such-program was not found on PATH" {
		t.Errorf("error = %v", err)
	}
	for _, name := range []string{"", ".", "..", "bin/rg", "/usr/bin/rg"} {
		if _, err := NewFinder(pathOf(l.trusted), nil).Find(name); err == nil {
			t.Errorf("Find(%q) found something", name)
		}
	}
}
