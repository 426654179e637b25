package ui

import (
	"strings"
	"testing"
)

// Quitting stops background tasks; the hint says so before the second Ctrl+C.
func TestQuitHintNamesTheBackgroundTasksItStops(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	m.opts.Tasks = &fakeTasks{running: 2}
	press(m, "ctrl+c")
	if s := plain(m); !strings.Contains(s, "Press Ctrl+C again to quit; that stops 2 background tasks") {
		t.Errorf("hint:\n%s", s)
	}
}
