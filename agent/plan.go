package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// Plan mode as a workflow. The permission engine's plan mode only refuses what is not read-only; the
// model also has to know it is in plan mode and what is expected of it, and the person has to see the
// plan and say yes. So the main agent is told (in the system prompt when a session starts in plan mode,
// in a note at its next turn whenever the mode enters or leaves plan mode), and while plan mode is on it
// is offered exit_plan_mode, which shows the plan to the person through the approver. Approval ends plan
// mode, in the mode the person picked, and the model goes on in the same request; "keep planning" gives
// the model the person's reason. A run with no one to approve (headless) ends the request with the plan
// as its answer. Sub-agents get neither the notes nor the tool: they work for the main agent.

// ExitPlanMode is the name of the tool the model presents its plan with.
const ExitPlanMode = "exit_plan_mode"

type planParams struct {
	Plan string `json:"plan" desc:"The plan, in Markdown: the steps, the files you will change, and how you will check the result."`
}

const planDescription = `Presents your plan to the user for approval, while plan mode is on.

- Call it once you have explored enough (with read-only tools) to know what to do; the plan is Markdown: the steps, the files you will change and how you will check the result.
- The user approves it, and plan mode ends so that you carry it out, or tells you what to change: revise the plan and call this again.
- Only for plans of work that changes things; do not use it to answer a question.`

// planOnMark and planOffMark start what the model is told when plan mode begins and ends; a resumed
// conversation is searched for the last of them (planToldIn).
const (
	planOnMark  = "Plan mode is on."
	planOffMark = "Plan mode is off"
)

// planModeText tells the model what plan mode means; it is the system prompt's passage for a session
// that starts in plan mode, and the note of a session that enters it.
const planModeText = planOnMark + ` The user wants to see and approve a plan before anything changes. Until they approve it, explore with read-only tools and commands only (read files, search, read-only shell commands): do not edit or write files and do not run commands that change anything, since Warden denies them while plan mode is on. When you know what to do, present your plan by calling ` + ExitPlanMode + ` with {"plan": "..."}: Markdown, with the steps, the files you will change and how you will check the result. The user either approves it (plan mode then ends and you carry the plan out) or says what to change (revise the plan and present it again). Do not ask for approval of the plan in plain text: use ` + ExitPlanMode + `.`

// planOffText tells the model that plan mode ended without an approval (the person changed the mode).
func planOffText(mode permissions.Mode) string {
	return fmt.Sprintf("%s: the permission mode is now %s. You may change files and run commands again, within the permission rules; %s is no longer needed.",
		planOffMark, mode, ExitPlanMode)
}

// PlanRequest is a plan the model presents for approval.
type PlanRequest struct {
	CallID string
	// Plan is the model's plan, Markdown.
	Plan string
}

// PlanAnswer is the person's answer to a plan.
type PlanAnswer struct {
	// Approve ends plan mode, in Mode (default or accept-edits; anything else is default).
	Approve bool
	Mode    permissions.Mode
	// Message, when the plan is not approved, is what the person wants changed; the model reads it.
	Message string
	// Stop ends the request with the plan as its answer: the answer of a run with no one to approve it.
	Stop bool
}

// PlanReviewer is an Approver that can also show the person a plan (the TUI's, with its plan overlay).
// An approver that is not one ends the request at the plan, as the headless run does.
type PlanReviewer interface {
	// ReviewPlan shows req and waits for the answer; it must return when ctx is done.
	ReviewPlan(ctx context.Context, req PlanRequest) (PlanAnswer, error)
}

// ReviewPlan ends a headless request at the plan: there is no one to approve it, so the run prints it and
// ends (DESIGN.md §3).
func (HeadlessApprover) ReviewPlan(context.Context, PlanRequest) (PlanAnswer, error) {
	return PlanAnswer{Stop: true}, nil
}

// PlanPresented reports a plan the model presented with exit_plan_mode, before the person answers.
type PlanPresented struct {
	CallID string
	Plan   string
}

func (PlanPresented) isEvent() {}

// planState is what the agent knows of plan mode: whether the model was last told it is on, and a plan
// that ends the request (set by a call that may run beside others, read by the loop).
type planState struct {
	mu   sync.Mutex
	told bool
	// end is the plan that ends the request, once a headless run was shown one.
	end    string
	ending bool
}

// planTool returns exit_plan_mode. It is offered to the model only while plan mode is on (turnTools),
// but dispatched whenever called, so that a call made just after the person left plan mode gets a clear
// answer rather than "unknown tool".
func (a *Agent) planTool() tools.Tool {
	return tools.New(tools.Spec[planParams]{
		Name:        ExitPlanMode,
		Description: planDescription,
		Access: func(env *tools.Env, p *planParams) (tools.Access, error) {
			if strings.TrimSpace(p.Plan) == "" {
				return tools.Access{}, fmt.Errorf("the plan is empty; write it in the plan field, in Markdown")
			}
			// Presenting a plan touches nothing; the person's answer is asked by ReviewPlan.
			return tools.Access{Kind: tools.AccessNone, Summary: planTitle(p.Plan), Cwd: env.Cwd()}, nil
		},
		Run: a.runExitPlan,
	})
}

// planTitle is the plan's first line without its Markdown marks (heading, code, emphasis), for the call's
// panel.
func planTitle(plan string) string {
	for _, l := range strings.Split(plan, "\n") {
		l = strings.NewReplacer("`", "", "**", "", "__", "").Replace(l)
		if l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#")); l != "" {
			if r := []rune(l); len(r) > 80 {
				l = string(r[:80]) + "…"
			}
			return l
		}
	}
	return "plan"
}

func (a *Agent) runExitPlan(ctx context.Context, _ *tools.Env, call tools.Call, p *planParams) tools.Result {
	plan := strings.TrimSpace(p.Plan)
	if a.opts.Engine.Mode() != permissions.ModePlan {
		return tools.Result{Output: "Plan mode is already off (the user left it), so there is nothing to approve: go ahead with the work, within the permission rules.", Display: plan}
	}
	a.emit(PlanPresented{CallID: call.ID, Plan: plan})
	ans := PlanAnswer{Stop: true}
	if r, ok := a.opts.Approver.(PlanReviewer); ok {
		var err error
		ans, err = r.ReviewPlan(ctx, PlanRequest{CallID: call.ID, Plan: plan})
		switch {
		case err != nil && ctx.Err() != nil:
			return tools.Result{Output: "Interrupted by the user while the plan waited for approval.", IsError: true, Interrupted: true, Display: plan}
		case err != nil:
			return tools.Result{Output: fmt.Sprintf("The plan could not be shown to the user (%v). Plan mode stays on.", err), IsError: true, Display: plan}
		}
	}
	switch {
	case ans.Stop:
		a.plan.mu.Lock()
		a.plan.end, a.plan.ending = plan, true
		a.plan.mu.Unlock()
		return tools.Result{Output: "The plan was shown to the user, and the request ends here: no one can approve it in this run. Do nothing more.",
			Display: plan}
	case ans.Approve:
		mode := ans.Mode
		if mode != permissions.ModeAcceptEdits {
			mode = permissions.ModeDefault
		}
		a.opts.Engine.SetMode(mode)
		a.plan.mu.Lock()
		a.plan.told = false // the result says so: no note needed
		a.plan.mu.Unlock()
		how := "calls that change anything are asked of the user as usual"
		if mode == permissions.ModeAcceptEdits {
			how = "file edits inside the workspace run without asking; other calls are asked of the user as usual"
		}
		return tools.Result{Output: fmt.Sprintf("The user approved the plan. %s: the permission mode is now %s (%s). Carry out the plan now.", planOffMark, mode, how),
			Display: plan + "\n\n→ approved; mode " + string(mode)}
	}
	msg := strings.TrimSpace(ans.Message)
	if msg == "" {
		return tools.Result{Output: "The user did not approve the plan and wants you to keep planning; plan mode stays on. Revise the plan (ask them what to change if you cannot tell) and present it again with " + ExitPlanMode + ".",
			Display: plan + "\n\n→ keep planning"}
	}
	return tools.Result{Output: fmt.Sprintf("The user did not approve the plan and said: %q. Plan mode stays on: revise the plan with that in mind and present it again with %s.", msg, ExitPlanMode),
		Display: plan + "\n\n→ keep planning: " + msg}
}

// noteMode tells the model, at its next turn, that plan mode began or ended since it was last told.
func (a *Agent) noteMode() {
	if a.planCall == nil {
		return
	}
	mode := a.opts.Engine.Mode()
	on := mode == permissions.ModePlan
	a.plan.mu.Lock()
	changed := on != a.plan.told
	a.plan.told = on
	a.plan.mu.Unlock()
	switch {
	case !changed:
	case on:
		a.Note(planModeText)
	default:
		a.Note(planOffText(mode))
	}
}

// takePlanEnd returns the plan that ends the request, if a headless run was shown one.
func (a *Agent) takePlanEnd() (string, bool) {
	a.plan.mu.Lock()
	defer a.plan.mu.Unlock()
	plan, ok := a.plan.end, a.plan.ending
	a.plan.end, a.plan.ending = "", false
	return plan, ok
}

// planToldIn reports whether the last thing a conversation said of plan mode is that it is on, so that a
// resumed session in another mode is told it is over.
func planToldIn(msgs []openai.ChatCompletionMessage) bool {
	for i := len(msgs) - 1; i >= 0; i-- {
		c := msgs[i].Content
		on, off := strings.LastIndex(c, planOnMark), strings.LastIndex(c, planOffMark)
		switch {
		case on < 0 && off < 0:
			continue
		case on > off:
			return true
		}
		return false
	}
	return false
}

// turnTools are the tools of one model turn and their schemas: the agent's own, what Options.More offers
// now, and exit_plan_mode, whose schema is sent only while plan mode is on.
func (a *Agent) turnTools(ctx context.Context) (*tools.Registry, []openai.Tool) {
	reg := a.tools
	if a.opts.More != nil {
		reg = a.withMore(ctx)
	}
	if a.planCall == nil {
		return reg, toolSchemas(reg)
	}
	offered := tools.NewRegistry(append(reg.Tools(), a.planCall)...)
	if a.opts.Engine.Mode() == permissions.ModePlan {
		return offered, toolSchemas(offered)
	}
	return offered, toolSchemas(reg)
}
