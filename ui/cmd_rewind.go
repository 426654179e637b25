package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

// /rewind goes back to a point of the session, a request or a call within one: the files, the
// conversation, or both. The picker lists the points newest first, each call with what it changed.

func init() {
	registerBuiltin(Command{Name: "rewind", Desc: "go back to an earlier request or call: files, conversation or both",
		Idle: true,
		Run: func(m *Model, _ string) tea.Cmd {
			if m.agent == nil {
				return m.setFlash("no session to rewind")
			}
			a := m.agent
			return func() tea.Msg {
				points, err := a.Points()
				return commandResult(func(m *Model) tea.Cmd {
					if err != nil {
						m.conv.add(&item{kind: itemError, text: "rewind: " + err.Error()})
						return nil
					}
					m.push(newRewindPicker(m, points))
					return nil
				})
			}
		}})
}

func newRewindPicker(m *Model, points []agent.Point) *picker {
	p := newPicker("Rewind to", "choose what goes back", []string{"TIME", "POINT", "CHANGED THERE"}, func(m *Model, r pickRow) tea.Cmd {
		i, err := strconv.Atoi(r.value)
		if err != nil || i < 0 || i >= len(points) {
			return nil
		}
		c := &rewindChoice{point: points[i], picker: m.top()}
		var wake tea.Cmd
		c.armedAt, wake = armAfterTyping(m)
		m.push(c)
		return wake
	})
	var rows []pickRow
	for i := len(points) - 1; i >= 0; i-- {
		pt := points[i]
		label := strings.Repeat("  ", pt.Depth+1) + "└ " + escapeLine(pt.Label())
		changed := ""
		if pt.Kind == agent.PointTurn {
			label = cleanLine(fmt.Sprintf("turn %d · “%s”", pt.Turn, flatten(pt.Prompt)))
		} else if s := checkpoint.Summary(pt.Changes); s != "" {
			changed = s
		}
		rows = append(rows, pickRow{cells: []string{pt.Time.Local().Format("15:04:05"), label, changed}, value: strconv.Itoa(i)})
	}
	p.setRows(rows, "Nothing to rewind to yet: no request was sent in this session.")
	return p
}

// rewindChoice asks what goes back to the point: the files, the conversation, or both.
type rewindChoice struct {
	point agent.Point
	// picker is the list it was chosen from, closed with it.
	picker  overlay
	armedAt time.Time
}

func (c *rewindChoice) fullScreen() bool { return true }

func (c *rewindChoice) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if stillTyping(&c.armedAt, m.now()) {
		return wakeIn(typeAheadGuard)
	}
	pt := c.point
	a := m.agent
	files := func(then func(m *Model, done bool) tea.Cmd) tea.Cmd {
		return planThen(m, func() (*agent.UndoPlan, error) { return a.PlanRestore(pt) }, then)
	}
	conversation := func(m *Model, done bool) tea.Cmd {
		if !done {
			return nil
		}
		return rewindConversation(m, pt)
	}
	switch k.String() {
	case "b":
		return tea.Batch(m.pop(c.picker), files(conversation))
	case "f":
		return tea.Batch(m.pop(c.picker), files(nil))
	case "c":
		return tea.Batch(m.pop(c.picker), rewindConversation(m, pt))
	case "esc", "n", "q":
		return m.pop(c)
	}
	return nil
}

func (c *rewindChoice) view(m *Model, width, height int) string {
	st := m.st
	pt := c.point
	var b strings.Builder
	b.WriteString(wrap("Go back to "+pointWords(pt)+".", width) + "\n\n")
	if pt.Kind == agent.PointCall && len(pt.Changes) > 0 {
		b.WriteString(wrap(st.dim.Render("That call "+checkpoint.Summary(pt.Changes)+"."), width) + "\n\n")
	}
	b.WriteString(st.accent.Render("b") + "  both: the files and the conversation\n")
	b.WriteString(st.accent.Render("f") + "  the files only (what will change is shown first)\n")
	b.WriteString(st.accent.Render("c") + "  the conversation only: the model forgets what came after; the transcript keeps it\n")
	hint := "b both · f files · c conversation · esc back"
	if m.now().Before(c.armedAt) {
		hint = "keys paused for a moment, so that typing meant for the input cannot answer…"
	}
	return frame(m, "Rewind", b.String(), hint, width, height)
}

// rewindConversation cuts the conversation back to the point; a request's prompt comes back to the
// input, to edit and send again.
func rewindConversation(m *Model, pt agent.Point) tea.Cmd {
	if err := m.agent.RewindConversation(pt); err != nil {
		m.conv.add(&item{kind: itemError, text: "rewinding the conversation failed: " + err.Error()})
		return nil
	}
	m.conv.add(&item{kind: itemInfo, text: "⟲ conversation rewound to " + pointWords(pt) + ": the model no longer sees what came after it (the session file keeps it)"})
	if pt.Kind == agent.PointTurn {
		m.input.SetValue(pt.Prompt)
	}
	return nil
}
