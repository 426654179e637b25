package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// Output formats of a headless run.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// HeadlessApprover never blocks on a person: a call that would ask is denied, and the model is told why.
type HeadlessApprover struct{}

// ErrHeadless is the reason a headless run gives for a call that needed approval: why the call asked,
// and what would let it run without a person, which is not always a rule.
type ErrHeadless struct {
	Verdict permissions.Verdict
	// Unsandboxed says the call asked to run outside the sandbox.
	Unsandboxed bool
}

func (e ErrHeadless) Error() string {
	msg := "this call needs approval and the run is headless, with no one to ask"
	if e.Verdict.Reason != "" {
		msg += " (" + e.Verdict.Reason + ")"
	}
	return msg + "; " + e.advice()
}

// advice says what would let such a call run: a rule where one would cover it; otherwise running Warden
// where a person can approve it, or yolo mode where that allows it.
func (e ErrHeadless) advice() string {
	const interactive = "run Warden interactively (without -p) and approve it"
	v := e.Verdict
	switch {
	case e.Unsandboxed:
		return "a person approves every run outside the sandbox, whatever the rules and mode: " + interactive
	case v.Dangerous:
		return "it is dangerous, which asks even in yolo mode: " + interactive
	case v.Unseen:
		return "Warden cannot check the deny and ask rules against it, which asks in every mode and under every allow rule: " +
			interactive
	case v.By == "hook":
		return "a PreToolUse hook asks about it, whatever the rules and mode say: " + interactive
	case v.By == "rule" && v.Rule != "":
		return fmt.Sprintf("the ask rule `%s` asks whatever the allow rules and mode say: %s, or remove the rule", v.Rule, interactive)
	case v.RuleCannotAllow:
		return "no allow rule can cover it: " + interactive + " once, or use --permission-mode yolo"
	case v.SuggestedRule != "":
		return fmt.Sprintf("allow it with --allow %s, a settings rule, or --permission-mode", shellQuote(v.SuggestedRule))
	}
	return "allow it with --allow RULE, a settings rule, or --permission-mode"
}

// shellQuote quotes s as one word for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Approve denies.
func (HeadlessApprover) Approve(ctx context.Context, req ApprovalRequest) (Approval, error) {
	return Approval{}, ErrHeadless{Verdict: req.Verdict, Unsandboxed: req.Access.Unsandboxed}
}

// Printer writes a headless run's events in one of the output formats. It is a Sink.
type Printer struct {
	mu     sync.Mutex
	w      io.Writer
	errW   io.Writer
	format string
	err    error
	// started is when the run began and session the id SessionStarted gave, for the result's
	// duration_ms and session_id.
	started time.Time
	session string
}

// NewPrinter prints to w; notices in text format go to errW. The run's duration is counted from now.
func NewPrinter(w, errW io.Writer, format string) *Printer {
	return &Printer{w: w, errW: errW, format: format, started: time.Now()}
}

// Err returns the first write error, if any.
func (p *Printer) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Sink handles one event.
func (p *Printer) Sink(ev Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := ev.(SessionStarted); ok {
		p.session = s.ID
	}
	switch p.format {
	case FormatStreamJSON:
		if d, ok := ev.(TurnDone); ok {
			p.writeJSON(p.result(d))
		} else if obj := StreamJSON(ev); obj != nil {
			p.writeJSON(obj)
		}
	case FormatJSON:
		if d, ok := ev.(TurnDone); ok {
			p.writeJSON(p.result(d))
		}
	default:
		switch e := ev.(type) {
		case Notice:
			// Retries are reported in stream-json; in text the person gets the outcome, in one line.
			if !e.Retrying {
				p.write(p.errW, "warden: "+e.Message+"\n")
			}
		case TurnDone:
			if !e.IsError && e.Text != "" {
				p.write(p.w, e.Text+"\n")
			}
		}
	}
}

// result is the result object with what only the printer knows: the session's id and how long the run
// took, under Claude Code's names.
func (p *Printer) result(d TurnDone) map[string]any {
	m := StreamJSON(d).(map[string]any)
	m["session_id"] = p.session
	m["duration_ms"] = time.Since(p.started).Milliseconds()
	return m
}

func (p *Printer) writeJSON(obj any) {
	b, err := json.Marshal(obj)
	if err != nil {
		p.err = fmt.Errorf("encoding event: %w", err)
		return
	}
	p.write(p.w, string(b)+"\n")
}

func (p *Printer) write(w io.Writer, s string) {
	if _, err := io.WriteString(w, s); err != nil && p.err == nil {
		p.err = err
	}
}

// StreamJSON returns the stream-json object for an event (DESIGN.md §3), or nil for events the format
// leaves out (deltas and live output).
func StreamJSON(ev Event) any {
	switch e := ev.(type) {
	case SessionStarted:
		return map[string]any{"type": "session", "id": e.ID, "cwd": e.Cwd, "model": e.Model}
	case AssistantText:
		if e.Text == "" {
			return nil
		}
		return map[string]any{"type": "text", "text": e.Text}
	case ToolCallStarted:
		// §3 promises an object; arguments the model got wrong are quoted in the call's tool_result.
		var input any = map[string]any{}
		if t := bytes.TrimSpace(e.Input); len(t) > 0 && t[0] == '{' && json.Valid(t) {
			input = e.Input
		}
		return map[string]any{"type": "tool_call", "id": e.ID, "name": e.Name, "input": input}
	case PermissionDecided:
		m := map[string]any{"type": "permission", "id": e.ID, "decision": string(e.Decision), "by": e.By, "reason": e.Reason}
		if e.Rule != "" {
			m["rule"] = e.Rule
		}
		return m
	case ToolFinished:
		m := toolResultJSON(e.ID, e.Result, e.Duration.Milliseconds())
		if len(e.Changes) > 0 {
			m["changes"] = checkpoint.Briefs(e.Changes)
		}
		return m
	case FilesChanged:
		m := map[string]any{"type": "changes", "by": e.By, "changes": checkpoint.Briefs(e.Changes)}
		if e.CallID != "" {
			m["id"] = e.CallID
		}
		return m
	case Notice:
		return map[string]any{"type": "error", "message": e.Message, "retrying": e.Retrying}
	case ChildEvent:
		// A sub-agent's tool activity is shown with the task call it belongs to; its text is not.
		switch e.Event.(type) {
		case ToolCallStarted, PermissionDecided, ToolFinished, FilesChanged, ChildEvent:
		default:
			return nil
		}
		m, _ := StreamJSON(e.Event).(map[string]any)
		if m != nil {
			if _, nested := m["parent_id"]; !nested {
				m["parent_id"], m["agent"] = e.ParentID, e.Agent
			}
		}
		return m
	case PlanPresented:
		return map[string]any{"type": "plan", "id": e.CallID, "plan": e.Plan}
	case TurnDone:
		// Warden's own fields, and beside them Claude Code's names for the same (result, num_turns, and
		// usage's input_tokens and output_tokens), so that scripts written for either read it.
		m := map[string]any{"type": "result", "text": e.Text, "is_error": e.IsError || e.Interrupted, "turns": e.Turns,
			"result": e.Text, "num_turns": e.Turns,
			"usage": map[string]any{"prompt_tokens": e.Usage.PromptTokens, "completion_tokens": e.Usage.CompletionTokens,
				"input_tokens": e.Usage.PromptTokens, "output_tokens": e.Usage.CompletionTokens}}
		if e.Interrupted {
			m["interrupted"] = true // the run did not finish, and exits with status 1
		}
		if e.Plan != "" {
			m["plan"] = e.Plan
		}
		return m
	}
	return nil
}

func toolResultJSON(id string, r tools.Result, durationMS int64) map[string]any {
	m := map[string]any{"type": "tool_result", "id": id, "output": r.Output, "is_error": r.IsError, "duration_ms": durationMS}
	if r.ExitCode != nil {
		m["exit_code"] = *r.ExitCode
	}
	if r.TimedOut {
		m["timed_out"] = true
	}
	if r.Truncated {
		m["truncated"] = true
	}
	if r.BackgroundID != "" {
		m["background_id"] = r.BackgroundID
	}
	return m
}
