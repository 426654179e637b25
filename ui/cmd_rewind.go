package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
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
		q := m.rewindQuestion(points[i], m.top())
		var wake tea.Cmd
		q.armedAt, wake = armAfterTyping(m.overlayCtx())
		m.push(q)
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

// rewindQuestion asks what goes back to the point: the files, the conversation, or both. picker is the
// list the point was chosen from, closed with the question once it is answered; backing out returns to it.
func (m *Model) rewindQuestion(pt agent.Point, picker overlay) *confirm {
	keys := m.keys
	q := &confirm{title: "Rewind"}
	q.body = func(st *styles, width int) string {
		var b strings.Builder
		b.WriteString(wrap("Go back to "+pointWords(pt)+".", width) + "\n\n")
		if pt.Kind == agent.PointCall && len(pt.Changes) > 0 {
			b.WriteString(wrap(st.dim.Render("That call "+checkpoint.Summary(pt.Changes)+"."), width) + "\n\n")
		}
		b.WriteString(st.accent.Render(hintKey(keys.RewindBoth)) + "  both: the files and the conversation\n")
		b.WriteString(st.accent.Render(hintKey(keys.RewindFiles)) + "  the files only (what will change is shown first)\n")
		b.WriteString(st.accent.Render(hintKey(keys.RewindConversation)) + "  the conversation only: the model forgets what came after; the transcript keeps it\n")
		return b.String()
	}
	files := func(m *Model, then func(m *Model, done bool) tea.Cmd) tea.Cmd {
		a := m.agent
		return planThen(m, func() (*agent.UndoPlan, error) { return a.PlanRestore(pt) }, then)
	}
	conversation := func(m *Model, done bool) tea.Cmd {
		if !done {
			return nil
		}
		return rewindConversation(m, pt)
	}
	q.choices = []choice{
		{keys: []key.Binding{keys.RewindBoth}, does: "both", msg: commandResult(func(m *Model) tea.Cmd {
			return tea.Batch(m.pop(picker), files(m, conversation))
		})},
		{keys: []key.Binding{keys.RewindFiles}, does: "files", msg: commandResult(func(m *Model) tea.Cmd {
			return tea.Batch(m.pop(picker), files(m, nil))
		})},
		{keys: []key.Binding{keys.RewindConversation}, does: "conversation", msg: commandResult(func(m *Model) tea.Cmd {
			return tea.Batch(m.pop(picker), rewindConversation(m, pt))
		})},
		{keys: []key.Binding{keys.No, keys.Back}, does: "back", msg: closeOverlay{q}},
	}
	return q
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
