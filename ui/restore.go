package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

// restoreOverlay shows what restoring the files to a point will change before anything is written, and
// asks: first for the paths only Warden's calls changed, then, separately, for those changed outside
// Warden since (never overwritten without their own yes). /undo and /rewind both end here.
type restoreOverlay struct {
	plan *agent.UndoPlan
	// outsideStage says the first question is answered (wanted: restore Warden's paths) and the
	// second is asked.
	outsideStage, wanted bool
	// then runs after the restore (or when the person declines, with done false): /rewind's rewinding
	// of the conversation.
	then    func(m *Model, done bool) tea.Cmd
	offset  int
	armedAt time.Time
}

func newRestoreOverlay(m *Model, u *agent.UndoPlan, then func(m *Model, done bool) tea.Cmd) *restoreOverlay {
	o := &restoreOverlay{plan: u, then: then}
	if len(u.Plan.Warden()) == 0 {
		o.outsideStage = true
	}
	return o
}

func (o *restoreOverlay) fullScreen() bool { return true }

func (o *restoreOverlay) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch k.String() {
	case "up", "k":
		o.offset = max(o.offset-1, 0)
		return nil
	case "down", "j":
		o.offset++
		return nil
	case "pgup":
		o.offset = max(o.offset-10, 0)
		return nil
	case "pgdown":
		o.offset += 10
		return nil
	}
	// Keys typed just before the question appeared do not answer it.
	if stillTyping(&o.armedAt, m.now()) {
		return wakeIn(typeAheadGuard)
	}
	yes := k.String() == "y"
	no := k.String() == "n" || k.String() == "esc"
	switch {
	case !yes && !no:
		return nil
	case !o.outsideStage:
		o.wanted = yes
		if yes && len(o.plan.Plan.Outside()) > 0 {
			o.outsideStage, o.offset = true, 0
			var wake tea.Cmd
			o.armedAt, wake = armAfterTyping(m)
			return wake
		}
		return o.finish(m, false)
	default:
		return o.finish(m, yes)
	}
}

// finish restores what was agreed to, in the background, and reports it in the transcript.
func (o *restoreOverlay) finish(m *Model, outside bool) tea.Cmd {
	popCmd := m.pop(o)
	if !o.wanted && !outside {
		m.conv.add(&item{kind: itemInfo, text: "nothing restored"})
		if o.then != nil {
			return tea.Batch(popCmd, o.then(m, false))
		}
		return popCmd
	}
	u := o.plan
	if !o.wanted {
		// Only the paths changed outside Warden were wanted.
		u = &agent.UndoPlan{Point: u.Point, Plan: &checkpoint.Plan{Steps: u.Plan.Outside()}}
	}
	a := m.agent
	then := o.then
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

func (o *restoreOverlay) view(m *Model, width, height int) string {
	st := m.st
	u := o.plan
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, width), "\n")...) }
	add("Restore the files of " + m.opts.Workspace + " to " + pointWords(u.Point) + ":")
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
	var hint string
	switch {
	case m.now().Before(o.armedAt):
		hint = "keys paused for a moment, so that typing meant for the input cannot answer…"
	case !o.outsideStage:
		hint = fmt.Sprintf("y restore %s · n cancel", plural(len(u.Plan.Warden()), "path", "paths"))
	default:
		hint = fmt.Sprintf("y also restore the %s changed outside Warden · n leave them", plural(len(u.Plan.Outside()), "path", "paths"))
		if !o.wanted {
			hint = fmt.Sprintf("y restore the %s changed outside Warden · n cancel", plural(len(u.Plan.Outside()), "path", "paths"))
		}
	}
	room := max(height-2, 1)
	if len(lines) > room {
		o.offset = min(o.offset, len(lines)-room)
		lines = lines[o.offset:]
		hint = "↑/↓ scroll · " + hint
	}
	return frame(m, "Restore files?", strings.Join(lines, "\n"), hint, width, height)
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
				o := newRestoreOverlay(m, u, then)
				var wake tea.Cmd
				o.armedAt, wake = armAfterTyping(m)
				m.push(o)
				return wake
			}
			if then != nil {
				return then(m, err == nil)
			}
			return nil
		})
	})
}
