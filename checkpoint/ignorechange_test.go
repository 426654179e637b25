package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that takes a rule out of .gitignore makes files appear that were there all along: they are
// not the command's additions, and undoing the command must not remove them (a person's .env, say).
func TestUnignoredFilesAreNotRemovedByUndo(t *testing.T) {
	forEachWorkspace(t, func(t *testing.T, ws string) {
		sh(t, ws, "printf '.env\\nsecrets/\\n' > .gitignore && echo KEY=1 > .env && mkdir secrets && echo k > secrets/id && echo a > a.txt")
		c := openTest(t, ws)
		changes := call(t, c, ws, "echo > .gitignore && echo new > added.txt")
		if got := changeLines(changes); strings.Contains(got, ".env") || strings.Contains(got, "secrets") {
			t.Errorf("files that were there before were reported as the call's:\n%s", got)
		}
		since := []Recorded{{Changes: changes}}
		// Followed from now on: a later change to them is recorded, and undone.
		changes = call(t, c, ws, "echo KEY=2 > .env && rm secrets/id")
		if got := changeLines(changes); got != "M .env (+1 −1)\nD secrets/id (+0 −1)" {
			t.Errorf("changes to files followed since their rule went:\n%s", got)
		}
		since = append(since, Recorded{Changes: changes})
		restoreTo(t, c, since, false)
		for path, want := range map[string]string{".env": "KEY=1\n", "secrets/id": "k\n", ".gitignore": ".env\nsecrets/\n"} {
			if b, err := os.ReadFile(filepath.Join(ws, path)); err != nil || string(b) != want {
				t.Errorf("%s after undo: %q, %v; want %q", path, b, err, want)
			}
		}
		if _, err := os.Lstat(filepath.Join(ws, "added.txt")); !os.IsNotExist(err) {
			t.Errorf("the file the call added is still there: %v", err)
		}
	})
}

// A command cannot hide a file from its checkpoints by ignoring it first: what was followed is followed
// for the rest of the session, so its deletion is recorded and undone.
func TestIgnoringAFileDoesNotHideItsChanges(t *testing.T) {
	forEachWorkspace(t, func(t *testing.T, ws string) {
		sh(t, ws, "mkdir src && echo keep > important.txt && echo code > src/main.go")
		c := openTest(t, ws)
		var since []Recorded
		for _, step := range []struct{ script, want string }{
			{"printf 'important.txt\\nsrc/\\n' > .gitignore", "A .gitignore (+2 −0)"},
			{"rm important.txt && echo evil > src/main.go && echo ignored > src/new.go", "D important.txt (+0 −1)\nM src/main.go (+1 −1)"},
			{"rm .gitignore", "D .gitignore (+0 −2)"},
		} {
			changes := call(t, c, ws, step.script)
			if got := changeLines(changes); got != step.want {
				t.Errorf("%s: changes\n%s\nwant\n%s", step.script, got, step.want)
			}
			since = append(since, Recorded{Changes: changes})
		}
		restoreTo(t, c, since, false)
		for path, want := range map[string]string{"important.txt": "keep\n", "src/main.go": "code\n"} {
			if b, err := os.ReadFile(filepath.Join(ws, path)); err != nil || string(b) != want {
				t.Errorf("%s after undo: %q, %v; want %q", path, b, err, want)
			}
		}
	})
}

// A FIFO, a socket or a device put where a file was is that file's deletion: it is recorded, and an
// undo removes what stands there and puts the file back. One a call made is removed by an undo.
func TestSpecialFilesInPlaceOfFiles(t *testing.T) {
	forEachWorkspace(t, func(t *testing.T, ws string) {
		sh(t, ws, "echo keep > a.txt")
		c := openTest(t, ws)
		changes := call(t, c, ws, "rm a.txt && mkfifo a.txt && mkfifo made")
		if got := changeLines(changes); got != "M a.txt (+0 −1)\nA made" {
			t.Errorf("changes:\n%s", got)
		}
		d, err := c.Diff(changes[0])
		if err != nil || d != "-file a.txt\n+FIFO a.txt\n" {
			t.Errorf("diff %q, %v", d, err)
		}
		restoreTo(t, c, []Recorded{{Changes: changes}}, false)
		if b, err := os.ReadFile(filepath.Join(ws, "a.txt")); err != nil || string(b) != "keep\n" {
			t.Errorf("a.txt after undo: %q, %v", b, err)
		}
		if _, err := os.Lstat(filepath.Join(ws, "made")); !os.IsNotExist(err) {
			t.Errorf("the FIFO the call made is still there: %v", err)
		}

		// One there before a call removed it cannot be made again: the plan says so.
		sh(t, ws, "mkfifo pipe")
		c.Settle()
		changes = call(t, c, ws, "rm pipe")
		target, outside := Target([]Recorded{{Changes: changes}})
		plan, _, err := c.PlanRestore(target, outside)
		if err != nil {
			t.Fatal(err)
		}
		if p := plan.Problems(); len(p) != 1 || !strings.Contains(p[0].Problem, "FIFO") {
			t.Errorf("problems: %v", p)
		}
	})
}
