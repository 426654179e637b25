package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// menuMaxRows is how many entries the completion menu shows at once on a screen with room for them; a
// short screen shows fewer, down to menuMinRows.
const (
	menuMaxRows = 8
	menuMinRows = 3
)

// menu is the completion list under the prompt: the commands while the first word of a prompt starting
// with a slash is typed, and the workspace's files while an @mention is. It is worked out again from
// the prompt after every change to it (refreshMenu), so it never disagrees with what is typed; the only
// state of its own is the selection and the prompt Esc closed it for.
type menu struct {
	kind  menuKind
	items []menuItem
	// selected is the highlighted entry, offset the first one shown.
	selected, offset int
	// typed is the text being completed, after its / or @; note is a line shown instead of entries (no
	// match, the file index still being built).
	typed, note string
	// dismissed is the prompt Esc closed the menu on: it stays closed until the prompt changes.
	dismissed string
	// rows is how many entries show at once, set from the screen's height.
	rows int
	// mentionAt is where the @ of the mention being completed is on its line (in runes).
	mentionAt int
}

type menuKind int

const (
	menuNone menuKind = iota
	menuCommands
	menuFiles
)

// menuItem is one entry: what completing it puts in the prompt, and what the menu shows.
type menuItem struct {
	value string
	// label is the entry's first column, args its argument hint, desc its line of description and source
	// where it comes from.
	label, args, desc, source string
	// cmd is the command of a command entry.
	cmd *Command
}

func (mn *menu) open() bool { return mn.kind != menuNone }

// move changes the selection by d, wrapping at the ends.
func (mn *menu) move(d int) {
	n := len(mn.items)
	if n == 0 {
		return
	}
	mn.selected = ((mn.selected+d)%n + n) % n
	if mn.selected < mn.offset {
		mn.offset = mn.selected
	}
	if mn.selected >= mn.offset+mn.rows {
		mn.offset = mn.selected - mn.rows + 1
	}
}

func (mn *menu) current() (menuItem, bool) {
	if mn.selected < 0 || mn.selected >= len(mn.items) {
		return menuItem{}, false
	}
	return mn.items[mn.selected], true
}

// refreshMenu works the menu out from the prompt as it now is.
func (m *Model) refreshMenu() {
	mn := &m.menu
	value := m.input.Value()
	if mn.dismissed != "" && value != mn.dismissed {
		mn.dismissed = ""
	}
	prev := mn.kind
	prevTyped := mn.typed
	mn.rows = min(max(m.height/3, menuMinRows), menuMaxRows)
	mn.kind, mn.note = menuNone, ""
	switch {
	case len(m.overlays) > 0 || mn.dismissed != "":
	case m.commandWord(value):
		mn.kind, mn.typed = menuCommands, value[1:]
		mn.items = mn.items[:0]
		for _, c := range m.commands.match(mn.typed) {
			mn.items = append(mn.items, menuItem{value: "/" + c.Name, label: "/" + c.Name, args: c.Args,
				desc: c.Desc, source: c.Source, cmd: &c})
		}
		if len(mn.items) == 0 {
			mn.note = "no command matches /" + mn.typed + " · " + hintKeys(m.keys.Interrupt) + " closes"
		}
	default:
		m.refreshFileMenu()
	}
	if mn.kind != prev || mn.typed != prevTyped {
		mn.selected, mn.offset = 0, 0
	}
	mn.selected = min(mn.selected, max(len(mn.items)-1, 0))
	mn.offset = min(max(mn.offset, mn.selected-mn.rows+1), mn.selected)
}

// commandWord reports a prompt that is the start of a command: a slash and a name being typed, with
// nothing after it yet ("//" starts a literal slash instead).
func (m *Model) commandWord(value string) bool {
	if !strings.HasPrefix(value, "/") || strings.HasPrefix(value, "//") {
		return false
	}
	return !strings.ContainsAny(value, " \t\n") && !strings.Contains(value[1:], "/")
}

// menuKey handles a key while the menu is open; it reports false for keys the menu leaves to the prompt.
func (m *Model) menuKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	mn := &m.menu
	k := m.keys
	switch {
	case key.Matches(msg, k.MenuUp):
		mn.move(-1)
	case key.Matches(msg, k.MenuDown):
		mn.move(1)
	case key.Matches(msg, k.Complete):
		it, ok := mn.current()
		if !ok {
			return nil, true
		}
		m.complete(it)
	case key.Matches(msg, k.Send):
		it, ok := mn.current()
		if !ok {
			return nil, false
		}
		if mn.kind == menuFiles {
			if it.value == mn.typed {
				return nil, false // nothing left to complete: Enter sends
			}
			// Enter takes the file, as Tab does; the prompt goes with the next Enter.
			m.complete(it)
			return nil, true
		}
		m.complete(it)
		if c := it.cmd; c != nil && c.Args != "" && !strings.HasPrefix(c.Args, "[") {
			// Its arguments are not optional: Enter completes the name and waits for them.
			return nil, true
		}
		return m.submit(), true
	case key.Matches(msg, k.Interrupt) && m.run == nil:
		mn.dismissed = m.input.Value()
		m.refreshMenu()
	default:
		return nil, false
	}
	return nil, true
}

// complete puts the entry into the prompt in place of what was typed.
func (m *Model) complete(it menuItem) {
	switch m.menu.kind {
	case menuCommands:
		v := it.value
		if it.cmd != nil && it.cmd.Args != "" {
			v += " "
		}
		m.input.SetValue(v)
	case menuFiles:
		m.replaceMention(it.value)
	}
	m.inputGen++
	m.layout()
	m.refreshMenu()
}

// menuView is the menu's lines under the prompt; nil when it is closed.
func (m *Model) menuView(width int) []string {
	mn := &m.menu
	if !mn.open() {
		return nil
	}
	st := m.st
	if mn.note != "" && len(mn.items) == 0 {
		return []string{st.dim.Render(fit("  "+mn.note, width))}
	}
	end := min(mn.offset+mn.rows, len(mn.items))
	// The names column is as wide as the names on screen: a long MCP prompt further down must not cut
	// the descriptions of every entry shown above it.
	labelW := 0
	for _, it := range mn.items[mn.offset:end] {
		labelW = max(labelW, ansi.StringWidth(it.label+" "+it.args))
	}
	labelW = min(labelW, max(width/2, 12))
	if mn.kind == menuFiles {
		labelW = max(width-14, 12)
	}
	var lines []string
	for i := mn.offset; i < end; i++ {
		it := mn.items[i]
		left := it.label
		if it.args != "" {
			left += " " + st.dim.Render(it.args)
		}
		left = fit(left, labelW)
		left += strings.Repeat(" ", max(labelW-ansi.StringWidth(left), 0))
		desc := it.desc
		if it.source != "" {
			desc += " (" + it.source + ")"
		}
		row := "  " + left + "  " + st.dim.Render(desc)
		row = fit(row, width)
		if i == mn.selected {
			row = st.selected.Render(padRight(ansi.Strip(row), width))
		}
		lines = append(lines, row)
	}
	k := m.keys
	choose := hintKeys(k.MenuUp) + hintKeys(k.MenuDown) + " choose" // "↑↓": the menu's hint is short
	footer := hint(choose, hintKeys(k.Complete)+" complete", hintKeys(k.Send)+" run", hintKeys(k.Interrupt)+" close")
	if mn.kind == menuFiles {
		footer = hint(choose, hintKeys(k.Complete)+" or "+hintKeys(k.Send)+" take", hintKeys(k.Interrupt)+" close")
	}
	if n := len(mn.items); n > mn.rows {
		footer = plural(n, "match", "matches") + " · " + footer
	}
	if mn.note != "" {
		footer = mn.note + " · " + footer
	}
	lines = append(lines, st.keyHint.Render(fit("  "+footer, width)))
	return lines
}
