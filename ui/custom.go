package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/commands"
)

// Custom commands are prompts kept in Markdown files (package commands). They are read once the program
// starts, off the first frame's path, and join the menu by source.

func init() {
	registerOnStart(func(m *Model) tea.Cmd {
		dirs := m.opts.CommandDirs
		if len(dirs) == 0 {
			return nil
		}
		return afterFirstFrame(func(*Model) tea.Cmd {
			return func() tea.Msg {
				cmds, warnings := commands.Load(dirs)
				return commandResult(func(m *Model) tea.Cmd { return m.addCustomCommands(dirs, cmds, warnings) })
			}
		})
	})
}

// addCustomCommands puts the commands read from files in the menu, each under its source.
func (m *Model) addCustomCommands(dirs []commands.Dir, cmds []commands.Command, warnings []string) tea.Cmd {
	for _, w := range warnings {
		m.conv.add(&item{kind: itemNotice, text: "custom command: " + w})
	}
	bySource := map[string][]Command{}
	for _, c := range cmds {
		bySource[c.Source] = append(bySource[c.Source], customCommand(c))
	}
	var out []tea.Cmd
	for _, d := range dirs {
		if list, ok := bySource[d.Source]; ok {
			out = append(out, m.addCommands(commandsMsg{Source: d.Source, Commands: list}))
			delete(bySource, d.Source)
		}
	}
	return tea.Batch(out...)
}

// customCommand is the slash command of a command file: it sends the file's prompt with the arguments put
// in, and the transcript shows what was typed.
func customCommand(c commands.Command) Command {
	return Command{Name: c.Name, Args: c.ArgumentHint, Desc: c.Description,
		Run: func(m *Model, args string) tea.Cmd {
			shown := strings.TrimSpace("/" + c.Name + " " + args)
			return m.sendRequest(request{text: c.Expand(args), shown: shown})
		}}
}
