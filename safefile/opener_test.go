package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lab is a workspace and a home beside it, with a key in the home.
func lab(t *testing.T) (ws, home, key string) {
	t.Helper()
	root := t.TempDir()
	ws, home = filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, filepath.Join(home, ".ssh"), filepath.Join(home, "dotfiles")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key = filepath.Join(home, ".ssh", "id_rsa")
	write(t, key, "PRIVATE KEY")
	return ws, home, key
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func isSecret(p string) bool { return strings.Contains(p, "/.ssh/") || strings.HasSuffix(p, ".env") }

func refused(t *testing.T, err error, want string) {
	t.Helper()
	var r *Refused
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal saying %q", err, want)
	}
	if !strings.Contains(r.Reason, want) {
		t.Fatalf("reason = %q, want it to say %q", r.Reason, want)
	}
}

func TestOpenerReadsAnOrdinaryFileAndALinkThatStaysInside(t *testing.T) {
	ws, _, _ := lab(t)
	write(t, filepath.Join(ws, "docs.md"), "be kind")
	link(t, "docs.md", filepath.Join(ws, "AGENTS.md"))
	o := NewOpener([]string{ws}, isSecret, 0)
	for _, name := range []string{"docs.md", "AGENTS.md"} {
		data, err := o.ReadFile(filepath.Join(ws, name))
		if err != nil || string(data) != "be kind" {
			t.Fatalf("%s: %q, %v", name, data, err)
		}
	}
}

func TestOpenerRefusesALinkOutOfTheWorkspace(t *testing.T) {
	ws, home, _ := lab(t)
	notes := filepath.Join(home, "dotfiles", "notes.md")
	write(t, notes, "private notes")
	link(t, "../home/dotfiles/notes.md", filepath.Join(ws, "AGENTS.md"))
	_, err := NewOpener([]string{ws}, isSecret, 0).ReadFile(filepath.Join(ws, "AGENTS.md"))
	refused(t, err, "outside "+ws)
}

func TestOpenerRefusesALinkOutThroughALinkedDirectory(t *testing.T) {
	ws, home, _ := lab(t)
	write(t, filepath.Join(home, "dotfiles", "x.md"), "x")
	link(t, filepath.Join(home, "dotfiles"), filepath.Join(ws, "docs"))
	_, err := NewOpener([]string{ws}, nil, 0).ReadFile(filepath.Join(ws, "docs", "x.md"))
	refused(t, err, "outside")
}

func TestOpenerRefusesALinkToAKeyEvenFromTheHome(t *testing.T) {
	ws, home, key := lab(t)
	link(t, key, filepath.Join(ws, "CLAUDE.md"))
	link(t, key, filepath.Join(home, "dotfiles", "AGENTS.md"))
	o := NewOpener([]string{ws}, isSecret, 0)
	_, err := o.ReadFile(filepath.Join(ws, "CLAUDE.md"))
	refused(t, err, "outside") // leaving the workspace is named first
	_, err = o.ReadFile(filepath.Join(home, "dotfiles", "AGENTS.md"))
	refused(t, err, "may hold secrets")
	_, err = o.ReadFile(key)
	refused(t, err, "may hold secrets")
}

func TestOpenerFollowsThePersonsOwnLinksOutsideTheWorkspace(t *testing.T) {
	ws, home, _ := lab(t)
	cfg := filepath.Join(home, ".config", "warden")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(home, "dotfiles", "settings.json"), "{}")
	link(t, filepath.Join(home, "dotfiles", "settings.json"), filepath.Join(cfg, "settings.json"))
	data, err := NewOpener([]string{ws}, isSecret, 0).ReadFile(filepath.Join(cfg, "settings.json"))
	if err != nil || string(data) != "{}" {
		t.Fatalf("%q, %v", data, err)
	}
}

func TestOpenerRefusesTheKernelsFiles(t *testing.T) {
	ws, _, _ := lab(t)
	link(t, "/proc/self/environ", filepath.Join(ws, "CLAUDE.md"))
	// Outside the workspace only the kernel check stands between the file and the reader.
	o := NewOpener(nil, nil, 0)
	_, err := o.ReadFile(filepath.Join(ws, "CLAUDE.md"))
	refused(t, err, "kernel")
	_, err = o.ReadFile("/proc/self/environ")
	refused(t, err, "kernel")
	// A file opened by another name on /proc is caught on the open file itself.
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	defer f.Close()
	if why := o.unfit(f, false); !strings.Contains(why, "kernel") {
		t.Fatalf("unfit(/proc/self/status) = %q", why)
	}
}

func TestOpenerNeverWaitsOnAFIFO(t *testing.T) {
	ws, _, _ := lab(t)
	p := filepath.Join(ws, "AGENTS.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := NewOpener([]string{ws}, nil, 0).ReadFile(p); done <- err }()
	select {
	case err := <-done:
		refused(t, err, "not a regular file")
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO waited for a writer")
	}
}

func TestOpenerRefusesAFileLargerThanItsBound(t *testing.T) {
	ws, _, _ := lab(t)
	p := filepath.Join(ws, "big.md")
	write(t, p, strings.Repeat("x", 101))
	_, err := NewOpener([]string{ws}, nil, 100).ReadFile(p)
	refused(t, err, "more than the 100")
	if _, err := NewOpener([]string{ws}, nil, 101).ReadFile(p); err != nil {
		t.Fatal(err)
	}
}

func TestOpenerSaysAMissingFileIsMissing(t *testing.T) {
	ws, _, _ := lab(t)
	link(t, "nowhere.md", filepath.Join(ws, "AGENTS.md"))
	o := NewOpener([]string{ws}, nil, 0)
	for _, name := range []string{"WARDEN.md", "AGENTS.md"} {
		if _, err := o.ReadFile(filepath.Join(ws, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s: err = %v, want not-exist", name, err)
		}
	}
}

func TestOpenWithoutLinksRefusesALinkInAnyComponent(t *testing.T) {
	ws, _, _ := lab(t)
	if err := os.Mkdir(filepath.Join(ws, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws, "real", "f"), "x")
	link(t, "real", filepath.Join(ws, "dir"))
	// This is what a link swapped in after the checks meets: it is refused, not followed.
	if _, err := openWithoutLinks(filepath.Join(ws, "dir", "f")); !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("err = %v, want ELOOP", err)
	}
	f, err := openWithoutLinks(filepath.Join(ws, "real", "f"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestWorkspaceReachedThroughALinkStillBoundsLinks(t *testing.T) {
	ws, home, _ := lab(t)
	alias := filepath.Join(filepath.Dir(ws), "alias")
	link(t, ws, alias)
	write(t, filepath.Join(home, "dotfiles", "n.md"), "n")
	link(t, filepath.Join(home, "dotfiles", "n.md"), filepath.Join(ws, "AGENTS.md"))
	write(t, filepath.Join(ws, "ok.md"), "ok")
	o := NewOpener([]string{alias}, nil, 0)
	_, err := o.ReadFile(filepath.Join(ws, "AGENTS.md"))
	refused(t, err, "outside")
	if data, err := o.ReadFile(filepath.Join(alias, "ok.md")); err != nil || string(data) != "ok" {
		t.Fatalf("%q, %v", data, err)
	}
}

func TestOpenDirRefusesAFolderThatLeadsOutOfTheWorkspace(t *testing.T) {
	ws, home, _ := lab(t)
	if err := os.MkdirAll(filepath.Join(home, "dotfiles", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, home, filepath.Join(ws, ".claude", "commands"))
	link(t, filepath.Join(home, "dotfiles"), filepath.Join(ws, ".warden"))
	o := NewOpener([]string{ws}, isSecret, 0)
	for _, p := range []string{filepath.Join(ws, ".claude", "commands"), filepath.Join(ws, ".warden", "commands")} {
		f, err := o.OpenDir(p)
		if err == nil {
			f.Close()
		}
		refused(t, err, "outside "+ws)
	}
	if err := os.Mkdir(filepath.Join(home, ".ssh", "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := o.OpenDir(filepath.Join(home, ".ssh", "keys"))
	refused(t, err, "may hold secrets")
	write(t, filepath.Join(ws, "file"), "x")
	_, err = o.OpenDir(filepath.Join(ws, "file"))
	refused(t, err, "not a directory")

	// The person's own folder may be a link into their dotfiles, and a folder of the workspace lists.
	link(t, filepath.Join(home, "dotfiles", "commands"), filepath.Join(home, "commands"))
	for _, p := range []string{filepath.Join(home, "commands"), ws} {
		f, err := o.OpenDir(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if _, err := f.ReadDir(-1); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f.Close()
	}
}

func TestANilOpenerIsTheZeroOne(t *testing.T) {
	ws, _, key := lab(t)
	var o *Opener
	if data, err := o.ReadFile(key); err != nil || string(data) != "PRIVATE KEY" {
		t.Fatalf("%q, %v", data, err)
	}
	link(t, "/proc/self/environ", filepath.Join(ws, "env"))
	_, err := o.ReadFile(filepath.Join(ws, "env"))
	refused(t, err, "kernel")
}
