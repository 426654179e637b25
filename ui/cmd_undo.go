package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

func init() {
	registerBuiltin(Command{Name: "undo", Desc: "put the files back as they were before the last request that changed them",
		Idle: true,
		Run: func(m *Model, _ string) tea.Cmd {
			if m.agent == nil {
				return m.setFlash("no session to undo in")
			}
			a := m.agent
			return planThen(m, func() (*agent.UndoPlan, error) { return a.PlanUndo("") }, nil)
		}})
}
