package files

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func TestEditFileReplacesExactTextAndShowsTheDiffFirst(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("main.go", "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	h.ok("read_file", map[string]any{"path": "main.go"})
	args := map[string]any{"path": "main.go", "old_string": "println(\"hi\")", "new_string": "println(\"bye\")"}
	a, err := h.access("edit_file", args)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != tools.AccessEdit || a.Path != h.path("main.go") || a.Summary != "main.go" {
		t.Errorf("Access = %+v", a)
	}
	mustContain(t, a.Diff, "--- a/main.go\n+++ b/main.go\n", "-\tprintln(\"hi\")\n+\tprintln(\"bye\")\n")
	if strings.Contains(h.read("main.go"), "bye") {
		t.Fatal("Access wrote the file")
	}
	res := h.run("edit_file", args)
	if res.IsError {
		t.Fatal(res.Output)
	}
	mustContain(t, res.Output, "Edited main.go: replaced 1 occurrence.", "     4\t\tprintln(\"bye\")")
	mustContain(t, res.Display, "+\tprintln(\"bye\")")
	if h.read("main.go") != "package main\n\nfunc main() {\n\tprintln(\"bye\")\n}\n" {
		t.Errorf("content = %q", h.read("main.go"))
	}
	// The stored hash follows the tool's own writes, so edits can follow one another.
	h.ok("edit_file", map[string]any{"path": "main.go", "old_string": "bye", "new_string": "ciao"})
	h.ok("edit_file", map[string]any{"path": "main.go", "old_string": "package main", "new_string": "package app"})
	if h.read("main.go") != "package app\n\nfunc main() {\n\tprintln(\"ciao\")\n}\n" {
		t.Errorf("content = %q", h.read("main.go"))
	}
}

func TestEditFileNeedsARead(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "x\n")
	got := h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "x", "new_string": "y"})
	mustContain(t, got, "a.txt has not been read in this conversation; read it with read_file first")
	h.ok("read_file", map[string]any{"path": "a.txt"})
	edit := h.input(map[string]any{"path": "a.txt", "old_string": "x", "new_string": "y"})
	if _, err := h.tools["edit_file"].Access(h.env, edit); err != nil {
		t.Fatalf("after the read: %v", err)
	}
	// A sub-agent (a forked Env) and a new session (a new Env) have records of their own, both ways.
	child := h.env.Fork()
	if _, err := h.tools["edit_file"].Access(child, edit); err == nil {
		t.Error("the parent's read let a sub-agent edit")
	}
	fresh := tools.NewEnv(h.env.Workspace, h.env.SessionDir)
	fresh.Resolve = h.env.Resolve
	if _, err := h.tools["edit_file"].Access(fresh, edit); err == nil {
		t.Error("one session's read let another session edit")
	}
	h.write("b.txt", "x\n")
	if r := h.tools["read_file"].Run(t.Context(), child, tools.Call{ID: "r", Input: h.input(map[string]any{"path": "b.txt"})}); r.IsError {
		t.Fatal(r.Output)
	}
	if _, err := h.tools["edit_file"].Access(child, h.input(map[string]any{"path": "b.txt", "old_string": "x", "new_string": "y"})); err != nil {
		t.Errorf("the sub-agent cannot edit what it read: %v", err)
	}
	mustContain(t, h.fails("edit_file", map[string]any{"path": "b.txt", "old_string": "x", "new_string": "y"}), "b.txt has not been read")
}

func TestEditFileRefusesAFileChangedOnDiskSinceTheRead(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "alpha\nbeta\n")
	h.ok("read_file", map[string]any{"path": "a.txt"})
	h.write("a.txt", "alpha\nbeta\ngamma\n") // the user edits it meanwhile
	got := h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "beta", "new_string": "BETA"})
	mustContain(t, got, "a.txt has changed on disk since you last read it", "read it again with read_file")
	if h.read("a.txt") != "alpha\nbeta\ngamma\n" {
		t.Error("the refused edit changed the file")
	}
	h.ok("read_file", map[string]any{"path": "a.txt"})
	h.ok("edit_file", map[string]any{"path": "a.txt", "old_string": "beta", "new_string": "BETA"})

	// A change between the approval (Access) and Run is caught too.
	args := map[string]any{"path": "a.txt", "old_string": "gamma", "new_string": "GAMMA"}
	if _, err := h.access("edit_file", args); err != nil {
		t.Fatal(err)
	}
	h.write("a.txt", "rewritten\ngamma\n")
	res := h.tools["edit_file"].Run(t.Context(), h.env, tools.Call{Input: h.input(args)})
	if !res.IsError || !strings.Contains(res.Output, "changed on disk") {
		t.Errorf("edit after a change between Access and Run: %+v", res)
	}
}

func TestEditFileCountsMissingAndNonUniqueMatches(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "x = 1\nx = 1\nx = 1\ny = 2\n")
	h.ok("read_file", map[string]any{"path": "a.txt"})
	mustContain(t, h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "z = 3", "new_string": "z = 4"}),
		"old_string was not found in a.txt (0 matches)")
	mustContain(t, h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "x = 1", "new_string": "x = 5"}),
		"old_string occurs 3 times in a.txt (3 matches)", "replace_all")
	got := h.ok("edit_file", map[string]any{"path": "a.txt", "old_string": "x = 1", "new_string": "x = 5", "replace_all": true})
	mustContain(t, got, "replaced 3 occurrences")
	if h.read("a.txt") != "x = 5\nx = 5\nx = 5\ny = 2\n" {
		t.Errorf("content = %q", h.read("a.txt"))
	}
	mustContain(t, h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "y", "new_string": "y"}), "the same")
	mustContain(t, h.fails("edit_file", map[string]any{"path": "a.txt", "old_string": "", "new_string": "y"}), "old_string is empty")
	mustContain(t, h.fails("edit_file", map[string]any{"path": "nope.txt", "old_string": "a", "new_string": "b"}),
		"nope.txt does not exist; to create a file, use write_file")
}

func TestEditFilePreservesCRLF(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("win.txt", "first\r\nsecond\r\nthird\r\n")
	h.ok("read_file", map[string]any{"path": "win.txt"})
	// The model sends \n, as read_file showed the lines without \r.
	a, err := h.access("edit_file", map[string]any{"path": "win.txt", "old_string": "first\nsecond\n", "new_string": "one\ntwo\nthree-ish\n"})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, a.Diff, "-first\r\n", "+one\r\n")
	h.ok("edit_file", map[string]any{"path": "win.txt", "old_string": "first\nsecond\n", "new_string": "one\ntwo\nthree-ish\n"})
	if got := h.read("win.txt"); got != "one\r\ntwo\r\nthree-ish\r\nthird\r\n" {
		t.Errorf("content = %q", got)
	}
	// A model that does send \r\n matches as well.
	h.ok("edit_file", map[string]any{"path": "win.txt", "old_string": "two\r\n", "new_string": "2\r\n"})
	if got := h.read("win.txt"); got != "one\r\n2\r\nthree-ish\r\nthird\r\n" {
		t.Errorf("content = %q", got)
	}
}

func TestEditFileKeepsTheTrailingNewline(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "keep\nlast\n")
	h.ok("read_file", map[string]any{"path": "a.txt"})
	h.ok("edit_file", map[string]any{"path": "a.txt", "old_string": "last\n", "new_string": "final"})
	if got := h.read("a.txt"); got != "keep\nfinal\n" {
		t.Errorf("content = %q", got)
	}
	h.write("b.txt", "no newline")
	h.ok("read_file", map[string]any{"path": "b.txt"})
	h.ok("edit_file", map[string]any{"path": "b.txt", "old_string": "newline", "new_string": "final newline"})
	if got := h.read("b.txt"); got != "no final newline" {
		t.Errorf("content = %q", got)
	}
}

func TestEditFileRefusesBinaryFiles(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("x.bin", "abc\x00def")
	mustContain(t, h.fails("edit_file", map[string]any{"path": "x.bin", "old_string": "abc", "new_string": "xyz"}), "not text")
}

func TestEditFileUnderAcceptEditsAndDefault(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "x\n")
	h.write(".git/config", "[core]\n")
	h.ok("read_file", map[string]any{"path": "a.txt"})
	h.ok("read_file", map[string]any{"path": ".git/config"})
	in, err := h.access("edit_file", map[string]any{"path": "a.txt", "old_string": "x", "new_string": "y"})
	if err != nil {
		t.Fatal(err)
	}
	git, err := h.access("edit_file", map[string]any{"path": ".git/config", "old_string": "core", "new_string": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if d := decide(h.engine(permissions.ModeAcceptEdits), in); d != permissions.Allow {
		t.Errorf("accept-edits, edit inside: %s", d)
	}
	if d := decide(h.engine(permissions.ModeDefault), in); d != permissions.Ask {
		t.Errorf("default, edit inside: %s", d)
	}
	if d := decide(h.engine(permissions.ModeAcceptEdits), git); d != permissions.Ask {
		t.Errorf("accept-edits, edit of .git/config: %s", d)
	}
}

func TestFileToolsAreSafeForConcurrentReads(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	for i := range 8 {
		h.write(string(rune('a'+i))+".txt", "x\n")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			name := string(rune('a'+i)) + ".txt"
			h.tools["read_file"].Run(t.Context(), h.env, tools.Call{Input: h.input(map[string]any{"path": name})})
			h.tools["grep"].Run(t.Context(), h.env, tools.Call{Input: h.input(map[string]any{"pattern": "x"})})
		})
	}
	wg.Wait()
	for i := range 8 {
		h.ok("edit_file", map[string]any{"path": string(rune('a'+i)) + ".txt", "old_string": "x", "new_string": "y"})
	}
	if _, err := os.Stat(h.path("a.txt")); err != nil {
		t.Fatal(err)
	}
}
