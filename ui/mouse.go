package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The mouse. Warden asks the terminal for mouse reports (button events, SGR encoding) unless
// ui.mouse is false: the wheel scrolls the conversation (or the screen on top: the pager, the history, a
// long command in the modal), and dragging over the conversation selects text, which is copied to the
// clipboard (OSC 52) when the button is let go. Where the terminal does not take OSC 52, or for text
// outside the conversation, the terminal's own selection is a modifier away: most terminals select while
// Shift is held even when a program takes the mouse (Option in iTerm2, Fn in Terminal.app).

// wheelLines is how far one notch of the wheel scrolls the conversation.
const wheelLines = 3

// selection is a stretch of the conversation being selected with the mouse, in screen cells: from where
// the button went down to where it is now, both within the conversation's rows.
type selection struct {
	fromX, fromY, toX, toY int
	// dragging while the button is down; after it is let go the stretch stays shown until a click, a key
	// or the view moves.
	dragging bool
	// scroll is the conversation's scroll when the selection began: once the view moves, the cells no
	// longer hold what was selected.
	scroll int
}

// ordered is the selection from its first cell to its last, in reading order.
func (s selection) ordered() (x0, y0, x1, y1 int) {
	if s.fromY < s.toY || (s.fromY == s.toY && s.fromX <= s.toX) {
		return s.fromX, s.fromY, s.toX, s.toY
	}
	return s.toX, s.toY, s.fromX, s.fromY
}

func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	if m.tooSmall() || m.opts.MouseOff {
		return nil
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		m.sel = nil
		dir := 0
		switch msg.Button {
		case tea.MouseWheelUp:
			dir = 1
		case tea.MouseWheelDown:
			dir = -1
		}
		if dir == 0 {
			return nil
		}
		if len(m.overlays) > 0 {
			code := tea.KeyUp
			if dir < 0 {
				code = tea.KeyDown
			}
			return m.updateTop(tea.KeyPressMsg{Code: code})
		}
		m.conv.scrollBy(dir * wheelLines)
		return nil
	case tea.MouseClickMsg:
		m.sel = nil
		if msg.Button != tea.MouseLeft || len(m.overlays) > 0 || msg.Y >= m.convHeight() {
			return nil
		}
		m.sel = &selection{fromX: msg.X, fromY: msg.Y, toX: msg.X, toY: msg.Y, dragging: true, scroll: m.conv.scroll}
		return nil
	case tea.MouseMotionMsg:
		if m.sel == nil || !m.sel.dragging {
			return nil
		}
		m.sel.toX, m.sel.toY = max(min(msg.X, m.width-1), 0), max(min(msg.Y, m.convHeight()-1), 0)
		return nil
	case tea.MouseReleaseMsg:
		if m.sel == nil || !m.sel.dragging {
			return nil
		}
		s := m.sel
		s.dragging = false
		if s.fromX == s.toX && s.fromY == s.toY {
			m.sel = nil // a click, not a drag
			return nil
		}
		text := m.selectedText()
		if text == "" {
			m.sel = nil
			return nil
		}
		return tea.Batch(tea.SetClipboard(text), m.setFlash(fmt.Sprintf("Copied %s to the clipboard", plural(strings.Count(text, "\n")+1, "line", "lines"))))
	}
	return nil
}

// selectedText is the text the selection covers on the conversation as last drawn, without styles and
// without the blanks at the end of its lines.
func (m *Model) selectedText() string {
	lines := m.conv.cacheLines
	x0, y0, x1, y1 := m.sel.ordered()
	var out []string
	for y := y0; y <= y1 && y < len(lines); y++ {
		line := ansi.Strip(lines[y])
		from, to := 0, ansi.StringWidth(line)
		if y == y0 {
			from = x0
		}
		if y == y1 {
			to = min(x1+1, to)
		}
		out = append(out, strings.TrimRight(ansi.Cut(line, from, max(to, from)), " "))
	}
	return strings.Join(out, "\n")
}

// showSelection draws the selection over the conversation's lines, in reverse video.
func (m *Model) showSelection(lines []string) []string {
	s := m.sel
	if s == nil {
		return lines
	}
	if s.scroll != m.conv.scroll {
		m.sel = nil
		return lines
	}
	x0, y0, x1, y1 := s.ordered()
	out := append([]string(nil), lines...)
	for y := y0; y <= y1 && y < len(out); y++ {
		line := out[y]
		w := ansi.StringWidth(line)
		from, to := 0, w
		if y == y0 {
			from = min(x0, w)
		}
		if y == y1 {
			to = min(x1+1, w)
		}
		if to <= from {
			continue
		}
		out[y] = ansi.Cut(line, 0, from) + "\x1b[7m" + ansi.Strip(ansi.Cut(line, from, to)) + "\x1b[m" + ansi.Cut(line, to, w)
	}
	return out
}
