package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// typeAheadGuard is how long after the last key press a new question ignores answers, so that keys typed
// just before it appeared (meant for the input) never answer it.
const typeAheadGuard = 500 * time.Millisecond

// armAfterTyping is when a question opened now starts taking answers: at once, unless the person was
// typing, then a moment after the last key (the approval modal's rule). The wake makes the view show it.
func armAfterTyping(c overlayCtx) (time.Time, tea.Cmd) {
	now := c.now
	guard := c.lastKey.Add(typeAheadGuard)
	if !guard.After(now) {
		return now, nil
	}
	return guard, wakeIn(guard.Sub(now))
}

// stillTyping reports whether a key pressed at now falls before *armedAt, when a question's answers start
// to count; if so the key is ignored and the guard is pushed on, so that answers count only once the
// person pauses.
func stillTyping(armedAt *time.Time, now time.Time) bool {
	if !now.Before(*armedAt) {
		return false
	}
	*armedAt = now.Add(typeAheadGuard)
	return true
}

// wakeIn redraws the screen just after d, when a guard it shows has ended.
func wakeIn(d time.Duration) tea.Cmd {
	return tea.Tick(d+time.Millisecond, func(time.Time) tea.Msg { return wakeMsg{} })
}
