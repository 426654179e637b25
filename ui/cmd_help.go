package ui

import tea "charm.land/bubbletea/v2"

func init() {
	registerBuiltin(Command{Name: "help", Desc: "the keys and commands (as " + hintKeys(defaultKeys.Help) + ")",
		Run: func(m *Model, _ string) tea.Cmd {
			m.push(newHelpOverlay(m))
			return nil
		}})
}
