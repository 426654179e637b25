package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

// planReviewer answers plans with a fixed answer and remembers what it was shown; it denies every call.
type planReviewer struct {
	answer PlanAnswer
	shown  []PlanRequest
}

func (r *planReviewer) Approve(context.Context, ApprovalRequest) (Approval, error) {
	return Approval{}, nil
}

func (r *planReviewer) ReviewPlan(_ context.Context, req PlanRequest) (PlanAnswer, error) {
	r.shown = append(r.shown, req)
	return r.answer, nil
}

func toolNames(req fakeapi.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const plan = "# Rename the flag\n\n1. Edit main.go.\n2. Run the tests."

// A session in plan mode tells the model so and offers exit_plan_mode; once approved into accept-edits the
// mode is left, the model reads that in the call's result, and its next write runs unasked in the same
// request.
func TestAnApprovedPlanLeavesPlanModeAndTheWorkGoesOn(t *testing.T) {
	rev := &planReviewer{answer: PlanAnswer{Approve: true, Mode: permissions.ModeAcceptEdits}}
	h := newHarness(t, permissions.ModePlan, rev)
	h.server.Reply(
		fakeapi.ToolCall("call_w", "touch", `{"path":"early.txt"}`),
		fakeapi.ToolCall("call_p", ExitPlanMode, `{"plan":`+jsonQuote(plan)+`}`),
		fakeapi.ToolCall("call_t", "touch", `{"path":"main.go"}`),
		fakeapi.Text("Done."),
	)
	done := h.run("rename the flag")
	if done.IsError || done.Text != "Done." {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()
	if first := reqs[0].LastUser(); !strings.Contains(first, planOnMark) || !strings.HasSuffix(first, "rename the flag") {
		t.Errorf("the first request does not tell the model it is in plan mode: %q", first)
	}
	if !slices.Contains(toolNames(reqs[0]), ExitPlanMode) {
		t.Errorf("exit_plan_mode is not offered in plan mode: %v", toolNames(reqs[0]))
	}
	if r := h.toolResults(1)["call_w"]; !strings.Contains(r, "denied") {
		t.Errorf("a write before the plan was approved was not denied: %q", r)
	}
	if len(rev.shown) != 1 || rev.shown[0].Plan != plan || rev.shown[0].CallID != "call_p" {
		t.Fatalf("the person was shown %+v", rev.shown)
	}
	if r := h.toolResults(2)["call_p"]; !strings.Contains(r, "approved") || !strings.Contains(r, "accept-edits") {
		t.Errorf("the model was not told of the approval and the mode: %q", r)
	}
	if m := h.agent.Engine().Mode(); m != permissions.ModeAcceptEdits {
		t.Errorf("mode after the approval = %s", m)
	}
	if !slices.Equal(h.ran, []string{"main.go"}) {
		t.Errorf("writes that ran: %v", h.ran)
	}
	if slices.Contains(toolNames(reqs[3]), ExitPlanMode) {
		t.Error("exit_plan_mode is still offered after plan mode ended")
	}
	if strings.Contains(reqs[3].LastUser(), planOffMark) {
		t.Error("the model got a note that plan mode ended on top of the approval that said so")
	}
	var presented bool
	for _, e := range h.rec.all() {
		if p, ok := e.(PlanPresented); ok && p.Plan == plan {
			presented = true
		}
	}
	if !presented {
		t.Error("no PlanPresented event")
	}
}

// "Keep planning" keeps plan mode and hands the model the person's reason.
func TestKeepPlanningGivesTheModelTheReason(t *testing.T) {
	rev := &planReviewer{answer: PlanAnswer{Message: "also update the README"}}
	h := newHarness(t, permissions.ModePlan, rev)
	h.server.Reply(fakeapi.ToolCall("call_p", ExitPlanMode, `{"plan":"1. Edit main.go"}`), fakeapi.Text("I will revise it."))
	h.run("rename the flag")
	r := h.toolResults(1)["call_p"]
	if !strings.Contains(r, `"also update the README"`) || !strings.Contains(r, "stays on") {
		t.Errorf("the model's result = %q", r)
	}
	if m := h.agent.Engine().Mode(); m != permissions.ModePlan {
		t.Errorf("mode = %s after keep planning", m)
	}
}

// Headless, the request ends at the plan: it is the answer, and the model is not asked again.
func TestAHeadlessRunEndsAtThePlan(t *testing.T) {
	h := newHarness(t, permissions.ModePlan, nil)
	h.server.Reply(fakeapi.ToolCall("call_p", ExitPlanMode, `{"plan":`+jsonQuote(plan)+`}`))
	done := h.run("rename the flag")
	if done.IsError || done.Plan != plan || done.Text != plan {
		t.Fatalf("done = %+v", done)
	}
	if n := len(h.server.Requests()); n != 1 {
		t.Errorf("%d requests; the run should end at the plan", n)
	}
}

// Entering plan mode mid-session, and leaving it by hand, are each told once at the model's next turn.
func TestModeChangesAreToldAtTheNextTurn(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Text("one"), fakeapi.ToolCall("call_e", "echo", `{"text":"x"}`), fakeapi.Text("two"), fakeapi.Text("three"))
	h.run("first")
	h.agent.Engine().SetMode(permissions.ModePlan)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.agent.Run(ctx, "second")
	h.agent.Engine().SetMode(permissions.ModeDefault)
	h.run("third")
	reqs := h.server.Requests()
	if u := reqs[0].LastUser(); strings.Contains(u, "Plan mode") {
		t.Errorf("a session in default mode was told of plan mode: %q", u)
	}
	if u := reqs[1].LastUser(); !strings.Contains(u, planOnMark) {
		t.Errorf("entering plan mode was not told: %q", u)
	}
	told := 0
	for _, m := range reqs[2].Messages {
		told += strings.Count(m.Content, planOnMark)
	}
	if told != 1 {
		t.Errorf("plan mode was told %d times by the request after the tool call", told)
	}
	if u := reqs[3].LastUser(); !strings.Contains(u, planOffMark) || !strings.Contains(u, "default") {
		t.Errorf("leaving plan mode was not told: %q", u)
	}
}

// A session started in plan mode says so in its system prompt, and a resumed conversation that was last
// told plan mode is on hears it is over when it starts in another mode.
func TestThePromptAndAResumedConversationKnowTheMode(t *testing.T) {
	info := PromptInfo{Cwd: t.TempDir(), Tools: nil, Now: time.Now(), PlanMode: true}
	info.Tools = newHarness(t, permissions.ModeDefault, nil).agent.Tools()
	if p := SystemPrompt(info); !strings.Contains(p, planOnMark) || !strings.Contains(p, ExitPlanMode) {
		t.Errorf("the system prompt of a plan-mode session does not say what plan mode is:\n%s", p)
	}
	history := []openai.ChatCompletionMessage{{Role: "user", Content: withNotes([]string{planModeText}, "look")}, {Role: "assistant", Content: "ok"}}
	if !planToldIn(history) {
		t.Error("a conversation told plan mode is on reads as not told")
	}
	history = append(history, openai.ChatCompletionMessage{Role: "user", Content: withNotes([]string{planOffText(permissions.ModeDefault)}, "go")})
	if planToldIn(history) {
		t.Error("a conversation told plan mode is off reads as on")
	}
}
