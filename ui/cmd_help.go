package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

func init() {
	registerBuiltin(Command{Name: "help", Desc: "the keys and commands (as ?)",
		Run: func(m *Model, _ string) tea.Cmd {
			m.push(&helpOverlay{})
			return nil
		}})
}

// commandsHelp is the help screen's list of commands, from the session's command set: the same entries
// the / menu offers.
func (m *Model) commandsHelp(width int) string {
	cmds := m.commands.all()
	nameW := 0
	for _, c := range cmds {
		nameW = max(nameW, len([]rune("/"+c.Name+" "+c.Args)))
	}
	nameW = min(nameW, max(width/2, 16))
	lines := []string{m.st.bold.Render("Commands") + m.st.dim.Render("  (type / for the menu; // sends a message that starts with /)")}
	for _, c := range cmds {
		name := fit("/"+c.Name+" "+c.Args, nameW)
		desc := c.Desc
		if c.Source != "" {
			desc += " (" + c.Source + ")"
		}
		lines = append(lines, fit(m.st.accent.Render(padRight(name, nameW))+" "+desc, width))
	}
	return strings.Join(lines, "\n")
}
