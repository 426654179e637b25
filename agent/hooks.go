package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/hooks"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/tools"
)

// Where the session's events meet the person's hooks (package hooks, Claude Code's protocol), and what
// the agent makes of their answers:
//   - SessionStart runs as the agent is made, and the first request waits for it; what it prints joins the
//     model's context at that request.
//   - UserPromptSubmit runs before a prompt joins the conversation: a block keeps the prompt out of it and
//     tells the person why; what it prints joins the model's context with the prompt.
//   - PreToolUse runs just before a call is authorized: a deny (or exit 2) blocks the call and the model
//     reads the hook's words; an ask asks the person whatever the engine said (unless the engine denies);
//     an allow is an allow rule naming the call for the engine, no more (permissions/hook.go).
//   - PostToolUse runs after a call that ran: a block and additionalContext reach the model with the result.
//   - Stop (SubagentStop in a sub-agent) runs when the model answers without tools: a block keeps it
//     working, with the hook's words, within the step cap.
//   - PreCompact runs before the conversation is summarised.
//
// A hook's "continue": false ends the request after its event. A broken hook (an exit status other than
// 0 and 2, a timeout) blocks nothing and is told to the person once; every decision of a hook is in the
// history as the permission's `by: hook`.

// hookSession is the session the hooks are told of: its id and record.
type hookSession struct{ id, transcript string }

// hookSession returns the session of the agent's hooks: its own record's, or a sub-agent's parent's.
func (a *Agent) hookSession() hookSession {
	if a.opts.Store != nil {
		path := a.opts.Store.Path()
		return hookSession{id: strings.TrimSuffix(filepath.Base(path), ".jsonl"), transcript: path}
	}
	return a.opts.session
}

// hookEvent is an event of the given name with what every event tells.
func (a *Agent) hookEvent(name string) hooks.Event {
	s := a.hookSession()
	return hooks.Event{Name: name, SessionID: s.id, Transcript: s.transcript, Cwd: a.opts.Env.Cwd()}
}

// tellHooks shows the hooks' notices to the person, escaped: a script's words reach the terminal.
func (a *Agent) tellHooks(notices []string) {
	for _, n := range notices {
		a.emit(Notice{Message: printable.EscapeText(n)})
	}
}

// halted holds why a hook said to stop ("continue": false) during the request, for the loop to end it.
type halted struct {
	mu     sync.Mutex
	reason string
}

func (h *halted) set(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.reason == "" {
		h.reason = reason
	}
}

func (h *halted) take() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.reason
	h.reason = ""
	return r
}

// startSession runs the SessionStart hooks in the background; the first request waits for them.
func (a *Agent) startSession() {
	if a.opts.SessionStart == "" || !a.opts.Hooks.Has(hooks.SessionStart) {
		return
	}
	a.started = make(chan struct{})
	ev := a.hookEvent(hooks.SessionStart)
	ev.Source = a.opts.SessionStart
	go func() {
		defer close(a.started)
		out := a.opts.Hooks.Run(context.Background(), ev)
		a.tellHooks(out.Notices)
		if out.Context != "" {
			a.Note("From the SessionStart hooks:\n" + out.Context)
		}
	}()
}

// waitSessionStart waits for the SessionStart hooks, or for ctx.
func (a *Agent) waitSessionStart(ctx context.Context) {
	if a.started == nil {
		return
	}
	select {
	case <-a.started:
	case <-ctx.Done():
	}
}

// promptHooks runs the UserPromptSubmit hooks on a prompt. When they block it, the prompt is not sent,
// and the request ends with why.
func (a *Agent) promptHooks(ctx context.Context, prompt string) (TurnDone, bool) {
	if a.opts.Depth > 0 || !a.opts.Hooks.Has(hooks.UserPromptSubmit) {
		return TurnDone{}, false
	}
	ev := a.hookEvent(hooks.UserPromptSubmit)
	ev.Prompt = prompt
	out := a.opts.Hooks.Run(ctx, ev)
	a.tellHooks(out.Notices)
	if ctx.Err() != nil {
		return TurnDone{Interrupted: true}, true
	}
	if out.Block || out.Stop {
		why := out.Reason
		if out.Stop {
			why = joinWords(out.StopReason, why)
		}
		msg := "The prompt was not sent: a UserPromptSubmit hook blocked it"
		if out.By != "" {
			msg = "The prompt was not sent: the UserPromptSubmit hook " + out.By + " blocked it"
		}
		if why != "" {
			msg += ": " + why
		}
		msg = printable.EscapeText(msg)
		a.emit(Notice{Message: msg})
		return TurnDone{Text: msg, IsError: true}, true
	}
	if out.Context != "" {
		a.Note("From the UserPromptSubmit hooks:\n" + out.Context)
	}
	return TurnDone{}, false
}

// preToolHooks runs the PreToolUse hooks on a call about to be authorized and applies their answer to
// its verdict. A call they block gets its result here.
func (a *Agent) preToolHooks(ctx context.Context, p *pendingCall) *tools.Result {
	if !a.opts.Hooks.Has(hooks.PreToolUse) {
		return nil
	}
	name := p.tc.Function.Name
	ev := a.hookEvent(hooks.PreToolUse)
	ev.Tool, ev.ToolUseID, ev.ToolInput = name, p.tc.ID, hooks.ToolInput(name, p.input, filePath(p.access))
	out := a.opts.Hooks.Run(ctx, ev)
	a.tellHooks(out.Notices)
	if ctx.Err() != nil {
		return &tools.Result{Output: "Interrupted by the user before this call ran.", IsError: true, Interrupted: true}
	}
	deny := func(reason, text string) *tools.Result {
		a.emit(PermissionDecided{ID: p.tc.ID, Decision: permissions.Deny, By: "hook", Reason: printable.EscapeText(reason)})
		return &tools.Result{Output: text, IsError: true}
	}
	if out.Stop {
		a.halt.set(out.StopReason)
		return deny("the PreToolUse hooks said to stop: "+out.StopReason,
			"A PreToolUse hook stopped the work before this call ran: "+out.StopReason)
	}
	why := func(s string) string {
		if s == "" {
			return ""
		}
		return ": " + s
	}
	switch out.Permission {
	case "deny":
		return deny("blocked by the PreToolUse hook "+out.By+why(out.Reason),
			"A PreToolUse hook blocked this call"+why(out.Reason))
	case "ask":
		if p.verdict.Decision != permissions.Deny {
			p.verdict.Decision, p.verdict.By, p.verdict.Rule = permissions.Ask, "hook", ""
			p.verdict.Reason = printable.EscapeText("the PreToolUse hook " + out.By + " asks about it" + why(out.PermissionReason))
		}
	case "allow":
		req := permissionRequest(p.access)
		req.HookAllowed = true
		p.verdict = a.opts.Engine.Decide(req)
		if p.verdict.By == "hook" {
			p.verdict.Reason = printable.EscapeText(strings.Replace(p.verdict.Reason, "a PreToolUse hook", "the PreToolUse hook "+out.By, 1) +
				why(out.PermissionReason))
		}
	}
	return nil
}

// postToolHooks runs the PostToolUse hooks on a call that ran; what they tell the model joins its result.
func (a *Agent) postToolHooks(ctx context.Context, p *pendingCall, res tools.Result) tools.Result {
	if ctx.Err() != nil || !a.opts.Hooks.Has(hooks.PostToolUse) {
		return res
	}
	name := p.tc.Function.Name
	ev := a.hookEvent(hooks.PostToolUse)
	path := filePath(p.access)
	ev.Tool, ev.ToolUseID = name, p.tc.ID
	ev.ToolInput, ev.ToolResponse = hooks.ToolInput(name, p.input, path), hooks.ToolResponse(name, res, path)
	out := a.opts.Hooks.Run(ctx, ev)
	a.tellHooks(out.Notices)
	var add []string
	if out.Block {
		add = append(add, "PostToolUse hook feedback:\n"+orIfBlank(out.Reason, "(the hook "+out.By+" gave no reason)"))
	}
	if out.Context != "" {
		add = append(add, "From the PostToolUse hooks:\n"+out.Context)
	}
	if out.Stop {
		a.halt.set(out.StopReason)
	}
	if len(add) > 0 {
		res.Output = strings.TrimRight(res.Output, "\n") + "\n\n" + strings.Join(add, "\n\n")
	}
	return res
}

// stopHooks runs the Stop hooks (SubagentStop in a sub-agent) when the model would stop. It reports
// whether they keep it working; then their words are the model's next message.
func (a *Agent) stopHooks(ctx context.Context, active bool) bool {
	event := hooks.Stop
	if a.opts.Depth > 0 {
		event = hooks.SubagentStop
	}
	if !a.opts.Hooks.Has(event) {
		return false
	}
	ev := a.hookEvent(event)
	ev.StopHookActive = active
	out := a.opts.Hooks.Run(ctx, ev)
	a.tellHooks(out.Notices)
	if ctx.Err() != nil || out.Stop || !out.Block {
		return false
	}
	reason := orIfBlank(out.Reason, "the hook "+out.By+" gave no reason")
	a.emit(Notice{Message: printable.EscapeText(fmt.Sprintf("the %s hook %s keeps the model working: %s", event, out.By, reason))})
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser,
		Content: withNotes([]string{event + " hook feedback (you may not stop yet):\n" + reason}, "")})
	return true
}

// compactHooks runs the PreCompact hooks before the conversation is summarised.
func (a *Agent) compactHooks(ctx context.Context, trigger, focus string) {
	if !a.opts.Hooks.Has(hooks.PreCompact) {
		return
	}
	ev := a.hookEvent(hooks.PreCompact)
	ev.Trigger, ev.CustomInstructions = trigger, focus
	a.tellHooks(a.opts.Hooks.Run(ctx, ev).Notices)
}

// filePath is the file a file tool's call touches, which hooks get as file_path.
func filePath(ac tools.Access) string {
	switch ac.Kind {
	case tools.AccessRead, tools.AccessEdit, tools.AccessWrite:
		return ac.Path
	}
	return ""
}

func orIfBlank(s, or string) string {
	if strings.TrimSpace(s) == "" {
		return or
	}
	return s
}

func joinWords(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
