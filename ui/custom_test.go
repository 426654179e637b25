package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/commands"
)

// A command file joins the menu with its source, and its expansion is what the server receives.
func TestAppCustomCommandExpands(t *testing.T) {
	s := fullSetup(t, echoScript)
	project, user := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(project, "review.md"), []byte("---\ndescription: Review the diff\nargument-hint: [focus]\n---\nReview the staged diff; look hardest at $ARGUMENTS. Priority $2.\n"), 0o644)
	os.WriteFile(filepath.Join(user, "help.md"), []byte("my help\n"), 0o644)
	a := startAppWith(t, s, func(o *Options) {
		o.CommandDirs = []commands.Dir{{Path: project, Source: "project"}, {Path: user, Source: "user"}}
	}, nil)
	a.waitFor("user: /help not added")
	a.tm.Type("/rev")
	a.waitFor("/review [focus]", "Review the diff (project)")
	a.tm.Type("iew parser high")
	a.key(keyMsg("enter"))
	a.waitFor("❯ /review parser high", "You said:")
	got := userMessages(a.srv)
	if len(got) != 1 || got[0] != "Review the staged diff; look hardest at parser high. Priority high." {
		t.Errorf("the server received %q", got)
	}
	if !strings.Contains(a.screen(), "❯ /review parser high") {
		t.Errorf("the transcript does not show the command typed:\n%s", a.screen())
	}
}
