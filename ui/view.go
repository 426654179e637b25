package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View composes the screen from the parts' cached renders; it changes no state the program relies on.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.WindowTitle = "warden"
	if !m.opts.MouseOff {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.ReportFocus = m.attn.reportFocus()
	if m.tooSmall() {
		v.SetContent(m.tooSmallView())
		return v
	}
	status := m.statusLine()
	if o := m.top(); o != nil && o.fullScreen() {
		if m.flash != "" && m.now().Before(m.flashUntil) {
			// The line that carries it on the main screen is hidden: "Press Ctrl+C again to quit" must
			// show wherever the person is.
			status = m.st.warn.Render(fit(m.flash, m.width))
		}
		v.SetContent(expandStyledTabs(o.view(m.overlayCtx(), m.width, m.height-1) + "\n" + status))
		return v
	}
	inputView := m.inputView()
	menu := m.menuView(m.width)
	todo := append(m.todoView(m.width), m.pendingView(m.width)...)
	inputH := strings.Count(inputView, "\n") + 1
	convH := max(m.height-inputH-len(menu)-len(todo)-2, 1)
	var lines []string
	if o := m.top(); o != nil {
		// The modal takes the bottom of the conversation; the conversation ends just above it, so the
		// panel asking stays in sight.
		modalLines := strings.Split(o.view(m.overlayCtx(), m.width, convH), "\n")
		if len(modalLines) > convH {
			modalLines = modalLines[len(modalLines)-convH:]
		}
		lines = m.conv.view(m.renderCtx(), m.width, convH-len(modalLines), m.busy())
		lines = append(append([]string(nil), lines...), modalLines...)
	} else {
		lines = m.showSelection(m.conv.view(m.renderCtx(), m.width, convH, m.busy()))
	}
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	for _, l := range todo {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	sb.WriteString(m.ruleLine())
	sb.WriteByte('\n')
	sb.WriteString(inputView)
	sb.WriteByte('\n')
	for _, l := range menu {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	sb.WriteString(status)
	v.SetContent(expandStyledTabs(sb.String()))
	if len(m.overlays) == 0 {
		if c := m.input.Cursor(); c != nil {
			c.Y += convH + len(todo) + 1
			v.Cursor = c
		}
	}
	return v
}

// tooSmallView is the whole screen of a terminal below minWidth×minHeight: what is needed, wrapped to
// the width and cut to the height, and what the keys still do (see keyWhileTooSmall).
func (m *Model) tooSmallView() string {
	text := fmt.Sprintf("Warden needs at least %d×%d; this terminal is %d×%d. Make it larger to go on.", minWidth, minHeight, m.width, m.height)
	w := max(m.width, 1)
	lines := strings.Split(wrap(text, w), "\n")
	keys := fmt.Sprintf("Keys wait until then; %s interrupts, %s twice quits.", hintKeys(m.keys.Interrupt), hintKeys(m.keys.Quit))
	if len(m.overlays) > 0 {
		keys = "A prompt is waiting for you. " + keys
	}
	lines = append(lines, "")
	lines = append(lines, strings.Split(wrap(keys, w), "\n")...)
	if m.flash != "" && m.now().Before(m.flashUntil) {
		lines = append(lines, "")
		lines = append(lines, strings.Split(wrap(m.flash, w), "\n")...)
	}
	if h := max(m.height, 1); len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = m.st.warn.Render(fit(l, w))
	}
	return strings.Join(lines, "\n")
}

// inputKey is everything the input's render depends on. View runs after every message, streamed tokens
// included, and the textarea redraws itself from scratch each time, so its render is kept until one of
// these changes. gen counts the messages the textarea itself handled (typing, cursor blink, selection).
type inputKey struct {
	gen, width, height, line, col, theme int
	focused                              bool
	value                                string
}

// inputView is the input's render, cached on inputKey.
func (m *Model) inputView() string {
	k := inputKey{gen: m.inputGen, width: m.input.Width(), height: m.input.Height(), line: m.input.Line(),
		col: m.input.Column(), theme: m.theme, focused: m.input.Focused(), value: m.input.Value()}
	if k != m.inputCacheKey || m.inputCache == "" {
		m.inputCache, m.inputCacheKey = m.input.View(), k
	}
	return m.inputCache
}

// convHeight is the conversation's share of the screen.
func (m *Model) convHeight() int {
	return max(m.height-m.input.Height()-m.menuHeight()-len(m.todoView(m.width))-len(m.pendingView(m.width))-2, 1)
}

// menuHeight is how many rows the completion menu takes under the prompt.
func (m *Model) menuHeight() int {
	mn := &m.menu
	switch {
	case !mn.open():
		return 0
	case len(mn.items) == 0:
		return 1
	}
	return min(len(mn.items), mn.rows) + 1
}

func (m *Model) renderCtx() *renderCtx {
	return &renderCtx{
		st: &m.st, keys: &m.keys, md: &m.md, mdStyle: markdownStyle(m.isDark, m.noColor), theme: m.theme, now: m.now(),
		showReasoning: m.showReasoning, focused: m.focusedPanel(),
	}
}

// ruleLine separates the conversation from the input; it carries what is happening right now.
func (m *Model) ruleLine() string {
	now := m.now()
	var left string
	switch {
	case m.flash != "" && now.Before(m.flashUntil):
		left = m.st.warn.Render(m.flash)
	case m.run != nil && m.run.interrupted:
		left = m.st.warn.Render("interrupting…")
	case m.run != nil && m.asking():
		// Nothing works while the agent waits for the person: no spinner, no clock.
		left = m.st.warn.Render("? waiting for your answer")
	case m.run != nil && m.retry != "":
		left = m.st.warn.Render("⟳ "+m.retry) + m.st.dim.Render(" · "+hintKeys(m.keys.Interrupt)+" to interrupt")
	case m.run != nil:
		left = m.st.accent.Render(spinnerFrame(now)) + m.st.dim.Render(" working "+liveDuration(now, m.run.started)+" · "+hintKeys(m.keys.Interrupt)+" to interrupt")
	}
	if left == "" && len(m.overlays) == 0 && strings.HasPrefix(m.input.Value(), "!") {
		left = m.st.accent.Render("! shell mode") + m.st.dim.Render(": runs without asking; the model sees its output next turn")
	}
	if n := len(m.queued); n > 0 {
		left += m.st.dim.Render(fmt.Sprintf(" · %s queued", plural(n, "prompt", "prompts")))
	}
	right := m.scrollHint()
	if left == "" && right == "" {
		return m.st.inputRule.Render(strings.Repeat("─", m.width))
	}
	rule := m.st.inputRule.Render
	rightW := 0
	if right != "" {
		// The way back to the newest output matters more than the left side: it is cut last.
		right = fit(right, m.width-6)
		rightW = ansi.StringWidth(right) + 4 // " " + right + " ──"
	}
	var sb strings.Builder
	leftW := 0
	if left != "" {
		left = fit(left, m.width-rightW-5)
		leftW = ansi.StringWidth(left) + 4 // "── " + left + " "
		sb.WriteString(rule("── ") + left + " ")
	}
	sb.WriteString(rule(strings.Repeat("─", max(m.width-leftW-rightW, 1))))
	if right != "" {
		sb.WriteString(" " + right + " " + rule("──"))
	}
	return sb.String()
}

// scrollHint says, while the conversation is scrolled up, how much lies below and how to get back.
func (m *Model) scrollHint() string {
	c := &m.conv
	if c.scroll <= 0 {
		return ""
	}
	what := plural(c.scroll, "line below", "lines below")
	if c.unseen > 0 {
		what = plural(c.unseen, "new line", "new lines")
	}
	return m.st.accent.Render("↓ "+what) + m.st.dim.Render(" · "+hintKeys(m.keys.ScrollDown, m.keys.Follow)+" to follow")
}

// statusLine shows the model, the permission mode, the directory, context use, background tasks and key
// hints, dropping the least important when the terminal is narrow.
func (m *Model) statusLine() string {
	// View runs for every streamed token; the status line changes far less often, so its render is kept
	// until one of the things it shows changes.
	k := statusKey{width: m.width, theme: m.theme, context: m.contextUse(), sandbox: m.opts.Sandbox, model: m.opts.Model}
	if e := m.opts.Engine; e != nil {
		k.mode = string(e.Mode())
	}
	if m.opts.Tasks != nil {
		k.tasks = m.opts.Tasks.Running()
	}
	k.mcp = m.mcpStatus()
	if k != m.statusCacheKey || m.statusCache == "" {
		m.statusCache, m.statusCacheKey = m.renderStatus(k), k
	}
	return m.statusCache
}

// statusKey is everything the status line shows that can change while Warden runs.
type statusKey struct {
	width, theme, tasks           int
	mode, context, sandbox, model string
	mcp                           string
}

func (m *Model) renderStatus(k statusKey) string {
	st := m.st
	sep := st.status.Render(" · ")
	model := k.model
	if model == "" {
		model = "no model"
	}
	left := st.status.Render(model)
	if k.mode != "" {
		left += sep + st.statusMode.Render(k.mode)
	}
	if sb := k.sandbox; sb != "" {
		style := st.status
		if sb == sandboxOff {
			style = st.warn
		}
		left += sep + style.Render(sb)
	}
	var right []string
	if k.context != "" {
		right = append(right, k.context)
	}
	if k.tasks > 0 {
		right = append(right, st.accent.Render(plural(k.tasks, "background task", "background tasks")))
	}
	if k.mcp != "" {
		right = append(right, k.mcp)
	}
	right = append(right, hint(hintKeys(m.keys.Help)+" keys", hintKeys(m.keys.History)+" history"))
	r := st.status.Render(strings.Join(right, " · "))
	cwd := shortPath(m.opts.Workspace)
	room := m.width - ansi.StringWidth(left) - ansi.StringWidth(r) - 4
	if room > 8 && cwd != "" {
		left += sep + st.status.Render(fit(cwd, room))
	}
	return spread(left, r, m.width)
}

// contextUse is how full the model's context window is, from the latest UsageUpdated.
func (m *Model) contextUse() string {
	used, window := m.usage.Context, m.usage.Window
	if used == 0 {
		used = m.usage.Last.PromptTokens + m.usage.Last.CompletionTokens
	}
	if window == 0 {
		window = m.opts.ContextWindow
	}
	if used == 0 {
		return ""
	}
	est := ""
	if m.usage.Estimated {
		est = "~"
	}
	if w := window; w > 0 {
		pct := used * 100 / w
		s := fmt.Sprintf("ctx %s%d%%", est, pct)
		if pct < 10 {
			// A fresh conversation would read 0% for a long while; a decimal shows it growing.
			s = fmt.Sprintf("ctx %s%.1f%%", est, float64(used)*100/float64(w))
		}
		switch {
		case pct >= 90:
			return m.st.fail.Render(s)
		case pct >= 70:
			return m.st.warn.Render(s)
		}
		return s
	}
	return fmt.Sprintf("ctx %s%.1fk tokens", est, float64(used)/1000)
}

// shortPath writes the home directory as ~.
func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return "~"
			}
			return "~/" + rel
		}
	}
	return p
}
