package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/warden-cli/warden/tools/bash"
)

// A background task never ends unseen: the transcript says how it ended with its last lines, the call
// that started it shows its whole output in the history, and the model is told at its next turn.

// taskEndLines is how many of a finished task's last lines the transcript shows.
const taskEndLines = 4

// taskEndedMsg reports a background task that ended (bash.Tasks.OnEnd).
type taskEndedMsg struct{ bash.TaskEnd }

// taskWatcher is a Tasks that reports the background tasks that end (a *bash.Tasks).
type taskWatcher interface{ OnEnd(func(bash.TaskEnd)) }

// watchTasks has the program hear of every background task that ends.
func (m *Model) watchTasks() {
	if w, ok := m.opts.Tasks.(taskWatcher); ok {
		w.OnEnd(func(e bash.TaskEnd) { m.send.Send(taskEndedMsg{e}) })
	}
}

// taskEnded applies a taskEndedMsg.
func (m *Model) taskEnded(e bash.TaskEnd) tea.Cmd {
	text := fmt.Sprintf("background task %s %s after %s: $ %s", e.ID, e.How, shortDuration(e.Took), flatten(e.Command))
	if tail := strings.TrimSpace(e.Tail(taskEndLines)); tail != "" {
		text += "\n" + tail
	}
	kind := itemInfo
	if e.Signal != "" || (e.ExitCode != nil && *e.ExitCode != 0) {
		kind = itemNotice
	}
	m.conv.add(&item{kind: kind, text: text})
	for _, p := range m.calls {
		if p.result.BackgroundID == e.ID && p.bgEnd == nil {
			end := e
			p.bgEnd = &end
			p.out.version++
			m.conv.version++
		}
	}
	if m.agent != nil {
		m.agent.NoteTaskEnd(e)
	}
	m.refreshPickers()
	return nil
}
