package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// A file of the workspace with a second name elsewhere (a hard link an archive made to the person's key,
// or to any file of the home) is not read, nor one whose other name beside it is secret; the one link
// people make on purpose, AGENTS.md and CLAUDE.md as one file, is read. The person's own files outside
// the workspace, and an Opener that judges no secrets (git's own reads), keep reading hard links.
func TestOpenerRefusesAFileWithANameElsewhere(t *testing.T) {
	ws, home, key := lab(t)
	hardLink := func(target, name string) {
		t.Helper()
		if err := os.Link(target, name); err != nil {
			t.Fatal(err)
		}
	}
	o := NewOpener([]string{ws}, isSecret, 0)

	hardLink(key, filepath.Join(ws, "AGENTS.md"))
	_, err := o.ReadFile(filepath.Join(ws, "AGENTS.md"))
	refused(t, err, "it has 2 names (hard links)")

	notes := filepath.Join(home, "dotfiles", "notes.md")
	write(t, notes, "private notes")
	hardLink(notes, filepath.Join(ws, "WARDEN.md"))
	_, err = o.ReadFile(filepath.Join(ws, "WARDEN.md"))
	refused(t, err, "not all of them are beside it")

	write(t, filepath.Join(ws, "prod.env"), "TOKEN=x")
	hardLink(filepath.Join(ws, "prod.env"), filepath.Join(ws, "README.md"))
	_, err = o.ReadFile(filepath.Join(ws, "README.md"))
	refused(t, err, "which may hold secrets")

	write(t, filepath.Join(ws, "CLAUDE.md"), "be kind")
	hardLink(filepath.Join(ws, "CLAUDE.md"), filepath.Join(ws, "GEMINI.md"))
	for _, name := range []string{"CLAUDE.md", "GEMINI.md"} {
		if data, err := o.ReadFile(filepath.Join(ws, name)); err != nil || string(data) != "be kind" {
			t.Errorf("%s: %q, %v; two names side by side are one ordinary file", name, data, err)
		}
	}

	mine := filepath.Join(home, "dotfiles", "settings.json")
	hardLink(notes, mine)
	if _, err := o.ReadFile(mine); err != nil {
		t.Errorf("the person's own hard-linked file outside the workspace was refused: %v", err)
	}
	if _, err := NewOpener([]string{ws}, nil, 0).ReadFile(filepath.Join(ws, "WARDEN.md")); err != nil {
		t.Errorf("an Opener that judges no secrets refused a hard link: %v", err)
	}
}
