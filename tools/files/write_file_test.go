package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func TestWriteFileCreatesParentsAndShowsTheNewFileAsADiff(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	args := map[string]any{"path": "deep/er/new.txt", "content": "hello\nworld\n"}
	a, err := h.access("write_file", args)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != tools.AccessWrite || a.Path != h.path("deep/er/new.txt") || a.Summary != "deep/er/new.txt" {
		t.Errorf("Access = %+v", a)
	}
	mustContain(t, a.Diff, "--- /dev/null\n+++ b/deep/er/new.txt\n", "+hello\n+world\n")
	if _, err := os.Stat(h.path("deep")); !os.IsNotExist(err) {
		t.Fatal("Access created the directory")
	}
	got := h.ok("write_file", args)
	mustContain(t, got, "Created deep/er/new.txt (2 lines)")
	if h.read("deep/er/new.txt") != "hello\nworld\n" {
		t.Errorf("content = %q", h.read("deep/er/new.txt"))
	}
}

func TestWriteFileDiffsAgainstTheOldContentAndKeepsTheMode(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	p := h.write("run.sh", "#!/bin/sh\necho one\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho two\n"}
	a, err := h.access("write_file", args)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, a.Diff, "--- a/run.sh\n+++ b/run.sh\n", "-echo one\n+echo two\n")
	if h.read("run.sh") != "#!/bin/sh\necho one\n" {
		t.Fatal("Access wrote the file")
	}
	res := h.run("write_file", args)
	mustContain(t, res.Output, "Wrote run.sh (2 lines, was 2)")
	mustContain(t, res.Display, "+echo two")
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode became %v", fi.Mode().Perm())
	}
	// What was written counts as read: the model may edit it next.
	h.ok("edit_file", map[string]any{"path": "run.sh", "old_string": "two", "new_string": "three"})
}

func TestWriteFileKeepsCRLF(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("win.txt", "a\r\nb\r\n")
	h.ok("write_file", map[string]any{"path": "win.txt", "content": "x\ny\n"})
	if got := h.read("win.txt"); got != "x\r\ny\r\n" {
		t.Errorf("content = %q, want CRLF kept", got)
	}
}

func TestWriteFileRefusesDirectories(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("d/a.txt", "")
	mustContain(t, h.fails("write_file", map[string]any{"path": "d", "content": "x"}), "d is a directory")
}

func TestWriteFilePermissionsByMode(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	for _, c := range []struct {
		mode permissions.Mode
		path string
		want permissions.Decision
	}{
		{permissions.ModeDefault, "a.txt", permissions.Ask},
		{permissions.ModeAcceptEdits, "a.txt", permissions.Allow},
		{permissions.ModeAcceptEdits, ".git/config", permissions.Ask},
		{permissions.ModeAcceptEdits, ".warden/settings.json", permissions.Ask},
		{permissions.ModeAcceptEdits, "../outside.txt", permissions.Ask},
		{permissions.ModePlan, "a.txt", permissions.Deny},
	} {
		a, err := h.access("write_file", map[string]any{"path": c.path, "content": "x"})
		if err != nil {
			t.Fatal(err)
		}
		if got := decide(h.engine(c.mode), a); got != c.want {
			t.Errorf("%s write %s: %s, want %s", c.mode, c.path, got, c.want)
		}
	}
}

func TestWriteFileLargeDiffIsSummarised(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	line := strings.Repeat("o", 99) + "\n"
	h.write("big.txt", strings.Repeat(line, 45_000)) // 4.5 MB
	a, err := h.access("write_file", map[string]any{"path": "big.txt", "content": strings.Repeat("n", 10)})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, a.Diff, "too large to show: 45,000 lines, 4.5 MB, replaced by 1 lines")
}

func TestWriteResolvedRefusesALinkInThePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := writeResolved(filepath.Join(dir, "link", "f"), []byte("x"), 0o644); err == nil ||
		!strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err = %v", err)
	}
	if err := os.Symlink(filepath.Join(real, "target"), filepath.Join(real, "last")); err != nil {
		t.Fatal(err)
	}
	if err := writeResolved(filepath.Join(real, "last"), []byte("x"), 0o644); err == nil {
		t.Error("a link as the last component was followed")
	}
	if _, err := os.Stat(filepath.Join(real, "target")); err == nil {
		t.Error("the link's target was created")
	}
	if err := writeResolved(filepath.Join(real, "f"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(real, "f")); err != nil || fi.Size() != 5 || fi.Mode().Perm() != 0o600 {
		t.Errorf("stat = %v, %v", fi, err)
	}
}

func TestWriteFileDiffIsShownWholeUpToItsCap(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	content := func(n int) string { return strings.Repeat("line\n", n) }
	a, err := h.access("write_file", map[string]any{"path": "a.txt", "content": content(diffMaxLines - 10)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Diff, "more diff lines") || strings.Count(a.Diff, "\n+line") != diffMaxLines-10 {
		t.Errorf("a diff under the cap was cut: %d lines", strings.Count(a.Diff, "\n"))
	}
	a, err = h.access("write_file", map[string]any{"path": "a.txt", "content": content(diffMaxLines + 100)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(a.Diff, "… 103 more diff lines\n") {
		t.Errorf("the end of a diff over the cap: %q", a.Diff[len(a.Diff)-60:])
	}
}
