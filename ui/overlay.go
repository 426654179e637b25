package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// overlay is a screen on top of the conversation. The root keeps them in one stack; the top one gets the
// keys. A full-screen overlay replaces the conversation and the input; the modal draws over the bottom of
// the conversation and leaves the rest visible.
//
// An overlay sees the program only through an overlayCtx and never holds the root *Model: what it wants
// done (close, open another, act on an answer) it returns as a message, which the root handles at once,
// before the next key, as it handles any other message.
type overlay interface {
	update(c overlayCtx, msg tea.Msg) (out tea.Msg, cmd tea.Cmd)
	view(c overlayCtx, width, height int) string
	fullScreen() bool
}

// overlayCtx is what an overlay may know of the program: the keys, the styles, the clock, the size of the
// screen and when the person last pressed a key (for the type-ahead guard of a question opened now).
type overlayCtx struct {
	keys          *keyMap
	st            *styles
	now           time.Time
	lastKey       time.Time
	width, height int
}

func (m *Model) overlayCtx() overlayCtx {
	return overlayCtx{keys: &m.keys, st: &m.st, now: m.now(), lastKey: m.lastKey, width: m.width, height: m.height}
}

// The messages an overlay returns to the root; an answer's own effect comes as a commandResult built by
// whoever opened the overlay.
type (
	// closeOverlay closes o and whatever lies above it.
	closeOverlay struct{ o overlay }
	// openOverlay opens o on top.
	openOverlay struct{ o overlay }
)

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

// replace puts o in the place of old, closing what lay above it: a question that follows another without
// the stack emptying in between (which would send a waiting prompt).
func (m *Model) replace(old, o overlay) {
	for i, x := range m.overlays {
		if x == old {
			m.overlays = append(m.overlays[:i], o)
			m.conv.version++
			return
		}
	}
	m.push(o)
}

func (m *Model) top() overlay {
	if len(m.overlays) == 0 {
		return nil
	}
	return m.overlays[len(m.overlays)-1]
}

// updateTop hands msg to the top overlay and acts on what it returns at once, so that the next key finds
// the stack as the answer left it.
func (m *Model) updateTop(msg tea.Msg) tea.Cmd {
	out, cmd := m.top().update(m.overlayCtx(), msg)
	if out == nil {
		return cmd
	}
	_, then := m.Update(out)
	return tea.Batch(cmd, then)
}

// frame renders a full-screen overlay: a title line, the body cut to height, the key hint.
func frame(c overlayCtx, title, body, hint string, width, height int) string {
	lines := []string{c.st.overlayTitle.Render(fit(title, width))}
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
	lines = append(lines, c.st.keyHint.Render(fit(hint, width)))
	return strings.Join(lines, "\n")
}

func padRight(s string, n int) string {
	if w := len([]rune(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}
