package ui

import tea "charm.land/bubbletea/v2"

func init() {
	clear := func(m *Model, _ string) tea.Cmd { return m.openSession("") }
	registerBuiltin(Command{Name: "clear", Idle: true, Run: clear,
		Desc: "start a new conversation (this one stays for /resume)"})
	registerBuiltin(Command{Name: "new", Idle: true, Run: clear,
		Desc: "start a new session (as /clear)"})
}
