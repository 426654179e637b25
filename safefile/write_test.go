package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// emptyDir fails the test unless dir holds nothing.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("%s holds %v, want nothing written there", dir, names)
	}
}

func TestWriteWithinMakesTheDirectoriesAndReplacesTheFileWhole(t *testing.T) {
	ws, _, _ := lab(t)
	if err := WriteWithin(ws, ".warden/settings.local.json", []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ws, ".warden", "settings.local.json")
	if b, err := os.ReadFile(p); err != nil || string(b) != "{}\n" {
		t.Fatalf("%q, %v", b, err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteWithin(ws, ".warden/settings.local.json", []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if b, _ := os.ReadFile(p); err != nil || string(b) != `{"a":1}` || fi.Mode().Perm() != 0o640 {
		t.Fatalf("after the second write: %q, mode %v, %v; want the new content and the mode kept", b, fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("%d entries beside the file, want no temporary file left", len(entries))
	}
}

func TestWriteWithinRefusesALinkedDirectoryOnTheWay(t *testing.T) {
	ws, home, _ := lab(t)
	outside := filepath.Join(home, "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, outside, filepath.Join(ws, ".warden"))
	err := WriteWithin(ws, ".warden/settings.local.json", []byte("{}"), 0o600)
	var r *Refused
	if !errors.As(err, &r) || !r.Write || !strings.Contains(r.Reason, ".warden is a link to "+outside) {
		t.Fatalf("err = %v, want a refusal naming the link", err)
	}
	if !strings.Contains(err.Error(), "was not written") {
		t.Errorf("err = %q, want it to say the file was not written", err)
	}
	emptyDir(t, outside)
	// A link further down is refused too, and so is one inside the workspace: no link is followed.
	if err := os.Remove(filepath.Join(ws, ".warden")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, outside, filepath.Join(ws, "a", "b"))
	link(t, "a", filepath.Join(ws, "inner"))
	for _, rel := range []string{"a/b/c/f", "inner/f"} {
		if err := WriteWithin(ws, rel, []byte("x"), 0o644); !errors.As(err, &r) {
			t.Errorf("%s: err = %v, want a refusal", rel, err)
		}
	}
	emptyDir(t, outside)
}

func TestWriteWithinRefusesToWriteThroughOrOverALink(t *testing.T) {
	ws, home, _ := lab(t)
	target := filepath.Join(home, "dotfiles", "bashrc")
	write(t, target, "original")
	link(t, target, filepath.Join(ws, "f"))
	err := WriteWithin(ws, "f", []byte("changed"), 0o644)
	var r *Refused
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "it is a link to "+target) {
		t.Fatalf("err = %v, want a refusal naming the link", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "original" {
		t.Fatalf("the link's target became %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "f")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link itself was replaced: %v, %v", fi, err)
	}
}

func TestWriteWithinRefusesWhatIsNotAFile(t *testing.T) {
	ws, _, _ := lab(t)
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws, "file"), "x")
	for rel, want := range map[string]string{"fifo": "not a regular file", "file/below": "file is not a directory",
		"../x": "not a plain relative path", "/etc/x": "not a plain relative path", "a//b": "not a plain relative path"} {
		err := WriteWithin(ws, rel, []byte("x"), 0o644)
		var r *Refused
		if !errors.As(err, &r) || !strings.Contains(r.Reason, want) {
			t.Errorf("%s: err = %v, want a refusal saying %q", rel, err, want)
		}
	}
}

func TestCreateWithinLeavesWhateverIsThere(t *testing.T) {
	ws, home, _ := lab(t)
	if err := CreateWithin(ws, ".warden/.gitignore", []byte("settings.local.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, existing := range []string{"kept\n", ""} {
		p := filepath.Join(ws, ".warden", ".gitignore")
		if existing == "" {
			// A link is something too: it is neither followed nor replaced.
			os.Remove(p)
			link(t, filepath.Join(home, "dotfiles", "ignore"), p)
		} else {
			write(t, p, existing)
		}
		if err := CreateWithin(ws, ".warden/.gitignore", []byte("new\n"), 0o644); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("err = %v, want fs.ErrExist", err)
		}
		if existing != "" {
			if b, _ := os.ReadFile(p); string(b) != existing {
				t.Fatalf("the file became %q", b)
			}
		}
	}
	if _, err := os.Lstat(filepath.Join(home, "dotfiles", "ignore")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("something was written through the link: %v", err)
	}
}

func TestOpenParentAtWalksWithoutFollowingLinks(t *testing.T) {
	ws, home, _ := lab(t)
	if err := os.MkdirAll(filepath.Join(ws, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(t, filepath.Join(home, "dotfiles"), filepath.Join(ws, "a", "l"))
	root, err := os.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fd, name, err := OpenParentAt(int(root.Fd()), "a/b/f", false)
	if err != nil || name != "f" {
		t.Fatalf("%q, %v", name, err)
	}
	syscall.Close(fd)
	if _, _, err := OpenParentAt(int(root.Fd()), "a/l/f", false); err == nil {
		t.Fatal("walked through a link")
	}
	if _, _, err := OpenParentAt(int(root.Fd()), "a/new/f", false); !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("err = %v, want ENOENT without create", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "a", "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a directory was made without create")
	}
}
