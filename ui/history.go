package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/tools"
)

// maxPagerBytes bounds what the pager loads of a long output: its head and, mostly, its tail (where errors
// are), so that paging through a command that printed hundreds of megabytes stays light.
const maxPagerBytes = 4 << 20

// historyOverlay is the table of every tool call of the session (Ctrl+T), built from the same panels as
// the transcript. A sub-agent's calls are listed under the task call that started it, indented.
type historyOverlay struct {
	// calls lists every call of the session in tree order (Model.allCalls), as it is at each frame.
	calls     func() []*panel
	selected  int
	filter    textinput.Model
	filtering bool
}

func newHistoryOverlay(m *Model) *historyOverlay {
	f := textinput.New()
	f.Prompt = "/"
	f.Placeholder = "filter by tool, command, decision or exit"
	return &historyOverlay{calls: m.allCalls, filter: f, selected: len(m.allCalls()) - 1}
}

// showChanges asks the root to page through what call p changed, each file with its diff (the agent
// computes them).
type showChanges struct{ p *panel }

// allCalls is every call in tree order: each main-agent call followed by its sub-agent's calls.
func (m *Model) allCalls() []*panel {
	out := make([]*panel, 0, len(m.calls))
	for _, p := range m.panels {
		out = append(out, p)
		out = p.descendants(out)
	}
	return out
}

func (h *historyOverlay) fullScreen() bool { return true }

func (h *historyOverlay) rows() []*panel {
	all := h.calls()
	q := strings.ToLower(strings.TrimSpace(h.filter.Value()))
	if q == "" {
		return all
	}
	var out []*panel
	for _, p := range all {
		if strings.Contains(strings.ToLower(strings.Join(historyCells(p), " ")+" "+p.agent), q) {
			out = append(out, p)
		}
	}
	return out
}

// historyCells are a call's columns: time, tool, command or path, decision and who, exit, duration.
func historyCells(p *panel) []string {
	decision := "pending"
	switch {
	case p.decision != "":
		decision = string(p.decision) + " · " + p.by
	case p.state == stateAsking:
		decision = "asking"
	case p.state == stateInterrupted:
		decision = "interrupted"
	case !p.active():
		// The agent refused it before asking anyone: a tool that does not exist, arguments that are not JSON.
		decision = "not run"
	}
	dur := "-"
	if !p.active() && p.duration > 0 {
		dur = shortDuration(p.duration)
	}
	tool := p.tool
	if p.depth > 0 {
		tool = strings.Repeat("  ", p.depth-1) + "└ " + tool
	}
	return []string{p.started.Format("15:04:05"), tool, historyTarget(p), decision, p.exitText(), dur}
}

// historyTarget is what the call worked on, beside its tool's name: an MCP call's arguments without its
// server and tool, which the name says already.
func historyTarget(p *panel) string {
	target := p.target()
	if t := p.access.MCP; t != nil {
		target = strings.TrimPrefix(target, t.Server+" · "+t.Tool+" ")
	}
	return target
}

// toolWidth is the history's tool column: wide enough for the longest name shown (an MCP tool's
// mcp__SERVER__TOOL is what its rules are written with), but never so wide that the command column gets
// less than a quarter of the screen.
func toolWidth(rows []*panel, width, others int) int {
	w := 14
	for _, p := range rows {
		w = max(w, ansi.StringWidth(historyCells(p)[1]))
	}
	return max(min(w, width-others-width/4), 14)
}

func (h *historyOverlay) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	keys := c.keys
	if h.filtering {
		if ok {
			switch {
			case key.Matches(k, keys.Confirm):
				h.filtering = false
				h.filter.Blur()
				return nil, nil
			case key.Matches(k, keys.Cancel):
				h.filtering = false
				h.filter.Blur()
				h.filter.SetValue("")
				return nil, nil
			}
		}
		var cmd tea.Cmd
		h.filter, cmd = h.filter.Update(msg)
		h.selected = len(h.rows()) - 1
		return nil, cmd
	}
	if !ok {
		return nil, nil
	}
	rows := h.rows()
	switch {
	case key.Matches(k, keys.Back):
		return closeOverlay{h}, nil
	case key.Matches(k, keys.Filter):
		h.filtering = true
		return nil, h.filter.Focus()
	case key.Matches(k, keys.Up):
		h.selected = max(h.selected-1, 0)
	case key.Matches(k, keys.Down):
		h.selected = min(h.selected+1, len(rows)-1)
	case key.Matches(k, keys.PageUp):
		h.selected = max(h.selected-10, 0)
	case key.Matches(k, keys.PageDown):
		h.selected = min(h.selected+10, len(rows)-1)
	case key.Matches(k, keys.Open):
		h.selected = min(max(h.selected, 0), len(rows)-1)
		if h.selected >= 0 && h.selected < len(rows) {
			return openOverlay{newPager(c, rows[h.selected])}, nil
		}
	case key.Matches(k, keys.Diff):
		if h.selected >= 0 && h.selected < len(rows) && len(rows[h.selected].changes) > 0 {
			return showChanges{rows[h.selected]}, nil
		}
	}
	return nil, nil
}

func (h *historyOverlay) view(c overlayCtx, width, height int) string {
	st, keys := c.st, c.keys
	all := h.calls()
	rows := h.rows()
	headers := []string{"TIME", "TOOL", "COMMAND / PATH", "DECISION", "EXIT", "TOOK"}
	widths := []int{8, 14, 0, 16, 7, 7}
	withChanges := anyChanges(all)
	if withChanges {
		headers, widths = append(headers, "CHANGES"), append(widths, 15)
	}
	// On a narrow screen the time, the duration and then the changes give way (the pager and d show
	// them), before anything that says what ran and how it was decided is cut: the tool's whole name
	// counts for more than when the call ran.
	shown := []int{}
	for i := range headers {
		shown = append(shown, i)
	}
	longest := toolWidth(rows, 1<<20, 0)
	total := func() int {
		n := len(shown) - 1 + 10 // separators, and the least the command column gets
		for _, i := range shown {
			n += widths[i]
		}
		return n - widths[1] + longest
	}
	for _, drop := range []int{0, 5, 6} {
		if total() <= width {
			break
		}
		shown = slices.DeleteFunc(shown, func(i int) bool { return i == drop })
	}
	fixed := len(shown) - 1
	for _, i := range shown {
		fixed += widths[i]
	}
	widths[1] = toolWidth(rows, width, fixed-widths[1])
	fixed += widths[1] - 14
	widths[2] = max(width-fixed, 10)
	line := func(cells []string) string {
		parts := make([]string, 0, len(shown))
		for _, i := range shown {
			c := cells[i]
			if i == 1 {
				parts = append(parts, padRight(fitMiddle(c, widths[i]), widths[i]))
				continue
			}
			parts = append(parts, padRight(fit(c, widths[i]), widths[i]))
		}
		return strings.Join(parts, " ")
	}
	var out []string
	if h.filtering || h.filter.Value() != "" {
		out = append(out, h.filter.View())
	}
	out = append(out, st.bold.Render(line(headers)))
	room := max(height-2-len(out), 1)
	selected := min(max(h.selected, 0), len(rows)-1)
	offset := max(selected-room+1, 0)
	switch {
	case len(rows) == 0 && len(all) > 0:
		out = append(out, st.dim.Render(fmt.Sprintf("No call matches %q.", strings.TrimSpace(h.filter.Value()))))
	case len(rows) == 0:
		out = append(out, st.dim.Render("No tool calls yet."))
	}
	for i := offset; i < len(rows) && i < offset+room; i++ {
		cells := historyCells(rows[i])
		if withChanges {
			cells = append(cells, changesCell(rows[i]))
		}
		text := line(cells)
		if i == selected {
			text = st.selected.Render(text)
		} else if rows[i].state == stateDenied || (rows[i].result.ExitCode != nil && *rows[i].result.ExitCode != 0) {
			text = st.fail.UnsetBold().Render(text)
		}
		out = append(out, text)
	}
	title := fmt.Sprintf("Tool history · %s", plural(len(all), "call", "calls"))
	if len(rows) != len(all) {
		title += fmt.Sprintf(" · %d shown", len(rows))
	}
	parts := []string{hintKeys(keys.Up, keys.Down) + " select", hintKeys(keys.Open) + " full output"}
	if selected >= 0 && selected < len(rows) && len(rows[selected].changes) > 0 {
		parts = append(parts, hintKeys(keys.Diff)+" diff")
	}
	parts = append(parts, hintKeys(keys.Filter)+" filter", hintKeys(keys.Back)+" back")
	return frame(c, title, strings.Join(out, "\n"), hint(parts...), width, height)
}

// pagerMaxRows is how many screen rows one line of output may take in the pager: a line longer than that
// (a minified file, a megabyte of JSON on one line) shows its start and a row saying how much is left out.
const pagerMaxRows = 400

// pager shows one call's full output. Long lines wrap, so that nothing is cut silently at the right
// edge; the rows are rebuilt when the width changes.
type pager struct {
	title string
	vp    viewport.Model
	note  string
	// path is the file holding the whole output, "" when the UI kept all of it.
	path  string
	lines []string
	width int
	// copyKey names the key that copies the output whole, for the note on a line too long to show.
	copyKey string
}

func newPager(c overlayCtx, p *panel) *pager {
	text, note := fullOutput(p)
	title := fmt.Sprintf("%s · %s · %s", p.tool, fit(historyTarget(p), 60), p.outcome())
	path := p.result.OutputPath
	if p.bgEnd != nil {
		path = p.bgEnd.OutputPath
	}
	return newTextPager(c, title, text, note, path)
}

// newTextPager pages through text; path, when set, is the file holding all of it.
func newTextPager(c overlayCtx, title, text, note, path string) *pager {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = cleanLine(l)
	}
	return newLinesPager(c, title, note, path, lines)
}

// newLinesPager pages through lines made safe to draw already. The pager's viewport takes its keys from
// the key map; it scrolls nothing sideways, since every line is wrapped to the width.
func newLinesPager(c overlayCtx, title, note, path string, lines []string) *pager {
	pg := &pager{title: title, note: note, path: path, lines: lines, copyKey: hintKeys(c.keys.Copy)}
	pg.vp = viewport.New()
	k := c.keys
	pg.vp.KeyMap = viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown,
		Left: key.NewBinding(key.WithDisabled()), Right: key.NewBinding(key.WithDisabled())}
	pg.resize(c.width, c.height)
	return pg
}

// rows wraps the lines to width, each to at most pagerMaxRows rows.
func (pg *pager) rows(width int) []string {
	width = max(width, 1)
	rows := make([]string, 0, len(pg.lines))
	for _, l := range pg.lines {
		if len(l) <= width || ansi.StringWidth(l) <= width {
			rows = append(rows, l)
			continue
		}
		// Wrap only what can show: a 5 MB line is not wrapped whole to keep 400 rows of it.
		cut := ansi.Cut(l, 0, width*pagerMaxRows)
		wrapped := strings.Split(ansi.Hardwrap(cut, width, true), "\n")
		rows = append(rows, wrapped...)
		if rest := ansi.StringWidth(l) - ansi.StringWidth(cut); rest > 0 {
			where := "the whole output is in " + pg.path
			if pg.path == "" {
				where = pg.copyKey + " copies it whole"
			}
			note := fmt.Sprintf("[… this line goes on for %s more characters, not shown; %s]", commas(rest), where)
			rows = append(rows, strings.Split(wrap(note, width), "\n")...)
		}
	}
	return rows
}

// fullOutput is the whole output of a call: the file the engine wrote when the output was long, or what
// the panel kept. note says where it came from when that matters.
func fullOutput(p *panel) (text, note string) {
	if e := p.bgEnd; e != nil {
		// The task's whole output, from its start: what the call showed and what came after.
		if e.OutputPath == "" {
			return strings.TrimRight(e.Output, "\n"), "the whole output of background task " + e.ID
		}
		if text, err := readHeadTail(e.OutputPath, maxPagerBytes); err == nil {
			return strings.TrimRight(text, "\n"), "full output: " + e.OutputPath
		}
		return strings.TrimRight(e.Output, "\n"), "head and tail of background task " + e.ID
	}
	if path := p.result.OutputPath; path != "" {
		text, err := readHeadTail(path, maxPagerBytes)
		if err == nil {
			return strings.TrimRight(text, "\n"), "full output: " + path
		}
		note = "could not read " + path + ": " + err.Error() + "; showing what the UI kept"
	}
	text = strings.TrimRight(p.out.String(), "\n")
	if d := p.out.Dropped(); d > 0 {
		note = fmt.Sprintf("the first %s were not kept", plural(d, "line", "lines"))
	}
	if text == "" && p.state == stateDenied {
		text = "Denied: " + p.reason
		if p.told != "" {
			text += "\nYou told the model: " + p.told
		}
	}
	return text, note
}

// readHeadTail reads a file whole when it is at most limit bytes, else its first quarter of limit and its
// last three quarters with a line saying how much lies between.
func readHeadTail(path string, limit int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if st.Size() <= limit {
		b, err := io.ReadAll(f)
		return string(b), err
	}
	head := make([]byte, limit/4)
	if _, err := io.ReadFull(f, head); err != nil {
		return "", err
	}
	tail := make([]byte, limit-limit/4)
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil && err != io.EOF {
		return "", err
	}
	// Cut both at line boundaries so that no line is shown in half.
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	if i := bytes.IndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	skipped := st.Size() - int64(len(head)) - int64(len(tail))
	sep := ""
	if len(head) > 0 && head[len(head)-1] != '\n' {
		// One line longer than the head: it is cut, and the mark must not read as part of it.
		sep = "\n"
	}
	return fmt.Sprintf("%s%s[… %s not shown here; the whole output is in the file named below …]\n%s",
		head, sep, tools.HumanBytes(skipped), tail), nil
}

func (pg *pager) fullScreen() bool { return true }

// resize fits the pager to the screen less its title, hint and the status line.
func (pg *pager) resize(width, height int) {
	if width != pg.width {
		pg.width = width
		off := pg.vp.YOffset()
		pg.vp.SetContentLines(pg.rows(width))
		pg.vp.SetYOffset(off)
	}
	pg.vp.SetWidth(width)
	pg.vp.SetHeight(max(height-3, 1))
}

func (pg *pager) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		keys := c.keys
		switch {
		case key.Matches(k, keys.Back):
			return closeOverlay{pg}, nil
		case key.Matches(k, keys.Top):
			pg.vp.GotoTop()
			return nil, nil
		case key.Matches(k, keys.Bottom):
			pg.vp.GotoBottom()
			return nil, nil
		}
	}
	var cmd tea.Cmd
	pg.vp, cmd = pg.vp.Update(msg)
	return nil, cmd
}

func (pg *pager) view(c overlayCtx, width, height int) string {
	keys := c.keys
	footer := hint(hintKeys(keys.Up, keys.Down)+" "+hintKeys(keys.PageUp, keys.PageDown)+" scroll",
		hintKeys(keys.Top, keys.Bottom)+" top/bottom", hintKeys(keys.Back)+" back")
	if pg.note != "" {
		// The keys always show; a long path gives way, from its start, so that its file name stays.
		room := width - ansi.StringWidth(footer) - 3
		note := fitLeft(pg.note, room)
		if label, path, ok := strings.Cut(pg.note, ": "); ok && ansi.StringWidth(label)+14 <= room {
			note = label + ": " + fitLeft(path, room-ansi.StringWidth(label)-2)
		}
		if room >= 12 {
			footer = note + " · " + footer
		}
	}
	title := pg.title
	if pg.vp.TotalLineCount() > pg.vp.Height() {
		title += c.st.dim.Render(fmt.Sprintf(" %3.0f%%", pg.vp.ScrollPercent()*100))
	}
	return frame(c, title, pg.vp.View(), footer, width, height)
}
