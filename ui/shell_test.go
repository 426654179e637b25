package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

const echoScript = `{"rules": [{"steps": [{"text": "You said: {{prompt}}"}]}]}`

// !cmd runs the command in the workspace without asking, streams it in a panel, sends nothing to the
// model, and the model reads its output with the next prompt.
func TestAppShellModeRunsAndJoinsTheNextTurn(t *testing.T) {
	s := fullSetup(t, echoScript)
	a := startAppWith(t, s, nil, nil)
	a.tm.Type("!echo shell-")
	a.waitFor("! shell mode")
	a.tm.Type("output > out.txt; cat out.txt")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr := a.waitFor("$ echo shell-output > out.txt; cat out.txt", "✓ exit 0")
	if strings.Contains(scr, "Allow bash?") {
		t.Fatalf("shell mode asked:\n%s", scr)
	}
	if !a.exists("out.txt") {
		t.Fatal("the command did not run in the workspace")
	}
	if n := len(a.srv.Requests()); n != 0 {
		t.Fatalf("shell mode sent %d requests to the model", n)
	}
	a.prompt("what happened?")
	a.waitFor("You said:")
	got := userMessages(a.srv)
	if len(got) != 1 || !strings.Contains(got[0], "shell-output") || !strings.HasSuffix(got[0], "what happened?") {
		t.Errorf("the model received %q", got)
	}
}

// A long command in shell mode is interrupted by Esc like any other.
func TestAppShellModeInterrupts(t *testing.T) {
	s := fullSetup(t, echoScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("!sleep 30")
	a.waitFor("$ sleep 30", "running")
	start := time.Now()
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.waitFor("interrupted")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("interrupt took %s", d)
	}
}

func TestBangAloneSaysWhatToType(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	typeText(m, "!")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Type a command after the !") {
		t.Errorf("screen:\n%s", s)
	}
}
