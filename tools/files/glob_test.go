package files

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// touch sets a file's modification time to base plus seconds.
func (h *fileHarness) touch(rel string, seconds int) {
	h.t.Helper()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(seconds) * time.Second)
	if err := os.Chtimes(h.path(rel), at, at); err != nil {
		h.t.Fatal(err)
	}
}

func TestGlobListsNewestFirst(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	for i, name := range []string{"old.go", "src/mid.go", "src/deep/new.go", "src/b_tie.go", "src/a_tie.go"} {
		h.write(name, "package x\n")
		h.touch(name, []int{1, 2, 3, 2, 2}[i])
	}
	h.write("notes.md", "")
	got := h.ok("glob", map[string]any{"pattern": "**/*.go"})
	want := "src/deep/new.go\nsrc/a_tie.go\nsrc/b_tie.go\nsrc/mid.go\nold.go\n(5 files, newest first)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := h.ok("glob", map[string]any{"pattern": "./*.go"}); got != "old.go\n(1 file, newest first)" {
		t.Errorf("*.go matched below the top directory:\n%s", got)
	}
	if got := h.ok("glob", map[string]any{"pattern": "src/**/*.go"}); !strings.HasPrefix(got, "src/deep/new.go\nsrc/a_tie.go\n") {
		t.Errorf("a pattern with a directory prefix:\n%s", got)
	}
	got = h.ok("glob", map[string]any{"pattern": "*.go", "path": "src"})
	if got != "a_tie.go\nb_tie.go\nmid.go\n(3 files, newest first; paths are relative to src)" {
		t.Errorf("glob with a path:\n%s", got)
	}
	got = h.ok("glob", map[string]any{"pattern": h.path("src") + "/**/new.go"})
	mustContain(t, got, "deep/new.go\n(1 file, newest first; paths are relative to "+h.path("src")+")")
	mustContain(t, h.ok("glob", map[string]any{"pattern": "**/*.rs"}), "No files match **/*.rs")
	mustContain(t, h.ok("glob", map[string]any{"pattern": "nowhere/*.rs"}), "No files match nowhere/*.rs")
	mustContain(t, h.fails("glob", map[string]any{"pattern": "[unclosed"}), "not a valid glob")
	mustContain(t, h.fails("glob", map[string]any{"pattern": "*", "path": "old.go"}), "is a file, not a directory")
}

func TestGlobRespectsGitignoreAndSkipsGit(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write(".gitignore", "build/\n*.log\n")
	h.write("main.go", "")
	h.write("build/out.go", "")
	h.write("debug.log", "")
	h.write("vendor/forced.log", "")
	h.git("add", "-f", "vendor/forced.log") // tracked files are listed even when a rule ignores them
	got := h.ok("glob", map[string]any{"pattern": "**"})
	for _, want := range []string{".gitignore", "main.go", "vendor/forced.log"} {
		mustContain(t, got, want+"\n")
	}
	for _, not := range []string{"build/out.go", "debug.log", ".git/"} {
		if strings.Contains(got, not) {
			t.Errorf("glob listed %s:\n%s", not, got)
		}
	}
	// Naming an ignored directory asks for its files.
	mustContain(t, h.ok("glob", map[string]any{"pattern": "*.go", "path": "build"}), "out.go\n")

	// Outside a repository only .git is skipped.
	h2 := newFileHarness(t)
	h2.write(".gitignore", "*.log\n")
	h2.write("a.log", "")
	h2.write(".git/HEAD", "")
	got = h2.ok("glob", map[string]any{"pattern": "**"})
	mustContain(t, got, "a.log\n")
	if strings.Contains(got, ".git/") {
		t.Errorf("glob listed .git:\n%s", got)
	}
}

func TestGlobCapsItsOutput(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	for i := range 250 {
		h.write(fmt.Sprintf("f%03d.txt", i), "")
		h.touch(fmt.Sprintf("f%03d.txt", i), i)
	}
	got := h.ok("glob", map[string]any{"pattern": "*.txt"})
	lines := strings.Split(got, "\n")
	if len(lines) != globMaxResults+1 || lines[0] != "f249.txt" {
		t.Errorf("%d lines, first %q", len(lines), lines[0])
	}
	mustContain(t, got, "(200 of 250 files shown, newest first; 50 more not shown")
}
