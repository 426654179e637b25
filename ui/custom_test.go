package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/commands"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/safefile"
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
	a.waitFor("user: a command is not added: /help is one of Warden's own commands")
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

// apply applies cmd's message, and the messages of the commands it batches, in the model.
func apply(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			apply(m, c)
		}
	case commandResult:
		apply(m, msg(m))
	case nil:
	default:
		m.Update(msg)
	}
}

// A project's commands are read only once the workspace is trusted, and then at once.
func TestProjectCommandsWaitForTrust(t *testing.T) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "deploy.md"), []byte("Deploy to $1.\n"), 0o644)
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	trust := newFakeTrust(".warden/settings.json: allow Bash(make:*)")
	trust.items = append(trust.items, config.TrustItem{Key: "commands", Digest: "d", Text: "the project's commands", State: config.TrustNew, Commands: []string{"deploy"}})
	m := newModel(Options{Trust: trust,
		ProjectCommandDirs: []commands.Dir{{Path: project, Source: "project"}}}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	apply(m, m.loadCustomCommands())
	if _, ok := m.commands.lookup("deploy"); ok {
		t.Fatal("a project command was read before the workspace was trusted")
	}
	clock.t = clock.t.Add(time.Second)
	_, cmd := m.Update(keyMsg("y"))
	apply(m, cmd)
	if c, ok := m.commands.lookup("deploy"); !ok || c.Source != "project" {
		t.Errorf("after trust: %+v %v", c, ok)
	}
}

// The command folders are read again when the person trusts the workspace; what was refused the first
// time is told once.
func TestACommandWarningIsSaidOnce(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.md"), []byte("from outside\n"), 0o644)
	dir := filepath.Join(ws, "commands")
	if err := os.Symlink(outside, dir); err != nil {
		t.Fatal(err)
	}
	m := newModel(Options{Opener: safefile.NewOpener([]string{ws}, nil, 0),
		CommandDirs: []commands.Dir{{Path: dir, Source: "user"}}}, time.Now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	for range 2 {
		apply(m, m.loadCustomCommands())
	}
	told := 0
	for _, it := range m.conv.items {
		if it.kind == itemNotice && strings.Contains(it.text, dir+" was not read: it is a link to "+outside) {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the refused folder was told %d times, want once", told)
	}
	if _, ok := m.commands.lookup("x"); ok {
		t.Error("a command was read from outside the workspace")
	}
}
