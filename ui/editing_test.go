package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
func alt(code rune) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Mod: tea.ModAlt}
}

// typeLines types lines joined by Ctrl+J, leaving the cursor at the end.
func typeLines(m *Model, lines ...string) {
	for i, l := range lines {
		if i > 0 {
			m.Update(ctrl('j'))
		}
		typeText(m, l)
	}
}

// The editing keys work across the lines of a multi-line prompt.
func TestEditingKeysAcrossLines(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	typeLines(m, "fix the parser", "then run tests")
	m.Update(ctrl('w'))
	if v := m.input.Value(); v != "fix the parser\nthen run " {
		t.Fatalf("ctrl+w: %q", v)
	}
	m.Update(ctrl('u'))
	if v := m.input.Value(); v != "fix the parser\n" {
		t.Fatalf("ctrl+u: %q", v)
	}
	m.Update(ctrl('u')) // at the start of a line: joins it to the one above
	if v := m.input.Value(); v != "fix the parser" {
		t.Fatalf("ctrl+u at a line's start: %q", v)
	}
	m.input.Reset()
	typeLines(m, "one two", "three four")
	for range 3 {
		m.Update(alt(tea.KeyLeft))
	}
	if m.input.Line() != 0 || m.input.Column() != 4 {
		t.Fatalf("alt+← ×3 ended at line %d column %d, want the start of two", m.input.Line(), m.input.Column())
	}
	m.Update(alt(tea.KeyRight))
	m.Update(alt(tea.KeyRight))
	if m.input.Line() != 1 || m.input.Column() != 5 {
		t.Fatalf("alt+→ ×2 ended at line %d column %d, want the end of three", m.input.Line(), m.input.Column())
	}
	m.Update(ctrl('k'))
	if v := m.input.Value(); v != "one two\nthree" {
		t.Fatalf("ctrl+k: %q", v)
	}
	for range 2 {
		m.Update(alt(tea.KeyLeft))
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	m.Update(ctrl('k')) // at the end of a line: joins the next one to it
	if v := m.input.Value(); v != "one twothree" {
		t.Fatalf("ctrl+k at a line's end: %q", v)
	}
}

func TestCtrlLRedraws(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	_, cmd := m.Update(ctrl('l'))
	if cmd == nil {
		t.Fatal("ctrl+l did nothing")
	}
	if got, want := cmd(), tea.ClearScreen(); got != want {
		t.Errorf("ctrl+l sent %#v, want %#v", got, want)
	}
}
