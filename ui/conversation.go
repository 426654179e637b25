package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// streamThrottle is how often a streaming message is re-rendered as Markdown at most; deltas arriving in
// between are shown by the next render. It is the clock's step, and a render waits for the clock's next
// step rather than for as long since the last, so that the text and the spinner change the screen in the
// same frame: one frame each 100 ms while an answer streams, not one for each.
const streamThrottle = clockStep

type itemKind int

const (
	itemUser itemKind = iota
	itemAssistant
	itemNotice
	itemError
	itemInterrupted
	itemPanel
	itemInfo   // a dim line about the session itself (context compacted, session resumed)
	itemHeader // the first entry of a new session (header.go): its first line is the title
)

// item is one entry of the transcript with its render cache. Only the streaming message and running
// panels are re-rendered while things happen; every other item renders once per width.
type item struct {
	kind      itemKind
	text      string
	reasoning string
	streaming bool
	panel     *panel
	md        mdBlocks // the assistant text's render, block by block

	version    int // bumped by every change
	key        itemKey
	lines      []string
	renderedAt time.Time
}

type itemKey struct {
	version, width, theme int
	showReasoning         bool
	focused               bool
}

// renderCtx is what rendering needs from the root model.
type renderCtx struct {
	st            *styles
	keys          *keyMap
	md            *markdown
	mdStyle       string
	theme         int
	now           time.Time
	showReasoning bool
	focused       *panel
}

// conversation is the transcript: items in order and how far it is scrolled.
type conversation struct {
	items []*item
	// scroll is how many lines lie below the view; 0 follows new output.
	scroll int
	// While scrolled up, the view is pinned to what the person reads: its top line is line anchorLine of
	// item anchor, and output arriving below adds to scroll instead of moving the text. unseen counts the
	// lines that arrived below since the view left the end.
	anchor     *item
	anchorLine int
	unseen     int
	// top is the largest useful scroll, known once a view has reached the first item (-1: not known).
	top     int
	version int // bumped whenever anything visible may have changed

	cacheKey   convKey
	cacheLines []string
}

type convKey struct {
	version, width, height, scroll, theme int
	showReasoning                         bool
	focused                               *panel
	frame                                 int64
}

func (c *conversation) add(it *item) *item {
	c.items = append(c.items, it)
	c.version++
	return it
}

// changed marks an item as changed.
func (c *conversation) changed(it *item) {
	it.version++
	c.version++
}

// streamingItem returns the assistant message being streamed, starting one if there is none.
func (c *conversation) streamingItem() *item {
	if n := len(c.items); n > 0 {
		if last := c.items[n-1]; last.kind == itemAssistant && last.streaming {
			return last
		}
	}
	return c.add(&item{kind: itemAssistant, streaming: true})
}

// cutStreaming ends the assistant message being streamed, if any, as cut off: it stays, followed by a line
// saying so, and both are returned so that the retry's answer can replace them.
func (c *conversation) cutStreaming(why string) []*item {
	n := len(c.items)
	if n == 0 || c.items[n-1].kind != itemAssistant || !c.items[n-1].streaming {
		return nil
	}
	it := c.items[n-1]
	it.streaming = false
	c.changed(it)
	note := &item{kind: itemInfo, text: why}
	c.add(note)
	return []*item{it, note}
}

// remove takes items out of the transcript.
func (c *conversation) remove(gone []*item) {
	if len(gone) == 0 {
		return
	}
	c.items = slices.DeleteFunc(c.items, func(it *item) bool { return slices.Contains(gone, it) })
	c.version++
}

// view returns exactly height lines of the transcript ending scroll lines above its end. Only the items
// that are visible are rendered, walking back from the end. While the view is pinned (anchor), scroll is
// first worked out again from where the pinned line now lies, so that new output below does not move it.
func (c *conversation) view(rc *renderCtx, width, height int, running bool) []string {
	key := convKey{version: c.version, width: width, height: height, scroll: c.scroll, theme: rc.theme,
		showReasoning: rc.showReasoning, focused: rc.focused}
	if running {
		key.frame = rc.now.UnixMilli() / clockStep.Milliseconds()
	}
	if key == c.cacheKey && c.cacheLines != nil {
		return c.cacheLines
	}
	if c.anchor != nil {
		c.repin(rc, width, height)
	}
	need := height + c.scroll
	var chunks [][]string
	total := 0
	for i := len(c.items) - 1; i >= 0 && total < need; i-- {
		lines := c.itemLines(rc, c.items[i], width)
		chunks = append(chunks, lines)
		total += len(lines) + 1 // a blank line between items
	}
	c.top = -1
	if total < need {
		// At the top: never scroll past the first line.
		c.top = max(total-height, 0)
		c.scroll = min(c.scroll, c.top)
	}
	all := make([]string, 0, total)
	for i := len(chunks) - 1; i >= 0; i-- {
		all = append(all, chunks[i]...)
		all = append(all, "")
	}
	end := len(all) - c.scroll
	start := max(end-height, 0)
	out := make([]string, 0, height)
	if pad := height - (end - start); pad > 0 {
		for range pad {
			out = append(out, "")
		}
	}
	out = append(out, all[start:end]...)
	c.pin(chunks, start)
	key.scroll = c.scroll
	c.cacheKey, c.cacheLines = key, out
	return out
}

// pin remembers which line is at the top of the view (line start of the lines chunks make, last chunk
// first) while the view is scrolled up, and forgets it once the view follows the end again.
func (c *conversation) pin(chunks [][]string, start int) {
	if c.scroll == 0 {
		c.anchor, c.unseen = nil, 0
		return
	}
	line := start
	for i := len(chunks) - 1; i >= 0; i-- {
		if n := len(chunks[i]) + 1; line < n || i == 0 {
			c.anchor, c.anchorLine = c.items[len(c.items)-1-i], min(line, n-1)
			return
		}
		line -= len(chunks[i]) + 1
	}
}

// repin sets scroll so that the pinned line is at the top of the view again, counting what arrived
// below it as unseen. A pinned item that is gone (a retried answer) leaves scroll as it was.
func (c *conversation) repin(rc *renderCtx, width, height int) {
	below := 0
	for i := len(c.items) - 1; i >= 0; i-- {
		it := c.items[i]
		n := len(c.itemLines(rc, it, width)) + 1
		if it == c.anchor {
			scroll := max(below+n-min(c.anchorLine, n-1)-height, 0)
			c.unseen += max(scroll-c.scroll, 0)
			c.scroll = scroll
			return
		}
		below += n
	}
	c.anchor = nil
}

// follow goes back to the end of the transcript and follows new output.
func (c *conversation) follow() {
	c.scroll, c.anchor, c.unseen = 0, nil, 0
	c.version++
}

func (c *conversation) itemLines(rc *renderCtx, it *item, width int) []string {
	key := itemKey{version: it.version, width: width, theme: rc.theme, showReasoning: rc.showReasoning}
	if it.kind == itemPanel {
		key.focused = it.panel == rc.focused
		if it.panel.active() {
			// Spinner and elapsed time: panels of running calls change with the clock.
			return it.panel.render(rc, width, key.focused)
		}
		key.version = it.panel.out.version*16 + int(it.panel.state)
		if it.panel.expanded {
			key.version = -key.version - 1
		}
	}
	if key == it.key && it.lines != nil {
		return it.lines
	}
	if it.streaming && it.lines != nil && key.width == it.key.width && rc.now.Truncate(streamThrottle).Equal(it.renderedAt.Truncate(streamThrottle)) {
		return it.lines
	}
	it.lines = c.renderLines(rc, it, width)
	it.key, it.renderedAt = key, rc.now
	return it.lines
}

// renderLines draws an item as lines. An assistant message is drawn as the lines of its cached blocks,
// without joining a long message into one string only to split it again.
func (c *conversation) renderLines(rc *renderCtx, it *item, width int) []string {
	if it.kind != itemAssistant {
		return strings.Split(c.render(rc, it, width), "\n")
	}
	var lines []string
	if it.reasoning != "" {
		lines = strings.Split(reasoningView(rc, it, width), "\n")
	}
	if it.text != "" {
		lines = append(lines, rc.md.renderBlocks(&it.md, it.text, rc.mdStyle, width)...)
	}
	if lines == nil {
		return []string{""}
	}
	return lines
}

func (c *conversation) render(rc *renderCtx, it *item, width int) string {
	st := rc.st
	switch it.kind {
	case itemUser:
		body := wrap(st.user.Render(expandTabs(it.text)), width-2)
		return prefixLines(st.userMark.Render("❯ "), "  ", body)
	case itemAssistant:
		return strings.Join(c.renderLines(rc, it, width), "\n")
	case itemNotice:
		return prefixLines(st.notice.Render("⚠ "), "  ", wrap(st.notice.Render(expandTabs(it.text)), width-2))
	case itemError:
		return prefixLines(st.errText.Render("✗ "), "  ", wrap(st.errText.Render(expandTabs(it.text)), width-2))
	case itemInterrupted:
		return st.warn.Render("⏹ " + it.text)
	case itemInfo:
		return prefixLines(st.dim.Render("· "), "  ", wrap(st.dim.Render(expandTabs(it.text)), width-2))
	case itemHeader:
		title, rest, _ := strings.Cut(it.text, "\n")
		lines := []string{st.accent.Render(title)}
		for _, l := range strings.Split(rest, "\n") {
			lines = append(lines, st.dim.Render(l))
		}
		return strings.Join(box(strings.Split(wrap(strings.Join(lines, "\n"), width-4), "\n"), width, st.panel), "\n")
	case itemPanel:
		return strings.Join(it.panel.render(rc, width, it.panel == rc.focused), "\n")
	}
	return ""
}

func reasoningView(rc *renderCtx, it *item, width int) string {
	st := rc.st
	lines := strings.Split(expandTabs(strings.TrimSpace(it.reasoning)), "\n")
	if !rc.showReasoning {
		head := st.reasoning.Render(fmt.Sprintf("✻ Thought for %s (%s to show)", plural(len(lines), "line", "lines"), hintKeys(rc.keys.Reasoning)))
		if it.streaming && it.text == "" {
			head = st.reasoning.Render("✻ Thinking…") + "\n" +
				prefixLines("  ", "  ", wrap(st.reasoning.Render(lines[len(lines)-1]), width-2))
		}
		return head
	}
	return st.reasoning.Render("✻ Thinking ("+hintKeys(rc.keys.Reasoning)+" to hide)") + "\n" +
		prefixLines("  ", "  ", wrap(st.reasoning.Render(strings.Join(lines, "\n")), width-2))
}

// prefixLines puts first before the first line and rest before the others.
func prefixLines(first, rest, s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// scrollBy moves the view up (positive) or down by n lines; the next view pins it where it lands.
func (c *conversation) scrollBy(n int) {
	c.scroll = max(c.scroll+n, 0)
	if c.top >= 0 {
		c.scroll = min(c.scroll, c.top)
	}
	c.anchor = nil
	if c.scroll == 0 {
		c.unseen = 0
	}
	c.version++
}
