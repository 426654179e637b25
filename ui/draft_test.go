package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A backslash before Enter continues the prompt on a new line, without the backslash; a backslash
// elsewhere is text.
func TestBackslashEnterContinuesTheLine(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	typeText(m, `first line\`)
	press(m, "enter")
	if v := m.input.Value(); v != "first line\n" {
		t.Fatalf("after backslash and Enter the prompt is %q", v)
	}
	typeText(m, `second \n stays`)
	if got := m.input.Value(); got != "first line\nsecond \\n stays" {
		t.Fatalf("prompt = %q", got)
	}
	press(m, "enter")
	if len(m.prompts) != 1 || m.prompts[0] != "first line\nsecond \\n stays" {
		t.Errorf("sent %q", m.prompts)
	}
	// In the middle of a line too: the backslash just before the cursor goes.
	m.input.Reset()
	typeText(m, `ab\cd`)
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	press(m, "enter")
	if v := m.input.Value(); v != "ab\ncd" {
		t.Errorf("a backslash before the cursor mid-line gives %q", v)
	}
}

// Ctrl+C with a draft clears it and nothing more: ↑ brings it back, and the next Ctrl+C quits.
func TestCtrlCClearsADraftAndTheSecondQuits(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	typeText(m, "half a thought")
	_, cmd := m.Update(keyMsg("ctrl+c"))
	if isTeaQuit(cmd) || m.input.Value() != "" {
		t.Fatalf("the first Ctrl+C with a draft: quit=%v, prompt %q", isTeaQuit(cmd), m.input.Value())
	}
	if s := plain(m); !strings.Contains(s, "Prompt cleared (↑ brings it back); Ctrl+C again quits") {
		t.Errorf("the flash does not say what happened:\n%s", s)
	}
	press(m, "up")
	if v := m.input.Value(); v != "half a thought" {
		t.Errorf("↑ brought back %q", v)
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); !isTeaQuit(cmd) {
		t.Error("the second Ctrl+C did not quit")
	}
}

// isTeaQuit reports whether cmd is tea.Quit itself, without running it: a flash's command waits for its
// timer.
func isTeaQuit(cmd tea.Cmd) bool {
	return cmd != nil && reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(tea.Quit).Pointer()
}

// A paste of more than ten lines shows as a chip that is sent whole; two chips of the same size stay
// apart, and ten lines are still text to edit.
func TestALongPasteIsAChipSentWhole(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	lines := func(n int, word string) string {
		var sb strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&sb, "%s %d\n", word, i)
		}
		return sb.String()
	}
	m.Update(tea.PasteMsg{Content: lines(10, "short")})
	if v := m.input.Value(); !strings.HasPrefix(v, "short 1\n") {
		t.Fatalf("ten lines did not go into the editor: %q", v)
	}
	m.input.Reset()
	m.Update(tea.PasteMsg{Content: lines(60, "alpha")})
	typeText(m, " and ")
	m.Update(tea.PasteMsg{Content: lines(60, "beta")})
	s := plain(m)
	if !strings.Contains(s, "[pasted 60 lines] and [pasted 60 lines #2]") {
		t.Fatalf("the prompt does not show the chips:\n%s", s)
	}
	got := m.expandPastes(m.input.Value())
	if got != lines(60, "alpha")+" and "+lines(60, "beta") {
		t.Errorf("the prompt sent is not both pastes whole: %q", got)
	}
}

// An unknown command is a typo or two from the one meant, which is named. (A word whose letters a name
// holds in order, /moel, opens the menu on that name instead, and Enter takes it.)
func TestAnUnknownCommandSuggestsTheNearest(t *testing.T) {
	for typed, want := range map[string]string{"/stauts": "/status", "/hlep": "/help", "/comapct": "/compact"} {
		m, _ := newTestModel(t, 100, 24)
		typeText(m, typed)
		press(m, "enter")
		if s := plain(m); !strings.Contains(s, "Unknown command "+typed+" (did you mean "+want+"?)") {
			t.Errorf("%s: the flash does not suggest %s:\n%s", typed, want, s)
		}
	}
	m, _ := newTestModel(t, 100, 24)
	typeText(m, "/qqqqqqq")
	press(m, "enter")
	if s := plain(m); strings.Contains(s, "did you mean") {
		t.Errorf("a word near no command got a suggestion:\n%s", s)
	}
}

// The same keys in the running program, as the model receives the prompt: a continued line arrives as two
// lines without the backslash, a 60-line paste arrives whole from its chip, and a draft cleared with
// Ctrl+C is not sent, while the program goes on.
func TestAppInputKeysReachTheModelAsMeant(t *testing.T) {
	a := startApp(t)
	a.tm.Type(`first line\`)
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.tm.Type("list files")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("Finished:")
	a.idle()
	if got := a.srv.Requests()[0].LastUser(); got != "first line\nlist files" {
		t.Errorf("the continued prompt reached the model as %q", got)
	}

	var sb strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&sb, "log line %d\n", i)
	}
	a.tm.Send(tea.PasteMsg{Content: sb.String()})
	a.waitFor("❯ [pasted 60 lines]")
	a.prompt(" list files")
	reqs, err := a.srv.WaitRequests(4, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	a.idle()
	if got := reqs[2].LastUser(); got != sb.String()+" list files" {
		t.Errorf("the paste did not reach the model whole: %q", got)
	}

	n := len(a.srv.Requests())
	a.tm.Type("never mind")
	a.key(ctrl('c'))
	a.waitFor("Prompt cleared (↑ brings it back); Ctrl+C again quits")
	a.key(tea.KeyPressMsg{Code: tea.KeyUp})
	a.waitFor("❯ never mind")
	if len(a.srv.Requests()) != n {
		t.Error("the cleared draft was sent")
	}
}
