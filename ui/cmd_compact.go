package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

func init() {
	registerBuiltin(Command{Name: "compact", Args: "[focus]", Idle: true,
		Desc: "summarise the conversation to free context; focus says what to keep",
		Run: func(m *Model, focus string) tea.Cmd {
			if m.agent == nil {
				return m.setFlash("No model server: see the setup screen")
			}
			text := "compacting the conversation"
			if focus != "" {
				text += ", keeping above all: " + focus
			}
			m.conv.add(&item{kind: itemInfo, text: text + "…"})
			a, send := m.agent, m.send
			return m.startWork(func(ctx context.Context) {
				if _, err := a.Compact(ctx, focus); err != nil && ctx.Err() == nil {
					send.Send(commandResult(func(m *Model) tea.Cmd {
						m.conv.add(&item{kind: itemError, text: "could not compact: " + err.Error()})
						return nil
					}))
				}
			})
		}})
}
