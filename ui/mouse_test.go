package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func manyQuestions(t *testing.T, n int) *Model {
	t.Helper()
	m, _ := newTestModel(t, 80, 24)
	for i := range n {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("question %d", i)})
	}
	m.View()
	return m
}

func TestTheWheelScrollsTheConversation(t *testing.T) {
	m := manyQuestions(t, 40)
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.conv.scroll != 2*wheelLines {
		t.Fatalf("two notches up scrolled %d lines", m.conv.scroll)
	}
	if s := plain(m); !strings.Contains(s, "6 lines below") {
		t.Fatalf("the rule line does not say what lies below:\n%s", s)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.conv.scroll != wheelLines {
		t.Fatalf("a notch down left %d lines below", m.conv.scroll)
	}
}

func TestTheProgramTakesTheMouseUnlessTurnedOff(t *testing.T) {
	m := manyQuestions(t, 3)
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v", v.MouseMode)
	}
	m.opts.MouseOff = true
	if v := m.View(); v.MouseMode != tea.MouseModeNone {
		t.Fatalf("with the mouse turned off the mode is %v", v.MouseMode)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.conv.scroll != 0 {
		t.Fatal("the wheel scrolled with the mouse turned off")
	}
}

func TestDraggingOverTheConversationSelectsAndCopiesIt(t *testing.T) {
	m := manyQuestions(t, 40)
	lines := strings.Split(plain(m), "\n")
	row := -1
	for i, l := range lines {
		if strings.Contains(l, "question 37") {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatalf("no question 37 on screen:\n%s", plain(m))
	}
	m.Update(tea.MouseClickMsg{Button: tea.MouseLeft, X: 2, Y: row})
	m.Update(tea.MouseMotionMsg{Button: tea.MouseLeft, X: 10, Y: row + 2})
	_, cmd := m.Update(tea.MouseReleaseMsg{Button: tea.MouseLeft, X: 10, Y: row + 2})
	if got, want := m.selectedText(), "question 37\n\n❯ question"; got != want {
		t.Fatalf("selected %q, want %q", got, want)
	}
	if cmd == nil {
		t.Fatal("letting the button go copied nothing")
	}
	if v := m.View().Content; !strings.Contains(v, "\x1b[7mquestion 37") {
		t.Fatalf("the selection is not shown:\n%q", v)
	}
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if m.sel != nil || strings.Contains(m.View().Content, "\x1b[7m") {
		t.Fatal("a key left the selection shown")
	}
}
