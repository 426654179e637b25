package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

const oddNamesScript = `{
  "models": ["fake-model"],
  "rules": [
    {"match": "make odd", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "touch \"$(printf 'f\\rOVERWRITE.txt')\" # \u001b]2;PWNED\u0007 \u202e"}}]},
      {"text": "Done."}]}
  ]
}`

// strayStyle is a styling sequence whose escape was lost on the way to the screen, so that its bytes show.
var strayStyle = regexp.MustCompile(`\[[0-9;]*;[0-9;]*m`)

// TestAppShowsControlCharactersEscapedNotDroppedOrBroken: a command holding an escape, a bell and a
// direction override, which makes a file whose name holds a carriage return. The modal shows each control
// character as an escape without printing the bytes of its own styles; once allowed, the panel's command,
// the list of what it changed and the @ completion show them escaped too, where they were silently dropped
// (the file read as OVERWRITE.txt). The real program runs in a virtual terminal.
func TestAppShowsControlCharactersEscapedNotDroppedOrBroken(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	s := fullSetup(t, oddNamesScript)
	if err := os.WriteFile(filepath.Join(s.dir, "notes\x1b]2;X\a\u202e.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := agent.CreateStore(t.TempDir(), "s1", s.dir, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := checkpoint.Open(checkpoint.Options{Dir: t.TempDir(), Workspace: s.dir, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cp.Close() })
	a := startAppWith(t, s, nil, func(o *agent.Options) { o.Store, o.Checkpoints = st, cp })

	a.prompt("make odd")
	scr := a.waitFor("Allow bash?", "^[]2;PWNED^G", "<U+202E>", "y allow once")
	if m := strayStyle.FindString(scr); m != "" {
		t.Errorf("the modal prints the bytes of a style (%q):\n%s", m, scr)
	}
	a.typeKey('y')
	scr = a.waitFor("✓ exit 0", "± changed 1 file")
	if !strings.Contains(scr, "$ touch \"$(printf 'f\\rOVERWRITE.txt')\" # ^[]2;PWNED^G <U+202E>") {
		t.Errorf("the panel does not show the command with its control characters escaped:\n%s", scr)
	}
	a.idle()
	a.key(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	a.waitFor("A f^MOVERWRITE.txt")

	a.tm.Type("look at @notes")
	a.waitFor("notes^[]2;X^G<U+202E>.txt", "tab or enter take")
	if scr := a.screen(); strayStyle.MatchString(scr) {
		t.Errorf("a style's bytes show:\n%s", scr)
	}
}
