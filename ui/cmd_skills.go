package ui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/skills"
)

// Skills in the TUI: /skills lists them with where each comes from, and shows one's instructions; a skill
// the person may run is the command /NAME [ARGS], which sends the skill's instructions, with what was
// typed put in, as the person's request, while the transcript shows the command as typed (as a custom
// command's does). The skills join the menu after the first frame, and again once the person trusts the
// workspace, when the project's join them.

// Skills is what the TUI needs of the session's skills (a *skills.Catalog).
type Skills interface {
	List() []skills.Skill
	// Warnings are those of the catalog's last reading.
	Warnings() []string
	Instructions(s skills.Skill) string
	Request(s skills.Skill, args string) string
}

// skillSource is the menu's source of the skills' commands.
const skillSource = "skill"

func init() {
	registerBuiltin(Command{Name: "skills", Desc: "the skills the model may use, and where each comes from",
		Run: func(m *Model, _ string) tea.Cmd {
			p := newPicker("Skills", "show", []string{"SKILL", "FROM", "USED BY", "DESCRIPTION"}, func(m *Model, r pickRow) tea.Cmd {
				for _, s := range m.opts.Skills.List() {
					if s.Name == r.value {
						m.push(newTextPager(m.overlayCtx(), "skill "+s.Name+" · "+s.Source, skillPage(m.opts.Skills, s), "", ""))
					}
				}
				return nil
			})
			p.setRows(m.skillRows())
			m.push(p)
			return nil
		}})
	registerOnStart(func(m *Model) tea.Cmd {
		return afterFirstFrame(func(m *Model) tea.Cmd { return m.skillCommands() })
	})
}

// skillRows are the skills for /skills.
func (m *Model) skillRows() ([]pickRow, string) {
	var list []skills.Skill
	if m.opts.Skills != nil {
		list = m.opts.Skills.List()
	}
	if len(list) == 0 {
		return nil, "No skills. A skill is a folder with a SKILL.md in ~/.config/warden/skills, ~/.claude/skills, " +
			".warden/skills or .claude/skills (the project's are used once you trust the workspace)."
	}
	rows := make([]pickRow, 0, len(list))
	for _, s := range list {
		by := "model and you"
		switch {
		case !s.ModelInvocable:
			by = "you (/" + s.Name + ")"
		case !s.UserInvocable:
			by = "model"
		}
		rows = append(rows, pickRow{cells: []string{s.Name, s.Source, by, oneLineText(s.Description)}, value: s.Name})
	}
	return rows, ""
}

// skillPage is what /skills shows of one skill: its instructions as the model gets them, and the tools it
// names as allowed, which decide nothing.
func skillPage(c Skills, s skills.Skill) string {
	text := c.Instructions(s)
	if len(s.AllowedTools) > 0 {
		text = "allowed-tools: " + strings.Join(s.AllowedTools, " ") +
			"\n(not acted on: Warden's permission rules decide every call, whatever a skill allows)\n\n" + text
	}
	return text
}

// oneLineText is text on one line.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// skillCommands offers every skill the person may run as /NAME, replacing the skills offered before, and
// tells the catalog's warnings not yet told.
func (m *Model) skillCommands() tea.Cmd {
	if m.opts.Skills == nil {
		return nil
	}
	for _, w := range m.opts.Skills.Warnings() {
		if m.toldCommands[w] || slices.Contains(m.opts.Warnings, w) {
			continue
		}
		if m.toldCommands == nil {
			m.toldCommands = map[string]bool{}
		}
		m.toldCommands[w] = true
		m.conv.add(&item{kind: itemNotice, text: "skill: " + w})
	}
	var cmds []Command
	for _, s := range m.opts.Skills.List() {
		if s.UserInvocable {
			cmds = append(cmds, m.skillCommand(s))
		}
	}
	return m.addCommands(commandsMsg{Source: skillSource, Commands: cmds})
}

// skillCommand is the command that runs skill s.
func (m *Model) skillCommand(s skills.Skill) Command {
	c := m.opts.Skills
	return Command{Name: s.Name, Args: s.ArgumentHint, Desc: oneLineText(s.Description), File: s.Dir,
		Run: func(m *Model, args string) tea.Cmd {
			shown := strings.TrimSpace("/" + s.Name + " " + args)
			return m.sendRequest(request{text: c.Request(s, args), shown: shown})
		}}
}
