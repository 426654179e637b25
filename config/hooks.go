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

// Matches reports whether the hook applies to a tool of the given name (Claude Code's name).
func (h Hook) Matches(tool string) bool {
	if h.Matcher == "" || h.Matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + h.Matcher + ")$")
	return err == nil && re.MatchString(tool)
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
