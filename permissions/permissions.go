// Package permissions decides whether a tool call may run: it parses shell commands with mvdan.cc/sh/v3/syntax,
// classifies them as read-only or not, matches allow/ask/deny rules, and applies the permission mode.
//
// It must never import other Warden packages: the agent translates tool calls into Requests.
package permissions

import (
	"fmt"
	"sync"
)

// Mode is the person's standing choice of how much runs without asking.
type Mode string

// The permission modes, in the order Shift+Tab cycles them (yolo is only chosen explicitly).
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "accept-edits"
	ModePlan        Mode = "plan"
	ModeYolo        Mode = "yolo"
)

// ParseMode accepts the names used on the command line and in settings files.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case ModeDefault, ModeAcceptEdits, ModePlan, ModeYolo:
		return Mode(s), nil
	case "":
		return ModeDefault, nil
	}
	return "", fmt.Errorf("unknown permission mode %q: use default, accept-edits, plan or yolo", s)
}

// Next returns the mode Shift+Tab moves to.
func (m Mode) Next() Mode {
	switch m {
	case ModeDefault:
		return ModeAcceptEdits
	case ModeAcceptEdits:
		return ModePlan
	}
	return ModeDefault
}

// Decision is the outcome for one tool call.
type Decision string

// The three outcomes.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// Kind is what a request does.
type Kind int

// The kinds of request.
const (
	Exec Kind = iota
	Read
	Edit
	Write
	None
)

// Request is one tool call in the terms the engine understands.
type Request struct {
	Kind Kind
	// Command is the shell command of an Exec request.
	Command string
	// Path is the file of a Read, Edit or Write request, as given (relative paths resolve against Cwd).
	Path string
	// Cwd is the directory the command runs in or the path resolves against.
	Cwd string
}

// Verdict is the engine's answer with everything the person and the transcript need to understand it.
type Verdict struct {
	Decision Decision
	// By says who decided: "readonly", "rule", "mode" or "policy" ("user" is set by the agent after a prompt).
	By string
	// Reason is a sentence naming the part that needs approval ("`git push` is not read-only").
	Reason string
	// Part is the exact text of the command part that needs approval, for highlighting.
	Part string
	// Rule is the rule that decided, if one did.
	Rule      string
	ReadOnly  bool
	Dangerous bool
	// SuggestedRule is the narrowest rule that "always allow" would save.
	SuggestedRule string
}

// Policy is the configuration an Engine is built from.
type Policy struct {
	Mode                  Mode
	Allow, Deny, Ask      []string
	Workspace             string
	AdditionalDirectories []string
	Home                  string
}

// Engine decides requests under a policy. It is safe for concurrent use; grants and mode changes made while
// a session runs take effect for the next decision.
type Engine struct {
	mu     sync.RWMutex
	policy Policy
}

// NewEngine validates the policy's rules and returns an engine.
func NewEngine(p Policy) (*Engine, error) {
	if p.Mode == "" {
		p.Mode = ModeDefault
	}
	return &Engine{policy: p}, nil
}

// Mode returns the current mode.
func (e *Engine) Mode() Mode {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.policy.Mode
}

// SetMode changes the mode for later decisions.
func (e *Engine) SetMode(m Mode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.Mode = m
}

// AddAllow adds an allow rule for the rest of the session.
func (e *Engine) AddAllow(rule string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.Allow = append(e.policy.Allow, rule)
	return nil
}

// Decide returns the verdict for one request.
func (e *Engine) Decide(req Request) Verdict {
	e.mu.RLock()
	mode := e.policy.Mode
	e.mu.RUnlock()
	switch mode {
	case ModeYolo:
		return Verdict{Decision: Allow, By: "mode", Reason: "yolo mode allows everything"}
	case ModePlan:
		return Verdict{Decision: Deny, By: "mode", Reason: "plan mode allows only read-only actions"}
	}
	return Verdict{Decision: Ask, By: "policy", Reason: "not known to be read-only", Part: req.Command}
}
