package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/warden-cli/warden/printable"
)

// Hooks are programs the person (or, in a trusted workspace, the project) runs at points of a session, in
// Claude Code's settings shape, so that hook scripts written for it work unchanged:
//
//	"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}
//
// The runner lives with the agent; this file only reads and checks what the settings say.

// HookEvents are the events a hook may be configured for, as Claude Code names them.
var HookEvents = []string{
	"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd",
	"Notification", "PreCompact",
}

// HookMatcher is one entry of an event's list: the tools it applies to and what it runs.
type HookMatcher struct {
	// Matcher is a regular expression over tool names (Claude Code's: Bash, Read, Edit, mcp__s__t…);
	// empty or "*" matches every tool. Events without a tool ignore it.
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is one hook program.
type HookCommand struct {
	// Type is "command", the only kind Warden runs.
	Type    string `json:"type"`
	Command string `json:"command"`
	// Timeout is in seconds; 0 means the default.
	Timeout int `json:"timeout,omitempty"`
}

// Hook is one configured hook program with where it came from.
type Hook struct {
	Event   string
	Matcher string
	Command string
	// TimeoutSec is the configured timeout in seconds, 0 for the default.
	TimeoutSec int
	// File is the settings file that configured it; Project is set for a file of the workspace's.
	File    string
	Project bool
}

// Matches reports whether the hook applies to a subject of the given names (a tool's name as Claude Code
// knows it, and Warden's own; or an event's source, reason or trigger), as Claude Code matches: "" or "*"
// matches everything; a matcher of letters, digits, _ and | names whole names (Bash|Edit matches Bash and
// Edit, not BashOutput); anything else is a regular expression found anywhere in the name (mcp__github__.*,
// ^Notebook).
func (h Hook) Matches(names ...string) bool {
	m := h.Matcher
	if m == "" || m == "*" {
		return true
	}
	if strings.IndexFunc(m, func(r rune) bool { return !isNameRune(r) && r != '|' }) < 0 {
		alts := strings.Split(m, "|")
		for _, n := range names {
			if slices.Contains(alts, n) {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(names, re.MatchString)
}

func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}

// checkHooks reports a hook entry that cannot work, naming where it was written.
func checkHooks(hooks map[string][]HookMatcher, at *positions) error {
	events := make([]string, 0, len(hooks))
	for e := range hooks {
		events = append(events, e)
	}
	slices.Sort(events)
	for _, ev := range events {
		if !slices.Contains(HookEvents, ev) {
			return fmt.Errorf("%s: unknown hook event %q; the events are %s", at.of("hooks", ev), printable.Escape(ev), strings.Join(HookEvents, ", "))
		}
		for i, m := range hooks[ev] {
			where := func(key ...string) string {
				return at.of(append([]string{"hooks", ev, fmt.Sprintf("[%d]", i)}, key...)...)
			}
			if m.Matcher != "" && m.Matcher != "*" {
				if _, err := regexp.Compile(m.Matcher); err != nil {
					return fmt.Errorf("%s: the matcher %q is not a regular expression: %v", where("matcher"), printable.Escape(m.Matcher), err)
				}
			}
			if len(m.Hooks) == 0 {
				return fmt.Errorf("%s: give the programs to run as \"hooks\": [{\"type\": \"command\", \"command\": \"…\"}]", where())
			}
			for j, h := range m.Hooks {
				at := where("hooks", fmt.Sprintf("[%d]", j))
				switch {
				case h.Type != "command":
					return fmt.Errorf("%s: hook type %q is not one Warden runs; use \"command\"", at, printable.Escape(h.Type))
				case strings.TrimSpace(h.Command) == "":
					return fmt.Errorf("%s: a hook needs a \"command\" to run", at)
				case h.Timeout < 0:
					return fmt.Errorf("%s: a hook's \"timeout\" is in seconds and may not be negative", at)
				}
			}
		}
	}
	return nil
}

// addHooks appends one file's hooks, in the order written; each of a project's is an item the person
// approves (its event, matcher and command), and waits until then.
func (c *Config) addHooks(file string, project bool, hooks map[string][]HookMatcher) {
	for _, ev := range HookEvents {
		for _, m := range hooks[ev] {
			for _, h := range m.Hooks {
				hk := Hook{Event: ev, Matcher: m.Matcher, Command: h.Command, TimeoutSec: h.Timeout, File: file, Project: project}
				if project && !c.judge(hookItem(hk, c.relFile(file))) {
					c.UntrustedHooks = append(c.UntrustedHooks, hk)
					continue
				}
				c.Hooks = append(c.Hooks, hk)
			}
		}
	}
}

func cmpMatcher(m string) string {
	if m == "" {
		return "*"
	}
	return printable.Escape(m)
}
