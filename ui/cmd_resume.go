package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

func init() {
	registerBuiltin(Command{Name: "resume", Args: "[ID]", Idle: true,
		Desc: "go back to a saved session; alone, pick one",
		Run: func(m *Model, args string) tea.Cmd {
			if args != "" {
				return m.openSession(args)
			}
			return m.pickSession()
		}})
}

// pickSession opens the picker of this directory's saved sessions, newest first: the first prompt, how
// long ago, how many turns. Sessions in which nothing was ever answered are left out.
func (m *Model) pickSession() tea.Cmd {
	if m.opts.Sessions == nil || m.opts.OpenSession == nil {
		return m.setFlash("This build cannot switch sessions")
	}
	p := newPicker("Resume a session", "resume", []string{"WHEN", "TURNS", "FIRST PROMPT"}, func(m *Model, r pickRow) tea.Cmd {
		if r.value == m.opts.SessionID {
			return tea.Batch(m.pop(m.top()), m.setFlash("That is this session"))
		}
		// The session first: a first prompt waiting for the picker to close goes to the session chosen.
		open := m.openSession(r.value)
		return tea.Batch(open, m.pop(m.top()))
	})
	list, err := m.opts.Sessions()
	p.setRows(m.sessionRows(list, err))
	m.push(p)
	return nil
}

func (m *Model) sessionRows(list []agent.SessionInfo, err error) ([]pickRow, string) {
	if err != nil {
		return nil, "Could not list the sessions: " + err.Error()
	}
	now := m.now()
	var rows []pickRow
	for _, s := range list {
		if !s.Answered {
			continue
		}
		prompt := s.Prompt
		if prompt == "" {
			prompt = "(no prompt yet)"
		}
		rows = append(rows, pickRow{cells: []string{ago(now.Sub(s.Updated)), fmt.Sprint(s.Turns), prompt},
			value: s.ID, current: s.ID == m.opts.SessionID})
	}
	if len(rows) == 0 {
		return nil, "No saved session in this directory yet."
	}
	return rows, ""
}

// ago says how long ago something was, in the largest unit that fits.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour", "hours") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day", "days") + " ago"
}
