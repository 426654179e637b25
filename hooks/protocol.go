package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/warden-cli/warden/config"
)

// The events, as Claude Code names them (config.HookEvents lists them for the settings).
const (
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	UserPromptSubmit = "UserPromptSubmit"
	Stop             = "Stop"
	SubagentStop     = "SubagentStop"
	SessionStart     = "SessionStart"
	SessionEnd       = "SessionEnd"
	Notification     = "Notification"
	PreCompact       = "PreCompact"
)

// Event is one occasion to run hooks: which, and what the hooks are told of it.
type Event struct {
	Name string
	// SessionID and Transcript are the session's id and the file that records it (Warden's own record,
	// one JSON object a line, not Claude Code's); Cwd is the directory the session works in now, where
	// the hooks run.
	SessionID, Transcript, Cwd string
	// Tool is the tool's name as Warden calls it (bash, mcp__github__get_issue); ToolInput and
	// ToolResponse are in Claude Code's shape (ToolInput, ToolResponse); ToolUseID is the call's id.
	Tool                    string
	ToolInput, ToolResponse map[string]any
	ToolUseID               string
	// Prompt is what the person sent (UserPromptSubmit).
	Prompt string
	// StopHookActive says the model goes on because a Stop hook (SubagentStop hook) kept it going.
	StopHookActive bool
	// Source is why a session starts (startup, resume, clear), Reason why it ends (clear, logout,
	// prompt_input_exit, other), Trigger what compacts the conversation (manual, auto): what matchers of
	// those events match, as Claude Code's do. CustomInstructions are what the person asked a manual
	// compaction to keep.
	Source, Reason, Trigger, CustomInstructions string
	// Message is the notification's text and NotificationType its kind (permission_prompt, idle_prompt),
	// which matchers of Notification match.
	Message, NotificationType string
}

// subject is what a matcher of the event is matched against; nil for events whose matchers Claude Code
// ignores (UserPromptSubmit, Stop, SubagentStop).
func (e Event) subject() []string {
	switch e.Name {
	case PreToolUse, PostToolUse:
		if n := ToolName(e.Tool); n != e.Tool {
			return []string{n, e.Tool}
		}
		return []string{e.Tool}
	case SessionStart:
		return []string{e.Source}
	case SessionEnd:
		return []string{e.Reason}
	case PreCompact:
		return []string{e.Trigger}
	case Notification:
		return []string{e.NotificationType}
	}
	return nil
}

// input is the JSON object a hook reads on its standard input. mode is Claude Code's name for the
// permission mode.
func (e Event) input(mode string) ([]byte, error) {
	m := map[string]any{
		"session_id": e.SessionID, "transcript_path": e.Transcript, "cwd": e.Cwd,
		"permission_mode": mode, "hook_event_name": e.Name,
	}
	switch e.Name {
	case PreToolUse, PostToolUse:
		m["tool_name"], m["tool_input"], m["tool_use_id"] = ToolName(e.Tool), orEmpty(e.ToolInput), e.ToolUseID
		if e.Name == PostToolUse {
			m["tool_response"] = orEmpty(e.ToolResponse)
		}
	case UserPromptSubmit:
		m["prompt"] = e.Prompt
	case Stop, SubagentStop:
		m["stop_hook_active"] = e.StopHookActive
	case SessionStart:
		m["source"] = e.Source
	case SessionEnd:
		m["reason"] = e.Reason
	case PreCompact:
		m["trigger"], m["custom_instructions"] = e.Trigger, e.CustomInstructions
	case Notification:
		m["message"], m["notification_type"] = e.Message, e.NotificationType
	}
	return json.Marshal(m)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// output is the JSON object a hook may print on standard output when it exits 0.
type output struct {
	// Continue false stops the session's work after this event; StopReason tells the person why.
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	// SuppressOutput keeps the hook's output out of what Warden shows of it (/hooks).
	SuppressOutput bool   `json:"suppressOutput"`
	SystemMessage  string `json:"systemMessage"`
	// Decision is "block" (PostToolUse, UserPromptSubmit, Stop, SubagentStop), or for PreToolUse the
	// older "approve" and "block"; Reason says why.
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Specific struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// parseOutput reads stdout as the JSON answer when it is one object; otherwise it is plain text.
func parseOutput(stdout string) *output {
	t := strings.TrimSpace(stdout)
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	var o output
	dec := json.NewDecoder(strings.NewReader(t))
	if dec.Decode(&o) != nil || dec.More() {
		return nil
	}
	return &o
}

// answer is what one hook said.
type answer struct {
	hook config.Hook
	// code is the exit status; failed, when not empty, says why the hook is an error that blocks
	// nothing (a status other than 0 and 2, a signal, a timeout, a start that failed).
	code           int
	failed         string
	stdout, stderr string
	out            *output
	// firstFailure says it failed for the first time this session: the person is told once.
	firstFailure bool
}

// Outcome is what the hooks of one event said, together. The agent applies it; what it means depends on
// the event, as Claude Code's documentation says.
type Outcome struct {
	// Block says a hook blocked the event's action: a PreToolUse hook the call (then Permission is
	// "deny"), a UserPromptSubmit hook the prompt, a Stop or SubagentStop hook the stop (the model goes
	// on); a PostToolUse hook's block is feedback on a call that already ran. Reason is the hooks' words:
	// for the model, or for the person when the prompt is blocked.
	Block  bool
	Reason string
	// Permission is the PreToolUse hooks' answer: "deny" over "ask" over "allow", "" when none gave
	// one; PermissionReason is why, in their words.
	Permission, PermissionReason string
	// Context joins the model's context: what UserPromptSubmit and SessionStart hooks print, and every
	// hook's additionalContext.
	Context string
	// Stop says a hook answered "continue": false: the work stops after this event, and StopReason
	// tells the person why.
	Stop       bool
	StopReason string
	// Notices are for the person: a hook's systemMessage, what a hook of an event with no one else to
	// tell wrote on exit 2, and the first failure of each hook.
	Notices []string
	// By names the hooks whose answer decided (Block, Permission), for reasons and the history.
	By string
}

// maxContext bounds what one hook adds to the model's context, in characters, as Claude Code bounds it.
const maxContext = 10_000

// combine puts the answers of an event's hooks together, in the order they are configured.
func combine(ev Event, answers []answer) Outcome {
	var o Outcome
	var reasons, context, by []string
	rank := map[string]int{"": 0, "allow": 1, "ask": 2, "deny": 3}
	decide := func(a answer, perm, why string) {
		switch {
		case rank[perm] > rank[o.Permission]:
			o.Permission, reasons, by = perm, nil, nil
		case rank[perm] < rank[o.Permission]:
			return
		}
		by = append(by, name(a.hook))
		if why = strings.TrimSpace(why); why != "" {
			reasons = append(reasons, why)
		}
	}
	block := func(a answer, why string) {
		o.Block = true
		by = append(by, name(a.hook))
		if why = strings.TrimSpace(why); why != "" {
			reasons = append(reasons, why)
		}
	}
	for _, a := range answers {
		if a.failed != "" {
			if a.firstFailure {
				o.Notices = append(o.Notices, fmt.Sprintf("the %s hook %s (%s) failed: %s; it blocked nothing, and its later failures are not shown again",
					ev.Name, name(a.hook), a.hook.File, a.failed))
			}
			continue
		}
		if a.code == 2 {
			switch ev.Name {
			case PreToolUse:
				decide(a, "deny", a.stderr)
			case PostToolUse, UserPromptSubmit, Stop, SubagentStop:
				block(a, a.stderr)
			default:
				if msg := strings.TrimSpace(a.stderr); msg != "" {
					o.Notices = append(o.Notices, fmt.Sprintf("the %s hook %s: %s", ev.Name, name(a.hook), msg))
				}
			}
			continue
		}
		out := a.out
		if out == nil {
			if ev.Name == UserPromptSubmit || ev.Name == SessionStart {
				context = appendContext(context, a.stdout)
			}
			continue
		}
		if out.Continue != nil && !*out.Continue {
			why := strings.TrimSpace(out.StopReason)
			if why == "" {
				why = "the " + ev.Name + " hook " + name(a.hook) + " said to stop"
			}
			o.Stop, o.StopReason = true, joinNonEmpty(o.StopReason, why)
		}
		if m := strings.TrimSpace(out.SystemMessage); m != "" {
			o.Notices = append(o.Notices, fmt.Sprintf("the %s hook %s: %s", ev.Name, name(a.hook), m))
		}
		context = appendContext(context, out.Specific.AdditionalContext)
		switch ev.Name {
		case PreToolUse:
			perm, why := out.Specific.PermissionDecision, out.Specific.PermissionDecisionReason
			if perm == "" {
				// The older fields, which Claude Code still reads.
				perm = map[string]string{"approve": "allow", "block": "deny"}[out.Decision]
				why = out.Reason
			}
			if len(bytes.TrimSpace(out.Specific.UpdatedInput)) > 0 && string(bytes.TrimSpace(out.Specific.UpdatedInput)) != "null" {
				// Running a call other than the one the hook changed it to would be wrong either way.
				perm, why = "deny", joinNonEmpty("the hook asked to change the call's input (updatedInput), which Warden does not do, so it was not run", why)
			}
			if rank[perm] > 0 {
				decide(a, perm, why)
			}
		case PostToolUse, UserPromptSubmit, Stop, SubagentStop:
			if out.Decision == "block" {
				block(a, out.Reason)
			}
		}
	}
	o.Reason = strings.Join(reasons, "\n")
	if o.Permission != "" {
		o.PermissionReason, o.Reason = o.Reason, ""
		o.Block = o.Permission == "deny"
		if o.Block {
			o.Reason = o.PermissionReason
		}
	}
	o.Context = strings.Join(context, "\n\n")
	o.By = strings.Join(by, ", ")
	return o
}

func appendContext(list []string, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return list
	}
	if len(s) > maxContext {
		cut := maxContext
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "\n[cut: a hook may add at most 10,000 characters]"
	}
	return append(list, s)
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// name is how a hook is named to the person and the model: its command, on one line and short.
func name(h config.Hook) string {
	c := strings.Join(strings.Fields(h.Command), " ")
	if utf8.RuneCountInString(c) > 60 {
		r := []rune(c)
		c = string(r[:59]) + "…"
	}
	return "`" + c + "`"
}
