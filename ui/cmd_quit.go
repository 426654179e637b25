package ui

import tea "charm.land/bubbletea/v2"

func init() {
	quit := func(m *Model, _ string) tea.Cmd { return tea.Quit }
	registerBuiltin(Command{Name: "exit", Desc: "quit Warden (it stops the background tasks)", Run: quit})
	registerBuiltin(Command{Name: "quit", Desc: "quit Warden (as /exit)", Run: quit})
}
