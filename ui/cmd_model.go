package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

func init() {
	registerBuiltin(Command{Name: "model", Args: "[NAME]", Idle: true,
		Desc: "switch the model; alone, pick one of the server's models",
		Run: func(m *Model, args string) tea.Cmd {
			if m.agent == nil {
				return m.setFlash("No model server: see the setup screen")
			}
			if args != "" {
				return m.switchModel(args)
			}
			if m.opts.ListModels == nil {
				return m.setFlash("Give the model's name: /model NAME")
			}
			p := newPicker("Models on "+m.opts.BaseURL, "switch", []string{"MODEL"}, func(m *Model, r pickRow) tea.Cmd {
				return tea.Batch(m.pop(m.top()), m.switchModel(r.value))
			})
			p.note = "Asking the server for its models…"
			m.push(p)
			list := m.opts.ListModels
			return func() tea.Msg {
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				defer cancel()
				ids, err := list(ctx)
				return commandResult(func(m *Model) tea.Cmd {
					p.setRows(m.modelRows(ids, err))
					return nil
				})
			}
		}})
}

// modelRows are the models a server lists that can chat, the one in use marked, or why there are none.
func (m *Model) modelRows(ids []string, err error) ([]pickRow, string) {
	if err != nil {
		return nil, fmt.Sprintf("Could not list the server's models: %v. /model NAME switches without the list.", err)
	}
	var rows []pickRow
	for _, id := range agent.ChatModels(ids) {
		rows = append(rows, pickRow{cells: []string{id}, value: id, current: id == m.opts.Model})
	}
	if len(rows) == 0 {
		return nil, "The server lists no model that can chat. /model NAME switches to one it does not list."
	}
	return rows, ""
}

// switchModel makes the next requests use name.
func (m *Model) switchModel(name string) tea.Cmd {
	if name == m.opts.Model {
		return m.setFlash("Already using " + name)
	}
	if err := m.agent.SetModel(name); err != nil {
		return m.setFlash("Cannot switch: " + err.Error())
	}
	m.opts.Model = name
	m.conv.add(&item{kind: itemInfo, text: "model: " + name + " from now on"})
	return nil
}
