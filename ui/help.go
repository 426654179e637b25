package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// helpOverlay lists every binding of the key map and every slash command, from the same key map and
// command set the program acts on; when they do not fit the screen (60×15 holds about half of them) it
// scrolls.
type helpOverlay struct {
	// commands is the session's command set, read at every frame: a server's prompts may arrive while
	// the help is open.
	commands *commandSet
	offset   int
}

func newHelpOverlay(m *Model) *helpOverlay { return &helpOverlay{commands: m.commands} }

func (h *helpOverlay) fullScreen() bool { return true }

func (h *helpOverlay) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := c.keys
	switch {
	case key.Matches(k, keys.Back, keys.Help):
		return closeOverlay{h}, nil
	case key.Matches(k, keys.Up):
		h.offset = max(h.offset-1, 0)
	case key.Matches(k, keys.Down):
		h.offset++ // view clamps it: how far it can go depends on the screen's size
	case key.Matches(k, keys.PageUp):
		h.offset = max(h.offset-5, 0)
	case key.Matches(k, keys.PageDown):
		h.offset += 5
	case key.Matches(k, keys.Top):
		h.offset = 0
	case key.Matches(k, keys.Bottom):
		h.offset = 1 << 30
	}
	return nil, nil
}

// helpKeyWidth is the widest key the help's key column makes room for.
const helpKeyWidth = 6

func (h *helpOverlay) view(c overlayCtx, width, height int) string {
	st, keys := c.st, c.keys
	// One block per group, laid out in as many columns as fit, so every binding shows from 60×15 up.
	groups := keys.helpGroups()
	blocks := make([]string, len(groups))
	for i, g := range groups {
		// The key column is as wide as its keys, up to helpKeyWidth; a longer key takes a line of its
		// own, its words under it, so that one long key does not make the whole column wide.
		keyW := 0
		for _, b := range g.bindings {
			if w := lipgloss.Width(b.Help().Key); w <= helpKeyWidth {
				keyW = max(keyW, w)
			}
		}
		lines := []string{st.bold.Render(g.title)}
		for _, b := range g.bindings {
			k := b.Help().Key
			if lipgloss.Width(k) > keyW {
				lines = append(lines, st.accent.Render(k))
				k = ""
			}
			lines = append(lines, st.accent.Render(padRight(k, keyW))+" "+b.Help().Desc)
		}
		blocks[i] = strings.Join(lines, "\n")
	}
	var rows []string
	var row []string
	rowW := 0
	for _, b := range blocks {
		w := lipgloss.Width(b) + 3
		if len(row) > 0 && rowW+w > width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(3).Render(b))
		rowW += w
	}
	rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	rows = append(rows, commandsHelp(st, h.commands, width))
	lines := strings.Split(strings.Join(rows, "\n\n"), "\n")
	back := hintKeys(keys.Back) + " back"
	footer := back
	if room := height - 2; len(lines) > room {
		h.offset = min(h.offset, len(lines)-room)
		scroll := hintKeys(keys.Up, keys.Down) + " scroll"
		switch end := h.offset + room; {
		case end < len(lines):
			footer = hint(fmt.Sprintf("%s %s more", hintKeys(keys.Down), plural(len(lines)-end, "line", "lines")), scroll, back)
		default:
			footer = hint(scroll, back)
		}
		lines = lines[h.offset:]
	}
	return frame(c, "Keys and commands", strings.Join(lines, "\n"), footer, width, height)
}

// commandsHelp is the help screen's list of commands, from the session's command set: the same entries
// the / menu offers.
func commandsHelp(st *styles, set *commandSet, width int) string {
	cmds := set.all()
	nameW := 0
	for _, c := range cmds {
		nameW = max(nameW, len([]rune("/"+c.Name+" "+c.Args)))
	}
	nameW = min(nameW, max(width/2, 16))
	lines := []string{st.bold.Render("Commands") + st.dim.Render("  (type / for the menu; // sends a message that starts with /)")}
	for _, c := range cmds {
		name := fit("/"+c.Name+" "+c.Args, nameW)
		desc := c.Desc
		if c.Source != "" {
			desc += " (" + c.Source + ")"
		}
		lines = append(lines, fit(st.accent.Render(padRight(name, nameW))+" "+desc, width))
	}
	return strings.Join(lines, "\n")
}
