package agent

import (
	"context"
	"encoding/json"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// Approver answers calls that the permission engine says must be asked about. The UI implements it with the
// modal; the headless runner with a policy that never blocks. Approve must return when ctx is done.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Approval, error)
}

// ApprovalRequest is everything the person needs to decide.
type ApprovalRequest struct {
	CallID  string
	Tool    string
	Input   json.RawMessage
	Access  tools.Access
	Verdict permissions.Verdict
	// Agent labels a sub-agent's call ("" for the main agent).
	Agent string
}

// Scope says how long an approval lasts.
type Scope int

// The scopes of an approval.
const (
	Once Scope = iota
	// ForSession adds Approval.Rule to the session's allow rules.
	ForSession
	// ForProject also saves Approval.Rule to the project's local settings.
	ForProject
)

// Approval is the person's answer.
type Approval struct {
	Allow bool
	Scope Scope
	// Rule is the rule to save for ForSession and ForProject (shown to the person before saving).
	Rule string
	// Message is the person's reason for a denial, passed on to the model.
	Message string
}

// ApproverFunc adapts a function to the Approver interface.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Approval, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Approval, error) {
	return f(ctx, req)
}
