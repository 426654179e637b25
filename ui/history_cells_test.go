package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// An MCP tool's name is what its rules are written with (mcp__SERVER__TOOL): the history shows it whole,
// and the server and tool are not said a second time in the next column.
func TestHistoryShowsMCPToolNamesWhole(t *testing.T) {
	m, _ := newTestModel(t, 120, 20)
	send(m,
		agent.ToolCallStarted{ID: "c1", Name: "mcp__everything__trigger-long-running-operation", Access: tools.Access{Kind: tools.AccessMCP,
			Summary: `everything · trigger-long-running-operation {"duration":2,"steps":4}`,
			MCP:     &tools.MCPTarget{Server: "everything", Tool: "trigger-long-running-operation"}}},
		agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "user"},
		agent.ToolFinished{ID: "c1", Result: tools.Result{Output: "done"}, Duration: 2 * time.Second},
		bashStarted("c2", "ls"),
		agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "readonly"},
		agent.ToolFinished{ID: "c2", Result: tools.Result{ExitCode: exit(0)}})
	press(m, "ctrl+t")
	s := plain(m)
	row := lineWith(s, "trigger")
	if !strings.Contains(row, "mcp__everything__trigger-long-running-operation ") {
		t.Errorf("the MCP tool's name is cut:\n%s", s)
	}
	if strings.Count(row, "trigger-long-running-operation") != 1 || !strings.Contains(row, `{"duration":2,"steps":4}`) {
		t.Errorf("the row should name the tool once and show its arguments: %q", row)
	}
	if bash := lineWith(s, "$ ls"); !strings.Contains(bash, "readonly") {
		t.Errorf("the bash row lost its decision: %q", bash)
	}

	// A narrow terminal drops the time and the duration before it cuts anything that says what ran:
	// each row still fits, with its decision and exit; a name too long even then is cut in its middle,
	// keeping its two ends.
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	s = plain(m)
	row = lineWith(s, "mcp__")
	if strings.Contains(s, "TIME") || strings.Contains(s, "TOOK") || !strings.Contains(row, "allow · user") ||
		!strings.Contains(row, "ok") || !strings.Contains(row, "…") || !strings.Contains(row, "{") {
		t.Errorf("at 60 columns the row should keep the name's ends, some arguments, the decision and exit: %q\n%s", row, s)
	}
	if bash := lineWith(s, "$ ls"); !strings.HasPrefix(bash, "bash ") {
		t.Errorf("at 60 columns the tool should come first: %q", bash)
	}
}

// A call that the agent refused before any permission decision (a tool that does not exist, arguments
// that are not JSON) was never run: the history says so, for the main agent's calls and a sub-agent's.
func TestHistoryCallsRefusedBeforeADecisionAreNotPending(t *testing.T) {
	m, _ := newTestModel(t, 120, 20)
	unknown := func(id, name string) []agent.Event {
		return []agent.Event{
			agent.ToolCallStarted{ID: id, Name: name, Access: tools.Access{Kind: tools.AccessNone, Summary: name}},
			agent.ToolFinished{ID: id, Name: name, Result: tools.Result{Output: `Unknown tool "` + name + `".`, IsError: true}},
		}
	}
	send(m, unknown("c1", "frobnicate")...)
	send(m, taskStarted("c2", "call a missing tool", "subtask"),
		agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "policy"})
	send(m, child("c2", "call a missing tool", unknown("k1", "no_such_tool")...)...)
	press(m, "ctrl+t")
	s := plain(m)
	for _, name := range []string{"frobnicate", "no_such_tool"} {
		row := lineWith(s, name)
		if strings.Contains(row, "pending") || !strings.Contains(row, "not run") {
			t.Errorf("the call of %s should read not run: %q\n%s", name, row, s)
		}
	}
}

// lineWith is the first line of s that holds want, "" if none does.
func lineWith(s, want string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}
