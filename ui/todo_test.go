package ui

import (
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent"
)

// The model's checklist stays pinned above the prompt and follows each todo_write call while it works.
const todoScript = `{"rules": [{"match": "plan", "steps": [
  {"tool_calls": [{"name": "todo_write", "arguments": {"todos": [
    {"content": "Read the code", "status": "in_progress", "activeForm": "Reading the code"},
    {"content": "Fix the bug", "status": "pending"},
    {"content": "Run the tests", "status": "pending"}]}}]},
  {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 0.5"}}]},
  {"tool_calls": [{"name": "todo_write", "arguments": {"todos": [
    {"content": "Read the code", "status": "completed"},
    {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
    {"content": "Run the tests", "status": "pending"}]}}]},
  {"text": "Half way."}]}]}`

func TestAppTodoListIsPinnedAndLive(t *testing.T) {
	s := fullSetup(t, todoScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("plan the fix")
	scr := a.waitFor("Todo · 0 of 3 done", "◐ Reading the code", "☐ Fix the bug")
	pinned := strings.Index(scr, "Todo · 0 of 3 done")
	prompt := strings.LastIndex(scr, "❯")
	if pinned < 0 || prompt < pinned {
		t.Errorf("the list is not above the prompt:\n%s", scr)
	}
	a.waitFor("Todo · 1 of 3 done", "☑ Read the code", "◐ Fixing the bug", "Half way.")
}

// A resumed session shows the list its last todo_write left.
func TestResumedSessionShowsItsTodoList(t *testing.T) {
	in := `{"todos":[{"content":"Write the docs","status":"pending"},{"content":"Ship","status":"completed"}]}`
	out := "updated"
	l := &agent.Loaded{ID: "s1", Records: []agent.Record{
		{Type: agent.RecToolCall, CallID: "c1", Name: "todo_write", Input: []byte(in)},
		{Type: agent.RecPermission, CallID: "c1", Decision: "allow", By: "readonly"},
		{Type: agent.RecToolResult, CallID: "c1", Name: "todo_write", Output: &out},
	}}
	m, _ := newTestModel(t, 100, 30)
	m.restore(l)
	if s := plain(m); !strings.Contains(s, "Todo · 1 of 2 done") || !strings.Contains(s, "☐ Write the docs") {
		t.Errorf("screen:\n%s", s)
	}
}

// Short of room, finished steps give way to those left, and the rest is counted.
func TestLongTodoListKeepsWhatIsLeft(t *testing.T) {
	m, _ := newTestModel(t, 100, 40)
	var items []string
	for i := range 12 {
		status := "pending"
		if i < 4 {
			status = "completed"
		}
		items = append(items, `{"content":"step `+string(rune('a'+i))+`","status":"`+status+`"}`)
	}
	in := `{"todos":[` + strings.Join(items, ",") + `]}`
	send(m, agent.ToolCallStarted{ID: "t", Name: "todo_write", Input: []byte(in)})
	send(m, agent.PermissionDecided{ID: "t", Decision: "allow", By: "readonly"})
	send(m, agent.ToolFinished{ID: "t", Name: "todo_write"})
	got := m.todoView(100)
	if len(got) != todoRows {
		t.Errorf("%d lines, want %d", len(got), todoRows)
	}
	s := plain(m)
	for _, want := range []string{"Todo · 4 of 12 done", "✓ 4 done", "☐ step e", "… 3 more"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "step a") {
		t.Errorf("a finished step shows while room is short:\n%s", s)
	}
}

// On a short terminal the list gives the conversation most of the screen: it takes at most a quarter of
// the rows, and the step in progress is what stays in sight.
func TestTodoListOnAShortTerminal(t *testing.T) {
	m, _ := newTestModel(t, 60, 15)
	var items []string
	for i := range 14 {
		status := "pending"
		switch {
		case i == 0:
			status = "completed"
		case i == 1:
			status = "in_progress"
		}
		items = append(items, `{"content":"step `+string(rune('a'+i))+`","status":"`+status+`"}`)
	}
	in := `{"todos":[` + strings.Join(items, ",") + `]}`
	send(m, agent.ToolCallStarted{ID: "t", Name: "todo_write", Input: []byte(in)})
	send(m, agent.PermissionDecided{ID: "t", Decision: "allow", By: "readonly"})
	send(m, agent.ToolFinished{ID: "t", Name: "todo_write"})
	got := m.todoView(60)
	if len(got) > 15/4 {
		t.Errorf("the list takes %d of 15 rows:\n%s", len(got), strings.Join(got, "\n"))
	}
	s := plain(m)
	for _, want := range []string{"Todo · 1 of 14 done", "◐ step b", "more"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
}
