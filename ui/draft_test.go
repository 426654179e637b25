package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

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
