package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Habits of the prompt that other terminal agents taught people: a backslash before Enter continues the
// line, and Ctrl+C with a draft clears the draft (↑ brings it back) rather than stopping the work; the
// second Ctrl+C quits, as it does with nothing typed.

// continueLine turns a backslash just before the cursor into a new line, and reports whether it did: the
// backslash is the shell's way of saying the line goes on, so it is not sent.
func (m *Model) continueLine() bool {
	lines := strings.Split(m.input.Value(), "\n")
	row, col := m.input.Line(), m.input.Column()
	if row >= len(lines) {
		return false
	}
	line := []rune(lines[row])
	if col < 1 || col > len(line) || line[col-1] != '\\' {
		return false
	}
	// The editor deletes the backslash as it deletes any character, and splits the line where it was.
	m.updateInput(tea.KeyPressMsg{Code: tea.KeyBackspace})
	m.input.InsertRune('\n')
	m.inputGen++
	m.layout()
	return true
}

// clearDraft clears the prompt on the first Ctrl+C when it holds a draft, and reports whether it did. It
// keeps the draft in the prompt history, and nothing else happens: the work goes on, and the next Ctrl+C
// quits. A prompt hidden under a full-screen overlay is left alone.
func (m *Model) clearDraft() (tea.Cmd, bool) {
	text := strings.TrimSpace(m.input.Value())
	if text == "" || len(m.overlays) > 0 || m.tooSmall() {
		return nil, false
	}
	m.remember(text)
	m.clearInput()
	return m.setFlashFor("Prompt cleared ("+hintKeys(m.keys.PrevPrompt)+" brings it back); "+sentenceKey(m.keys.Quit)+" again quits", quitWindow), true
}
