package agent

import (
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

// A call the model makes in the same turn as exit_plan_mode was made under plan mode: approving the plan
// into accept-edits must not let it run unasked. It is not run, and the model is told to make it again.
func TestACallMadeBesideThePlanDoesNotRunUnderTheModeThePlanOpens(t *testing.T) {
	rev := &planReviewer{answer: PlanAnswer{Approve: true, Mode: permissions.ModeAcceptEdits}}
	h := newHarness(t, permissions.ModePlan, rev)
	h.server.Reply(
		fakeapi.ToolCall("call_p", ExitPlanMode, `{"plan":`+jsonQuote(plan)+`}`).ToolCall("call_w", "touch", `{"path":"pwned.sh"}`),
		fakeapi.ToolCall("call_again", "touch", `{"path":"pwned.sh"}`),
		fakeapi.Text("Done."),
	)
	done := h.run("rename the flag")
	if done.IsError {
		t.Fatalf("done = %+v", done)
	}
	results := h.toolResults(1)
	if r := results["call_p"]; !strings.Contains(r, "approved") {
		t.Errorf("the plan's result = %q", r)
	}
	if r := results["call_w"]; !strings.Contains(r, "same turn as "+ExitPlanMode) || !strings.Contains(r, "again") {
		t.Errorf("the call beside the plan was not refused with a way on: %q", r)
	}
	// Only the call made again, under the mode the plan opened, ran.
	if !slices.Equal(h.ran, []string{"pwned.sh"}) {
		t.Errorf("writes that ran: %v", h.ran)
	}
	if r := h.toolResults(2)["call_again"]; !strings.Contains(r, "created pwned.sh") {
		t.Errorf("the call made again: %q", r)
	}
}
