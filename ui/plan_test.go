package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

const planArgs = `{"plan":"# Rename the flag\n\n1. Change **main.go**.\n2. Run the tests."}`

// startPlanApp runs the program in plan mode.
func startPlanApp(t *testing.T) *app {
	t.Helper()
	s := newSetup(t)
	s.eng.SetMode(permissions.ModePlan)
	return startAppWith(t, s, nil, nil)
}

// The plan opens full-screen, rendered; approving it with accept-edits ends plan mode in that mode, the
// model reads so in its result and goes on in the same request.
func TestAppPlanIsShownAndApprovedIntoAcceptEdits(t *testing.T) {
	a := startPlanApp(t)
	a.srv.Reply(fakeapi.ToolCall("call_p", "exit_plan_mode", planArgs), fakeapi.Text("Going ahead with the plan."))
	a.prompt("rename the flag")
	s := a.waitFor("Plan · the model asks to go ahead", "Rename the flag", "Change main.go", "y approve, ask before edits",
		"a approve, accept edits", "n/esc keep planning")
	if strings.Contains(s, "**") || strings.Contains(s, "# Rename") {
		t.Errorf("the plan is not rendered as Markdown:\n%s", s)
	}
	a.typeKey('a')
	a.waitFor("Going ahead with the plan.", "accept-edits")
	if m := a.srv.Requests()[1]; !strings.Contains(m.Messages[len(m.Messages)-1].Content, "approved") {
		t.Errorf("the model read %q", m.Messages[len(m.Messages)-1].Content)
	}
	if !strings.Contains(a.lastToolResult(), "accept-edits") {
		t.Errorf("the model was not told the mode: %q", a.lastToolResult())
	}
}

// Keeping planning asks why; the model reads the reason, plan mode stays, and the next plan is shown
// again; approving that one goes on in default mode.
func TestAppKeepPlanningSendsTheReasonAndTheNextPlanAsksAgain(t *testing.T) {
	a := startPlanApp(t)
	a.srv.Reply(
		fakeapi.ToolCall("call_p1", "exit_plan_mode", planArgs),
		fakeapi.ToolCall("call_p2", "exit_plan_mode", `{"plan":"# Rename the flag and the docs\n\n1. Change main.go and README.md."}`),
		fakeapi.Text("Revised and approved."),
	)
	a.prompt("rename the flag")
	a.waitFor("Plan · the model asks to go ahead", "n/esc keep planning")
	a.typeKey('n')
	a.waitFor("Keep planning: tell the model what to change", "enter send")
	a.tm.Type("also the README")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("Rename the flag and the docs", "y approve, ask before edits")
	if r := a.lastToolResult(); !strings.Contains(r, `"also the README"`) || !strings.Contains(r, "stays on") {
		t.Errorf("the model read %q", r)
	}
	a.typeKey('y')
	s := a.waitFor("Revised and approved.")
	if !strings.Contains(s, "default") || strings.Contains(s, "· plan ·") {
		t.Errorf("the status line does not show the default mode:\n%s", s)
	}
}

// Interrupting while the plan waits takes it away; nothing is approved.
func TestAppInterruptWithdrawsThePlan(t *testing.T) {
	a := startPlanApp(t)
	a.srv.Reply(fakeapi.ToolCall("call_p", "exit_plan_mode", planArgs))
	a.prompt("rename the flag")
	a.waitFor("Plan · the model asks to go ahead")
	a.key(ctrl('c'))
	a.waitUntil("the plan withdrawn", func(s string) bool {
		return !strings.Contains(s, "Plan · the model asks") && strings.Contains(s, "interrupted")
	})
	a.idle()
	if !strings.Contains(a.screen(), "· plan") {
		t.Errorf("the interrupt left plan mode:\n%s", a.screen())
	}
}
