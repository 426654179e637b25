package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/safefile"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadReadsFrontMatterFoldersAndPrecedence(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	write(t, filepath.Join(project, "review.md"), "---\ndescription: \"Review the diff\"\nargument-hint: [focus]\nallowed-tools: Bash(git diff:*)\n---\nReview the staged diff, about $ARGUMENTS.\n")
	write(t, filepath.Join(project, "frontend", "component.md"), "# Make a component named $1\nIn $2.\n")
	write(t, filepath.Join(user, "review.md"), "my own review\n")
	write(t, filepath.Join(user, "notes.txt"), "not a command\n")
	write(t, filepath.Join(user, "bad name.md"), "x\n")
	write(t, filepath.Join(user, "open.md"), "---\ndescription: never closed\n")
	write(t, filepath.Join(user, "empty.md"), "")
	write(t, filepath.Join(user, "only-meta.md"), "---\ndescription: all talk\n---\n\n")
	cmds, warnings := Load(nil, []Dir{{project, "project"}, {user, "user"}, {filepath.Join(user, "missing"), "none"}})
	byName := map[string]Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	r := byName["review"]
	if r.Description != "Review the diff" || r.ArgumentHint != "[focus]" || r.Source != "project" || r.Body != "Review the staged diff, about $ARGUMENTS." {
		t.Errorf("review = %+v", r)
	}
	fc := byName["frontend:component"]
	if fc.Description != "Make a component named $1" || fc.Source != "project" {
		t.Errorf("frontend:component = %+v", fc)
	}
	if len(cmds) != 2 {
		t.Errorf("commands %+v", cmds)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"/review is also defined in", "cannot be a command name", "never closed",
		"empty.md: no prompt", "only-meta.md: no prompt"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "missing") {
		t.Errorf("a missing folder was reported:\n%s", all)
	}
}

// A project's command folders are the repository's to shape: a folder that is a link to the home, a
// .claude that is one, or a command file that is a link to a key lists and reads nothing of what they
// lead to, and each is reported by name. The person's own folder outside the workspace may be a link into
// their dotfiles, and a link to a folder above ends rather than repeats.
func TestCommandFoldersAndFilesThatLeadOutAreNotRead(t *testing.T) {
	root := t.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	write(t, filepath.Join(home, "notes.md"), "PLANTED home notes\n")
	write(t, filepath.Join(home, ".ssh", "id_rsa.md"), "PLANTED key\n")
	write(t, filepath.Join(home, "dotfiles", "commands", "mine.md"), "my command\n")
	write(t, filepath.Join(home, "dotfiles", "claude", "commands", "theirs.md"), "PLANTED through .claude\n")
	write(t, filepath.Join(ws, ".warden", "commands", "ok.md"), "a project command\n")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(home, filepath.Join(ws, ".warden", "commands", "sub")))
	must(os.Symlink("../../../home/.ssh/id_rsa.md", filepath.Join(ws, ".warden", "commands", "key.md")))
	must(os.Symlink(".", filepath.Join(ws, ".warden", "commands", "again")))
	must(os.Symlink(filepath.Join(home, "dotfiles", "claude"), filepath.Join(ws, ".claude")))
	must(os.MkdirAll(filepath.Join(ws, "other"), 0o755))
	must(os.Symlink(home, filepath.Join(ws, "other", "commands")))
	must(os.Symlink(filepath.Join(home, "dotfiles", "commands"), filepath.Join(home, "commands")))

	secret := func(p string) bool { return strings.Contains(p, "/.ssh/") }
	o := safefile.NewOpener([]string{ws}, secret, 0)
	cmds, warnings := Load(o, []Dir{{filepath.Join(ws, ".warden", "commands"), "project"},
		{filepath.Join(ws, ".claude", "commands"), "project, .claude"}, {filepath.Join(ws, "other", "commands"), "other"},
		{filepath.Join(home, "commands"), "user"}})
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
		if strings.Contains(c.Body, "PLANTED") {
			t.Errorf("/%s holds what lies outside the workspace: %q", c.Name, c.Body)
		}
	}
	if strings.Join(names, " ") != "ok mine" {
		t.Errorf("commands %v, want only ok and the person's own mine", names)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		filepath.Join(ws, ".warden", "commands", "sub") + " was not read: it is a link to " + home + ", outside " + ws,
		filepath.Join(ws, ".warden", "commands", "key.md") + " was not read: it is a link to",
		filepath.Join(ws, ".claude", "commands") + " was not read: it is a link to",
		filepath.Join(ws, "other", "commands") + " was not read: it is a link to " + home,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "PLANTED") {
		t.Errorf("a warning quotes a file that was not read:\n%s", all)
	}
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct{ body, args, want string }{
		{"Review $ARGUMENTS now.", "the tests", "Review the tests now."},
		{"Fix issue #$1 with priority $2.", `123 "very high"`, "Fix issue #123 with priority very high."},
		{"Only $1 and $3.", "a", "Only a and ."},
		{"No placeholder.", "extra words", "No placeholder.\n\nextra words"},
		{"No placeholder.", "", "No placeholder."},
		// What was typed is put in as it is: a $1 or $ARGUMENTS inside it is not expanded again.
		{"Explain: $ARGUMENTS", `awk '{print $1}'`, `Explain: awk '{print $1}'`},
		{"First $1, all $ARGUMENTS.", `$ARGUMENTS $2 x`, `First $ARGUMENTS, all $ARGUMENTS $2 x.`},
		{"Say $1.", `"$2" b`, `Say $2.`},
	} {
		if got := (Command{Body: tc.body}).Expand(tc.args); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
		}
	}
}
