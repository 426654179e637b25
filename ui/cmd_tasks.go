package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/warden-cli/warden/tools/bash"
)

// taskManager is a Tasks that lists, shows and stops background tasks (a *bash.Tasks).
type taskManager interface {
	List() []bash.TaskInfo
	Output(id string) (text, path string, err error)
	Kill(id string) error
}

func init() {
	registerBuiltin(Command{Name: "tasks", Desc: "background tasks: state and output; stop one",
		Run: func(m *Model, _ string) tea.Cmd {
			tm, ok := m.opts.Tasks.(taskManager)
			if !ok {
				return m.setFlash("This build keeps no background tasks")
			}
			p := newPicker("Background tasks", "show output", []string{"TASK", "STATE", "COMMAND"}, func(m *Model, r pickRow) tea.Cmd {
				text, path, err := tm.Output(r.value)
				if err != nil {
					return m.setFlash(err.Error())
				}
				note := ""
				if path != "" {
					note = "full output: " + path
				}
				m.push(newTextPager(m.overlayCtx(), "task "+r.value+" · "+r.cells[2]+" · "+r.cells[1], strings.TrimRight(text, "\n"), note, path))
				return nil
			})
			p.remove, p.removeVerb = func(m *Model, r pickRow) tea.Cmd {
				id := r.value
				return func() tea.Msg {
					err := tm.Kill(id)
					return commandResult(func(m *Model) tea.Cmd {
						p.refresh(m)
						p.said = "Stopped task " + id
						if err != nil {
							p.said = err.Error()
						}
						return nil
					})
				}
			}, "stop"
			p.live = func(m *Model) ([]pickRow, string) { return m.taskRows(tm) }
			p.setRows(m.taskRows(tm))
			m.push(p)
			return nil
		}})
}

// taskRows are the background tasks, newest first.
func (m *Model) taskRows(tm taskManager) ([]pickRow, string) {
	list := tm.List()
	var rows []pickRow
	for i := len(list) - 1; i >= 0; i-- {
		t := list[i]
		// The time it started, not how long it has run: the list is drawn again when a task ends, not
		// as the clock goes.
		state := "running since " + t.Started.Format("15:04:05")
		switch {
		case t.Running:
		case t.ExitCode != nil:
			state = fmt.Sprintf("exit %d", *t.ExitCode)
		case t.Signal != "":
			state = t.Signal
		default:
			state = "ended"
		}
		rows = append(rows, pickRow{cells: []string{t.ID, state, flatten(t.Command)}, value: t.ID})
	}
	if len(rows) == 0 {
		return nil, "No background task was started in this session. The model starts them with run_in_background; " + hintKeys(m.keys.Background) + " sends a running command there."
	}
	return rows, ""
}
