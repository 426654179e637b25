package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

// Restoring the files to a point shows what it will change before anything is written, and asks: first
// for the paths only Warden's calls changed, then, separately, for those changed outside Warden since
// (never overwritten without their own yes). /undo and /rewind both end here. Each question is a confirm;
// then runs after the restore (or when the person declines, with done false): /rewind's rewinding of the
// conversation.

// restoreQuestion asks the first question, or the second at once when only paths changed outside Warden
// would be restored.
func (m *Model) restoreQuestion(u *agent.UndoPlan, then func(m *Model, done bool) tea.Cmd) *confirm {
	if len(u.Plan.Warden()) == 0 {
		return m.outsideQuestion(u, false, then)
	}
	q := m.restoreConfirm(u)
	q.choices = []choice{
		{keys: []key.Binding{m.keys.Yes}, does: "restore " + plural(len(u.Plan.Warden()), "path", "paths"),
			msg: commandResult(func(m *Model) tea.Cmd {
				if len(u.Plan.Outside()) == 0 {
					return m.restoreFiles(q, u, true, false, then)
				}
				// The second question takes the first one's place, armed again: the y just typed must
				// not answer it too.
				next := m.outsideQuestion(u, true, then)
				var wake tea.Cmd
				next.armedAt, wake = armAfterTyping(m.overlayCtx())
				m.replace(q, next)
				return wake
			})},
		{keys: []key.Binding{m.keys.No}, does: "cancel", msg: commandResult(func(m *Model) tea.Cmd {
			return m.restoreFiles(q, u, false, false, then)
		})},
	}
	return q
}

// outsideQuestion asks about the paths changed outside Warden since the point; wanted says the first
// question was answered yes.
func (m *Model) outsideQuestion(u *agent.UndoPlan, wanted bool, then func(m *Model, done bool) tea.Cmd) *confirm {
	q := m.restoreConfirm(u)
	paths := plural(len(u.Plan.Outside()), "path", "paths")
	yes, no := "also restore the "+paths+" changed outside Warden", "leave them"
	if !wanted {
		yes, no = "restore the "+paths+" changed outside Warden", "cancel"
	}
	q.choices = []choice{
		{keys: []key.Binding{m.keys.Yes}, does: yes, msg: commandResult(func(m *Model) tea.Cmd {
			return m.restoreFiles(q, u, wanted, true, then)
		})},
		{keys: []key.Binding{m.keys.No}, does: no, msg: commandResult(func(m *Model) tea.Cmd {
			return m.restoreFiles(q, u, wanted, false, then)
		})},
	}
	return q
}

// restoreConfirm is a restore question without its answers: the plan, section by section.
func (m *Model) restoreConfirm(u *agent.UndoPlan) *confirm {
	workspace := m.opts.Workspace
	return &confirm{title: "Restore files?", body: func(st *styles, width int) string {
		var lines []string
		add := func(s string) { lines = append(lines, strings.Split(wrap(s, width), "\n")...) }
		add("Restore the files of " + workspace + " to " + pointWords(u.Point) + ":")
		lines = append(lines, "")
		section := func(title string, steps []checkpoint.Step, mark func(string) string) {
			if len(steps) == 0 {
				return
			}
			add(st.bold.Render(title))
			for _, s := range steps {
				lines = append(lines, "  "+mark(fit(escapeLine(s.String()), width-2)))
			}
			lines = append(lines, "")
		}
		section("Changed by Warden's calls since:", u.Plan.Warden(), func(s string) string { return s })
		section("Changed outside Warden since (restored only if you say so below):", u.Plan.Outside(), func(s string) string { return st.warn.Render(s) })
		section("Cannot be restored:", u.Plan.Problems(), func(s string) string { return st.dim.Render(s) })
		return strings.Join(lines, "\n")
	}}
}

// restoreFiles closes the question q and restores what was agreed to, in the background, reporting it in
// the transcript: wanted, the paths only Warden's calls changed; outside, those changed outside Warden.
func (m *Model) restoreFiles(q overlay, u *agent.UndoPlan, wanted, outside bool, then func(m *Model, done bool) tea.Cmd) tea.Cmd {
	popCmd := m.pop(q)
	if !wanted && !outside {
		m.conv.add(&item{kind: itemInfo, text: "nothing restored"})
		if then != nil {
			return tea.Batch(popCmd, then(m, false))
		}
		return popCmd
	}
	if !wanted {
		// Only the paths changed outside Warden were wanted.
		u = &agent.UndoPlan{Point: u.Point, Plan: &checkpoint.Plan{Steps: u.Plan.Outside()}}
	}
	a := m.agent
	return tea.Batch(popCmd, m.setFlash("restoring…"), func() tea.Msg {
		r, err := a.Restore(u, outside)
		return commandResult(func(m *Model) tea.Cmd {
			switch {
			case err != nil:
				m.conv.add(&item{kind: itemError, text: "restoring the files failed: " + err.Error()})
			default:
				text := fmt.Sprintf("restored %s to %s; the model is told at its next request",
					plural(len(r.Done), "path", "paths"), pointWords(u.Point))
				if len(r.Skipped) > 0 {
					var left []string
					for _, s := range r.Skipped {
						left = append(left, s.String())
					}
					text += "\nleft as they are: " + strings.Join(left, "; ")
				}
				m.conv.add(&item{kind: itemInfo, text: text})
			}
			if then != nil {
				return then(m, err == nil)
			}
			return nil
		})
	})
}

// pointWords names a point for the transcript: "the start of turn 3", "before bash $ npm test".
func pointWords(p agent.Point) string {
	if p.Kind == agent.PointTurn {
		return fmt.Sprintf("the start of turn %d (“%s”)", p.Turn, fit(flatten(p.Prompt), 50))
	}
	return "just before " + fit(p.Label(), 60)
}

// askRestore opens the restore questions for the plan u, armed after the person's typing.
func (m *Model) askRestore(u *agent.UndoPlan, then func(m *Model, done bool) tea.Cmd) tea.Cmd {
	q := m.restoreQuestion(u, then)
	var wake tea.Cmd
	q.armedAt, wake = armAfterTyping(m.overlayCtx())
	m.push(q)
	return wake
}

// planThen plans a restore in the background and shows it; with nothing to restore it says so and runs
// then as if declined.
func planThen(m *Model, plan func() (*agent.UndoPlan, error), then func(m *Model, done bool) tea.Cmd) tea.Cmd {
	if m.agent == nil {
		return m.setFlash("no session to restore files in")
	}
	return tea.Batch(m.setFlash("looking at what changed…"), func() tea.Msg {
		u, err := plan()
		return commandResult(func(m *Model) tea.Cmd {
			switch {
			case err != nil:
				m.conv.add(&item{kind: itemInfo, text: err.Error()})
			case u.Plan.Empty():
				m.conv.add(&item{kind: itemInfo, text: "the files are already as they were at " + pointWords(u.Point)})
			default:
				return m.askRestore(u, then)
			}
			if then != nil {
				return then(m, err == nil)
			}
			return nil
		})
	})
}
