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
		return afterFirstFrame(func(m *Model) tea.Cmd { return m.loadCustomCommands() })
	})
}

// loadCustomCommands reads the command files in the background: the project's first, if the person
// approved them as they are, then the person's.
func (m *Model) loadCustomCommands() tea.Cmd {
	var dirs []commands.Dir
	if m.projectCommandsApproved() {
		dirs = append(dirs, m.opts.ProjectCommandDirs...)
	}
	dirs = append(dirs, m.opts.CommandDirs...)
	if len(dirs) == 0 {
		return nil
	}
	return func() tea.Msg {
		cmds, warnings := commands.Load(m.opts.Opener, dirs)
		return commandResult(func(m *Model) tea.Cmd { return m.addCustomCommands(dirs, cmds, warnings) })
	}
}

// addCustomCommands puts the commands read from files in the menu, each under its source. A warning is
// said once: the folders are read again when the person approves the project's, and what was refused
// then is what was refused before.
func (m *Model) addCustomCommands(dirs []commands.Dir, cmds []commands.Command, warnings []string) tea.Cmd {
	for _, w := range warnings {
		if m.toldCommands[w] {
			continue
		}
		if m.toldCommands == nil {
			m.toldCommands = map[string]bool{}
		}
		m.toldCommands[w] = true
		m.conv.add(&item{kind: itemNotice, text: "custom command: " + w})
	}
	bySource := map[string][]Command{}
	for _, c := range cmds {
		bySource[c.Source] = append(bySource[c.Source], customCommand(c))
	}
	var out []tea.Cmd
	for _, d := range dirs {
		// Every folder's source is set, emptied if it has no commands any more, so that a second reading
		// replaces the first.
		out = append(out, m.addCommands(commandsMsg{Source: d.Source, Commands: bySource[d.Source]}))
		delete(bySource, d.Source)
	}
	return tea.Batch(out...)
}

// customCommand is the slash command of a command file: it sends the file's prompt with the arguments put
// in, and the transcript shows what was typed.
func customCommand(c commands.Command) Command {
	return Command{Name: c.Name, Args: c.ArgumentHint, Desc: c.Description, File: c.Path,
		Run: func(m *Model, args string) tea.Cmd {
			shown := strings.TrimSpace("/" + c.Name + " " + args)
			return m.sendRequest(request{text: c.Expand(args), shown: shown})
		}}
}
