package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/checkpoint"
)

// startCheckpointed runs the app with a session file and checkpoints, as Warden does.
func startCheckpointed(t *testing.T) *app {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	s := newSetup(t)
	st, err := agent.CreateStore(t.TempDir(), "s1", s.dir, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := checkpoint.Open(checkpoint.Options{Dir: t.TempDir(), Workspace: s.dir, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cp.Close() })
	return startAppWith(t, s, nil, func(o *agent.Options) { o.Store, o.Checkpoints = st, cp })
}

func TestAppShowsChangesAndUndoes(t *testing.T) {
	a := startCheckpointed(t)
	a.prompt("make x")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitFor("✓ exit 0", "± changed 1 file")
	a.prompt("make y")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitUntil("both panels say what their call changed", func(s string) bool { return strings.Count(s, "± changed 1 file") == 2 })
	a.idle()

	// The history has a changes column and shows each file's diff.
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	a.waitFor("CHANGES", "1 file", "d diff")
	a.typeKey('d')
	a.waitFor("── A y", "what the call changed")
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})

	a.prompt("/undo")
	a.waitFor("Restore files?", "remove y", "y restore 1 path")
	a.typeKey('y')
	a.waitFor("restored 1 path to the start of turn 2")
	if a.exists("y") || !a.exists("x") {
		t.Errorf("after /undo: y exists %v, x exists %v", a.exists("y"), a.exists("x"))
	}
}

func TestAppRewindsFilesAndConversation(t *testing.T) {
	a := startCheckpointed(t)
	a.prompt("make x")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitFor("✓ exit 0", "Finished:")
	a.prompt("make z")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitUntil("both panels say what their call changed", func(s string) bool { return strings.Count(s, "± changed 1 file") == 2 })
	a.idle()

	a.prompt("/rewind")
	a.waitFor("Rewind to", "turn 2", "turn 1", "bash $ touch x", "changed 1 file")
	a.tm.Type("make x")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("b both · f files · c conversation", "the conversation only")
	a.typeKey('b')
	a.waitFor("Restore files?", "remove x", "remove z", "y restore 2 paths")
	a.typeKey('y')
	a.waitFor("conversation rewound to the start of turn 1")
	if a.exists("x") || a.exists("z") {
		t.Errorf("after /rewind: x exists %v, z exists %v", a.exists("x"), a.exists("z"))
	}
	// The prompt of the turn comes back, and the next request holds none of what came after.
	a.waitUntil("the prompt is back in the input", func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return len(lines) > 2 && strings.TrimSpace(lines[len(lines)-2]) == "❯ make x"
	})
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("Allow bash?")
	reqs := a.srv.Requests()
	var users []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if len(users) != 1 || !strings.HasSuffix(users[0], "make x") || !strings.Contains(users[0], "restored the workspace's files") {
		t.Errorf("the request after the rewind has these user messages: %q", users)
	}
}

// waitUntil waits until the screen satisfies ok.
func (a *app) waitUntil(what string, ok func(screen string) bool) string {
	a.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := a.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("%s: never; the screen shows:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Changes made outside Warden are said before the call whose snapshot found them, not after it.
func TestOutsideChangesAreShownBeforeTheCall(t *testing.T) {
	m := newModel(Options{}, time.Now)
	m.apply(nil, agent.ToolCallStarted{ID: "c1", Name: "bash"})
	m.apply(nil, agent.FilesChanged{By: agent.ByOutside, BeforeCall: "c1", Changes: []checkpoint.Change{
		{Path: "notes.md", Status: checkpoint.Modified, Added: 2, Old: &checkpoint.State{Mode: 0o100644}, New: &checkpoint.State{Mode: 0o100644}}}})
	m.apply(nil, agent.ToolFinished{ID: "c1", Name: "bash", Changes: []checkpoint.Change{
		{Path: "out.txt", Status: checkpoint.Added, Added: 1, New: &checkpoint.State{Mode: 0o100644}}}})
	var kinds []string
	for _, it := range m.conv.items {
		switch {
		case it.panel != nil:
			kinds = append(kinds, "panel")
		case strings.Contains(it.text, "outside Warden"):
			kinds = append(kinds, "outside: "+it.text)
		}
	}
	if strings.Join(kinds, " | ") != "outside: changed outside Warden since the last call: notes.md · 1 file (+2 −0) | panel" {
		t.Errorf("transcript: %q", kinds)
	}
	lines := ansi.Strip(strings.Join(m.conv.items[len(m.conv.items)-1].panel.render(m.renderCtx(), 80, false), "\n"))
	if !strings.Contains(lines, "± changed 1 file (+1 −0)") {
		t.Errorf("the panel does not say what its call changed:\n%s", lines)
	}
}

// /rewind puts back a file git tracks though .gitignore matches it.
func TestAppRewindsATrackedFileTheIgnoreRulesMatch(t *testing.T) {
	a := startCheckpointed(t)
	git := exec.Command("bash", "-c", `git init -q . && echo '*.log' > .gitignore && echo kept > keep.log &&
		git add -f .gitignore keep.log && git -c user.name=t -c user.email=t@t commit -qm start`)
	git.Dir = a.dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	a.srv.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"printf 'evil\\n' > keep.log"}`), fakeapi.Text("Spoiled."))
	a.prompt("spoil the log")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitFor("Spoiled.", "± changed 1 file")
	a.idle()

	a.prompt("/rewind")
	a.waitFor("Rewind to", "spoil the log")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("b both · f files · c conversation")
	a.typeKey('f')
	a.waitFor("Restore files?", "restore keep.log", "y restore 1 path")
	a.typeKey('y')
	a.waitUntil("keep.log is back", func(string) bool {
		b, err := os.ReadFile(filepath.Join(a.dir, "keep.log"))
		return err == nil && string(b) == "kept\n"
	})
}
