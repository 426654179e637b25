package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// confirm is the one question overlay: a title, what is asked about, and a few answers, each bindings of
// the key map and the message its choice sends the root. Trusting the workspace and running without the
// sandbox at start, restoring files (/undo, /rewind) and what /rewind takes back are all confirms, so they
// read the same, scroll the same, list their answers from the same bindings and share one guard: keys
// typed just before the question opened never answer it (typeahead.go).
//
// The approval modal is not one: it queues requests, has stages and draws over the conversation.
type confirm struct {
	title string
	// body draws what is asked about at a width, at every frame.
	body    func(st *styles, width int) string
	choices []choice
	// note says, under the body, why the last answer did not go through (the trust could not be saved).
	note string
	// armedAt is when answers start to count.
	armedAt time.Time
	offset  int
}

// choice is one answer to a confirm: the keys that give it (the first names it in the hint), the words
// the hint gives it, and what the root gets.
type choice struct {
	keys []key.Binding
	does string
	msg  tea.Msg
}

func (q *confirm) fullScreen() bool { return true }

// answer is the choice key k gives, or nil.
func (q *confirm) answer(k tea.KeyPressMsg) *choice {
	for i := range q.choices {
		if key.Matches(k, q.choices[i].keys...) {
			return &q.choices[i]
		}
	}
	return nil
}

func (q *confirm) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	ch := q.answer(k)
	if ch == nil && q.scroll(c.keys, k) {
		return nil, nil // reading is not answering: the body scrolls even while answers are paused
	}
	if stillTyping(&q.armedAt, c.now) {
		return nil, q.wake(c.now)
	}
	if ch == nil {
		return nil, nil
	}
	return ch.msg, nil
}

// scroll moves the body for the reading keys, and says whether k was one.
func (q *confirm) scroll(keys *keyMap, k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, keys.Up):
		q.offset = max(q.offset-1, 0)
	case key.Matches(k, keys.Down):
		q.offset++ // view clamps it
	case key.Matches(k, keys.PageUp):
		q.offset = max(q.offset-10, 0)
	case key.Matches(k, keys.PageDown):
		q.offset += 10
	default:
		return false
	}
	return true
}

// wake redraws the question when its answers start to count, so that the hint stops saying they wait.
func (q *confirm) wake(now time.Time) tea.Cmd {
	if !q.armedAt.After(now) {
		return nil
	}
	return wakeIn(q.armedAt.Sub(now))
}

func (q *confirm) view(c overlayCtx, width, height int) string {
	lines := strings.Split(q.body(c.st, width), "\n")
	if q.note != "" {
		lines = append(lines, "")
		lines = append(lines, strings.Split(c.st.errText.Render(wrap(q.note, width)), "\n")...)
	}
	answers := make([]string, len(q.choices))
	for i, ch := range q.choices {
		answers[i] = hintKey(ch.keys[0]) + " " + ch.does
	}
	footer := hint(answers...)
	if c.now.Before(q.armedAt) && c.now.Before(c.lastKey.Add(typeAheadGuard)) {
		// Keys typed a moment ago hold the answers back: the hint says so rather than name answers that
		// would not work yet. (At start, with nothing typed, the answers show while the guard runs.)
		footer = "keys paused for a moment, so that typing meant for the input cannot answer…"
	}
	if room := max(height-2, 1); len(lines) > room {
		q.offset = min(q.offset, len(lines)-room)
		lines = lines[q.offset:]
		footer = hint(hintKeys(c.keys.Up, c.keys.Down)+" scroll", footer)
	}
	return frame(c, q.title, strings.Join(lines, "\n"), footer, width, height)
}
