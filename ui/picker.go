package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// picker is a full-screen list to choose one entry from, narrowed as you type: the models of /model, the
// sessions of /resume, the tasks of /tasks, the rules of /permissions. Enter chooses; a picker that can
// remove or stop an entry does it on Delete (or Ctrl+D).
type picker struct {
	title string
	// header names the columns; rows are the entries, cut to the widths of the longest cells.
	header []string
	rows   []pickRow
	filter textinput.Model
	// selected indexes the rows that pass the filter.
	selected int
	// note is shown in place of the rows while there are none (loading, an error, nothing to list);
	// said is the outcome of the last action (a task stopped), shown with the keys.
	note, said string
	// choose is what the picker's opener does on Enter with the selected row; remove, when set, on
	// Delete, and removeVerb names it in the hint ("stop", "remove"). The picker never runs them itself:
	// it returns them to the root as messages (act).
	choose     func(m *Model, r pickRow) tea.Cmd
	remove     func(m *Model, r pickRow) tea.Cmd
	removeVerb string
	chooseVerb string
	// live, when set, lists the rows again; the program calls it when what it lists changes (a task
	// ends), so that an open list never shows a state that is over.
	live func(m *Model) ([]pickRow, string)
}

// pickRow is one entry: its cells, and what choosing it means.
type pickRow struct {
	cells []string
	value string
	// current marks the entry in use (the model, this session); it is shown with a bullet.
	current bool
}

func newPicker(title, chooseVerb string, header []string, choose func(m *Model, r pickRow) tea.Cmd) *picker {
	f := textinput.New()
	f.Prompt = "filter: "
	f.Placeholder = "type to narrow"
	f.SetWidth(60)
	f.Focus()
	return &picker{title: title, header: header, choose: choose, chooseVerb: chooseVerb, filter: f}
}

func (p *picker) fullScreen() bool { return true }

// setRows replaces the entries, keeping the selection on the current one when it is listed.
func (p *picker) setRows(rows []pickRow, note string) {
	p.rows, p.note, p.selected = rows, note, 0
	for i, r := range p.visible() {
		if r.current {
			p.selected = i
			break
		}
	}
}

// refresh lists a live picker's rows again, keeping the selection on the same entry.
func (p *picker) refresh(m *Model) {
	if p.live == nil {
		return
	}
	var was string
	if rows := p.visible(); p.selected < len(rows) {
		was = rows[p.selected].value
	}
	p.rows, p.note = p.live(m)
	p.selected = 0
	for i, r := range p.visible() {
		if r.value == was {
			p.selected = i
			break
		}
	}
}

// refreshPickers lists the rows of every open live picker again.
func (m *Model) refreshPickers() {
	for _, o := range m.overlays {
		if p, ok := o.(*picker); ok {
			p.refresh(m)
		}
	}
}

// visible are the rows whose cells hold every word of the filter.
func (p *picker) visible() []pickRow {
	words := strings.Fields(strings.ToLower(p.filter.Value()))
	if len(words) == 0 {
		return p.rows
	}
	var out []pickRow
	for _, r := range p.rows {
		text := strings.ToLower(strings.Join(r.cells, " ") + " " + r.value)
		ok := true
		for _, w := range words {
			if !strings.Contains(text, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

func (p *picker) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		return nil, cmd
	}
	rows := p.visible()
	keys := c.keys
	switch {
	case key.Matches(k, keys.Interrupt):
		return closeOverlay{p}, nil
	case key.Matches(k, keys.Send):
		if p.selected < len(rows) {
			return p.act(p.choose, rows[p.selected]), nil
		}
		return nil, nil
	case key.Matches(k, keys.PickerRemove) && p.remove != nil:
		if p.selected < len(rows) {
			return p.act(p.remove, rows[p.selected]), nil
		}
		return nil, nil
	case key.Matches(k, keys.MenuUp):
		p.selected = max(p.selected-1, 0)
		return nil, nil
	case key.Matches(k, keys.MenuDown):
		p.selected = min(p.selected+1, max(len(rows)-1, 0))
		return nil, nil
	case key.Matches(k, keys.ScrollUp):
		p.selected = max(p.selected-10, 0)
		return nil, nil
	case key.Matches(k, keys.ScrollDown):
		p.selected = min(p.selected+10, max(len(rows)-1, 0))
		return nil, nil
	}
	var cmd tea.Cmd
	before := p.filter.Value()
	p.filter, cmd = p.filter.Update(msg)
	if p.filter.Value() != before {
		p.selected = 0
	}
	return nil, cmd
}

// act is the message that runs what the picker's opener wants done with row (choose, remove).
func (p *picker) act(do func(m *Model, r pickRow) tea.Cmd, row pickRow) tea.Msg {
	return commandResult(func(m *Model) tea.Cmd { return do(m, row) })
}

func (p *picker) view(c overlayCtx, width, height int) string {
	st, keys := c.st, c.keys
	rows := p.visible()
	widths := make([]int, len(p.header))
	for i, h := range p.header {
		widths[i] = ansi.StringWidth(h)
	}
	for _, r := range p.rows {
		for i, c := range r.cells {
			if i < len(widths) {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			}
		}
	}
	// The last column takes what is left; the others at most a third of the screen each.
	used := 2
	for i := range widths {
		if i < len(widths)-1 {
			widths[i] = min(widths[i], max(width/3, 8))
			used += widths[i] + 2
		}
	}
	if n := len(widths); n > 0 {
		widths[n-1] = max(width-used, 8)
	}
	line := func(mark string, cells []string) string {
		parts := make([]string, len(cells))
		for i, c := range cells {
			w := 8
			if i < len(widths) {
				w = widths[i]
			}
			c = fit(c, w)
			parts[i] = c + strings.Repeat(" ", max(w-ansi.StringWidth(c), 0))
		}
		return mark + strings.Join(parts, "  ")
	}
	out := []string{p.filter.View(), st.bold.Render(line("  ", p.header))}
	room := max(height-2-len(out), 1)
	switch {
	case len(p.rows) == 0:
		out = append(out, st.dim.Render(wrap(p.note, width)))
	case len(rows) == 0:
		out = append(out, st.dim.Render(fmt.Sprintf("Nothing matches %q.", strings.TrimSpace(p.filter.Value()))))
	}
	sel := min(p.selected, len(rows)-1)
	offset := max(sel-room+1, 0)
	for i := offset; i < len(rows) && i < offset+room; i++ {
		mark := "  "
		if rows[i].current {
			mark = "● "
		}
		text := fit(line(mark, rows[i].cells), width)
		if i == sel {
			text = st.selected.Render(text + strings.Repeat(" ", max(width-ansi.StringWidth(text), 0)))
		}
		out = append(out, text)
	}
	title := p.title
	if len(rows) != len(p.rows) {
		title += fmt.Sprintf(" · %d of %d", len(rows), len(p.rows))
	}
	parts := []string{hintKeys(keys.MenuUp, keys.MenuDown) + " select", hintKeys(keys.Send) + " " + p.chooseVerb}
	if p.remove != nil {
		parts = append(parts, hintKeys(keys.PickerRemove)+" "+p.removeVerb)
	}
	parts = append(parts, "type to filter", hintKeys(keys.Interrupt)+" back")
	if p.said != "" {
		parts = append([]string{p.said}, parts...)
	}
	return frame(c, title, strings.Join(out, "\n"), hint(parts...), width, height)
}
