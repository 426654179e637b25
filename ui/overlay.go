package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// overlay is a screen on top of the conversation. The root keeps them in one stack; the top one gets the
// keys. A full-screen overlay replaces the conversation and the input; the modal draws over the bottom of
// the conversation and leaves the rest visible.
type overlay interface {
	update(m *Model, msg tea.Msg) tea.Cmd
	view(m *Model, width, height int) string
	fullScreen() bool
}

func (m *Model) push(o overlay) {
	m.overlays = append(m.overlays, o)
	m.input.Blur()
	m.conv.version++
	m.refreshMenu()
}

// pop removes o (and anything above it) from the stack.
func (m *Model) pop(o overlay) tea.Cmd {
	for i, x := range m.overlays {
		if x == o {
			m.overlays = m.overlays[:i]
			break
		}
	}
	m.conv.version++
	if len(m.overlays) == 0 {
		m.refreshMenu()
		return tea.Batch(m.input.Focus(), m.sendPending())
	}
	return nil
}

func (m *Model) top() overlay {
	if len(m.overlays) == 0 {
		return nil
	}
	return m.overlays[len(m.overlays)-1]
}

// frame renders a full-screen overlay: a title line, the body cut to height.
func frame(m *Model, title, body, hint string, width, height int) string {
	lines := []string{m.st.overlayTitle.Render(fit(title, width))}
	bodyLines := strings.Split(body, "\n")
	room := height - 2
	if len(bodyLines) > room {
		bodyLines = bodyLines[:max(room, 0)]
	}
	for _, l := range bodyLines {
		lines = append(lines, fit(l, width))
	}
	for len(lines) < height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, m.st.keyHint.Render(fit(hint, width)))
	return strings.Join(lines, "\n")
}

// helpOverlay lists every binding of the key map and every slash command, from the same key map and
// command set the program acts on; when they do not fit the screen (60×15 holds about half of them) it
// scrolls.
type helpOverlay struct{ offset int }

func (h *helpOverlay) fullScreen() bool { return true }

func (h *helpOverlay) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, m.keys.Back, m.keys.Help) || k.String() == "q":
		return m.pop(h)
	case key.Matches(k, m.keys.Up):
		h.offset = max(h.offset-1, 0)
	case key.Matches(k, m.keys.Down):
		h.offset++ // view clamps it: how far it can go depends on the screen's size
	case k.String() == "pgup":
		h.offset = max(h.offset-5, 0)
	case k.String() == "pgdown":
		h.offset += 5
	}
	return nil
}

func (h *helpOverlay) view(m *Model, width, height int) string {
	groups := m.keys.FullHelp()
	titles := []string{"Input", "Editing (across lines)", "Session", "Approval modal", "History, output and pickers"}
	// One block per group, laid out in as many columns as fit, so every binding shows from 60×15 up.
	blocks := make([]string, len(groups))
	for i, g := range groups {
		keyW := 0
		for _, b := range g {
			keyW = max(keyW, lipgloss.Width(b.Help().Key))
		}
		lines := []string{m.st.bold.Render(titles[i])}
		for _, b := range g {
			lines = append(lines, m.st.accent.Render(padRight(b.Help().Key, keyW))+" "+b.Help().Desc)
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
	rows = append(rows, m.commandsHelp(width))
	lines := strings.Split(strings.Join(rows, "\n\n"), "\n")
	hint := "esc back"
	if room := height - 2; len(lines) > room {
		h.offset = min(h.offset, len(lines)-room)
		switch end := h.offset + room; {
		case end < len(lines):
			hint = fmt.Sprintf("↓ %s more · ↑/↓ scroll · esc back", plural(len(lines)-end, "line", "lines"))
		default:
			hint = "↑/↓ scroll · esc back"
		}
		lines = lines[h.offset:]
	}
	return frame(m, "Keys and commands", strings.Join(lines, "\n"), hint, width, height)
}

func padRight(s string, n int) string {
	if w := len([]rune(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// setupOverlay is the first screen when there is no model server: what is wrong and what to set.
type setupOverlay struct{ text string }

func (s *setupOverlay) fullScreen() bool { return true }

func (s *setupOverlay) update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "q" || k.String() == "esc" || k.String() == "enter") {
		return tea.Quit
	}
	return nil
}

func (s *setupOverlay) view(m *Model, width, height int) string {
	body := "\n" + wrap(m.st.errText.Render("Warden cannot start a conversation yet."), width) + "\n\n" + wrap(s.text, width) +
		"\n\n" + wrap(m.st.dim.Render("Then start warden again."), width)
	return frame(m, "Setup needed", body, "q quit", width, height)
}

// trustOverlay asks whether to trust a workspace whose project settings loosen permissions (DESIGN §6).
type trustOverlay struct {
	items []string
	err   string
	// armedAt is when answers start to count: keys typed while warden starts, meant for the prompt, must
	// not trust a workspace (the same guard as the approval modal's).
	armedAt time.Time
}

func (t *trustOverlay) fullScreen() bool { return true }

func (t *trustOverlay) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if stillTyping(&t.armedAt, m.now()) {
		return nil
	}
	switch k.String() {
	case "y":
		if m.opts.Trust != nil {
			if err := m.opts.Trust(); err != nil {
				t.err = err.Error()
				return nil
			}
		}
		m.opts.Trusted = true
		m.conv.add(&item{kind: itemNotice, text: "Workspace trusted: its allow rules, permission mode, commands and MCP servers apply now, its other settings from the next start of warden."})
		return tea.Batch(m.pop(t), m.loadCustomCommands())
	case "n", "esc":
		m.conv.add(&item{kind: itemNotice, text: "Workspace not trusted: what the list named stays ignored and no MCP server starts in it."})
		return m.pop(t)
	}
	return nil
}

func (t *trustOverlay) view(m *Model, width, height int) string {
	var sb strings.Builder
	sb.WriteString(wrap("Until you trust this workspace, Warden ignores its settings that would loosen permissions and starts no MCP server in it:", width))
	sb.WriteString("\n\n")
	for _, it := range t.items {
		sb.WriteString(wrap(m.st.warn.Render("• "+it), width) + "\n")
	}
	sb.WriteString("\n" + wrap("Trust it only if you trust everyone who can change these files.", width))
	if t.err != "" {
		sb.WriteString("\n\n" + m.st.errText.Render(wrap("Could not save the trust: "+t.err, width)))
	}
	return frame(m, "Trust this workspace?", sb.String(), "y trust · n keep ignoring", width, height)
}

// sandboxOff is the status line's sandbox label once the person chose to run without one.
const sandboxOff = "sandbox: off"

// sandboxOverlay asks, before anything runs, whether to go on without the sandbox the person asked for
// but that cannot be had here.
type sandboxOverlay struct {
	problem string
	// armedAt guards against keys typed at start-up, as for the trust prompt.
	armedAt time.Time
}

func (s *sandboxOverlay) fullScreen() bool { return true }

func (s *sandboxOverlay) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if stillTyping(&s.armedAt, m.now()) {
		return nil
	}
	switch k.String() {
	case "y":
		if m.opts.RunUnsandboxed != nil {
			m.opts.RunUnsandboxed()
		}
		m.opts.Sandbox = sandboxOff
		m.conv.add(&item{kind: itemNotice, text: "Running without a sandbox: commands have your full access, limited only by the permission rules."})
		return m.pop(s)
	case "n", "esc", "q":
		return tea.Quit
	}
	return nil
}

func (s *sandboxOverlay) view(m *Model, width, height int) string {
	body := "\n" + wrap(m.st.errText.Render("The sandbox you asked for cannot be used here."), width) + "\n\n" +
		wrap(s.problem, width) + "\n\n" +
		wrap("Without it, commands you allow run with your full access to this machine; the permission rules still decide what runs.", width) +
		"\n\n" + wrap(m.st.bold.Render("Run without the sandbox?"), width)
	return frame(m, "No sandbox", body, "y run unsandboxed · n quit", width, height)
}
