package ui

import (
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/hooks"
)

// /hooks lists the session's hooks (package hooks): each with its event, matcher, command, the settings
// file it comes from and what it has done this session; a project's that wait for trust are listed
// last, as waiting.

// HookList is what /hooks needs of the session's hooks (a *hooks.Runner).
type HookList interface {
	List() []hooks.Entry
}

func init() {
	registerBuiltin(Command{Name: "hooks", Desc: "the hooks that run at the session's events, where each comes from, what it did",
		Run: func(m *Model, _ string) tea.Cmd {
			if m.opts.Hooks == nil {
				return m.setFlash("No hooks are configured (\"hooks\" in the settings, or Claude Code's; see the README)")
			}
			p := newPicker("Hooks", "close", []string{"EVENT", "MATCHER", "COMMAND", "FROM", "STATE"},
				func(m *Model, r pickRow) tea.Cmd { return m.pop(m.top()) })
			p.setRows(hookRows(m.opts.Hooks, m.opts.Workspace))
			m.push(p)
			return nil
		}})
}

// hookRows are the configured hooks; what a repository wrote is shown escaped, on one line.
func hookRows(l HookList, workspace string) ([]pickRow, string) {
	var rows []pickRow
	for _, e := range l.List() {
		matcher := e.Matcher
		if matcher == "" {
			matcher = "*"
		}
		state := e.State()
		if e.Output != "" {
			state += " · " + e.Output
		}
		// A project's file by its place in the workspace, the person's as short as the home makes it.
		from := shortPath(e.File)
		if rel, err := filepath.Rel(workspace, e.File); err == nil && workspace != "" && !strings.HasPrefix(rel, "..") {
			from = rel
		}
		rows = append(rows, pickRow{cells: []string{e.Event, escapeLine(matcher), escapeLine(e.Command), escapeLine(from), escapeLine(state)},
			value: e.Event + " " + e.Matcher + " " + e.Command + " " + e.File})
	}
	if len(rows) == 0 {
		return nil, "No hooks are configured."
	}
	return rows, ""
}
