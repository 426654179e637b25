package agent

import (
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// The calls of one turn were all made under the mode of that turn. When plan mode ends in the middle of
// it (the person approves the plan exit_plan_mode presented, into default or accept-edits mode, or leaves
// plan mode themself), the calls after that point were written before anyone approved anything: under
// accept-edits a write_file beside the plan would otherwise run unasked, approved by the plan's "a"
// though never shown as part of it. They are not run, and the model is told to make them again, under
// the mode it now knows of.

// heldAfterPlan is what the model reads for a call held because plan mode ended earlier in its turn.
const heldAfterPlan = "Not run: you made this call in the same turn as " + ExitPlanMode + ", while plan mode was still on, " +
	"and approving the plan does not approve the calls made beside it. Plan mode has ended now: make the call again if the plan still needs it."

// holdAfterPlan holds the calls of rest when plan mode, on before the calls just run (wasPlan), is off now.
func (a *Agent) holdAfterPlan(wasPlan bool, rest []*pendingCall) {
	if !wasPlan || a.opts.Engine.Mode() == permissions.ModePlan {
		return
	}
	for _, p := range rest {
		if p.early == nil {
			res := tools.Result{Output: heldAfterPlan, IsError: true}
			p.early = &res
		}
	}
}
