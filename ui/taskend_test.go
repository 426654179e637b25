package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

const bgScript = `{"rules": [
  {"match": "start the job", "steps": [
    {"tool_calls": [{"name": "bash", "arguments": {"command": "echo job-started; sleep 0.3; echo job-line-2; echo job-finished; exit 2", "run_in_background": true}}]},
    {"text": "Started it."}]},
  {"match": "start the server", "steps": [
    {"tool_calls": [{"name": "bash", "arguments": {"command": "echo serving; sleep 30", "run_in_background": true}}]},
    {"text": "Serving."}]},
  {"steps": [{"text": "You said: {{prompt}}"}]}]}`

// A background task that ends says so in the transcript with its last lines, its call shows its whole
// output in the history, and the model hears of it with the next prompt.
func TestAppBackgroundTaskEndIsNeverSilent(t *testing.T) {
	s := fullSetup(t, bgScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("start the job")
	a.waitFor("Started it.")
	a.waitFor("background task b1 exited with status 2", "job-finished", "✗ b1 exit 2")
	a.prompt("anything new?")
	a.waitFor("You said:")
	got := userMessages(a.srv)
	last := got[len(got)-1]
	if !strings.Contains(last, "Background task b1") || !strings.Contains(last, "job-finished") || !strings.HasSuffix(last, "anything new?") {
		t.Errorf("the model was told %q", last)
	}
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	a.waitFor("Tool history", "echo job-started")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("background task exit 2", "job-started", "job-line-2", "job-finished")
}

// /tasks lists the tasks with their state, shows one's output, and stops one; the model is told the
// person stopped it.
func TestAppTasksListsShowsAndStops(t *testing.T) {
	s := fullSetup(t, bgScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("start the server")
	a.waitFor("Serving.")
	a.prompt("/tasks")
	a.waitFor("Background tasks", "b1", "running", "echo serving; sleep 30")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("task b1 ·", "serving")
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.waitFor("Background tasks")
	a.key(tea.KeyPressMsg{Code: tea.KeyDelete})
	a.waitFor("Stopped task b1", "SIGTERM")
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.waitFor("background task b1 was stopped by the user")
	a.prompt("what happened?")
	a.waitFor("You said:")
	got := userMessages(a.srv)
	if last := got[len(got)-1]; !strings.Contains(last, "was stopped by the user") {
		t.Errorf("the model was told %q", last)
	}
}

// /tasks follows the tasks while it is open: one that ends while the list is on screen shows how it
// ended, not the running time it had when the list opened.
func TestAppTasksListFollowsATaskThatEnds(t *testing.T) {
	s := fullSetup(t, bgScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("start the job")
	a.waitFor("Started it.")
	a.prompt("/tasks")
	a.waitFor("Background tasks", "b1")
	a.waitUntil("the task's row to say how it ended", func(s string) bool {
		return strings.Contains(lineWith(s, "b1 "), "exit 2  ")
	})
}
