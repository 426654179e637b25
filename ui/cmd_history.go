package ui

import tea "charm.land/bubbletea/v2"

func init() {
	registerBuiltin(Command{Name: "history", Desc: "every tool call of the session, with its full output (" + hintKeys(defaultKeys.History) + ")",
		Run: func(m *Model, _ string) tea.Cmd {
			m.push(newHistoryOverlay(m))
			return nil
		}})
}
