package ui

import (
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// coalesceEvery is how long streamed pieces gather before they reach the program. A model streaming 2,000
// words a second sends as many events; each one reaching Update would also cost a View of the whole screen
// (a quarter of a millisecond with a long conversation on it). An answer's text is drawn again on the
// clock's 100 ms steps anyway (streamThrottle), so twice in a step is enough for it, and a running
// command's output moves 20 times a second.
const coalesceEvery = 50 * time.Millisecond

// coalescer is the agent's sink in the TUI. Streamed pieces (text, reasoning, a call's output) gather for
// at most coalesceEvery and reach the program as one eventsMsg, pieces that follow each other merged into
// one (the text of two deltas, the output of one call); every other event first sends what gathered, then
// itself, so the program sees the events in the order the agent sent them. A streamed piece never
// blocks the agent; what gathers is bounded by what a frame's time brings.
type coalescer struct {
	send  func(tea.Msg)
	every time.Duration

	// sending is held while a batch, and the event that follows it, are handed to the program: a batch
	// taken by the timer must not be overtaken by an event the agent sends meanwhile.
	sending sync.Mutex
	mu      sync.Mutex
	pending []*piece
	armed   bool
}

// piece is an event waiting in a batch; a streamed one gathers the text of the pieces of its stream that
// follow it (a builder, not repeated concatenation: a command may print megabytes in a frame's time).
type piece struct {
	event  agent.Event
	stream string // "text", "reasoning", or "output " and the call's id; "" for any other event
	text   strings.Builder
}

// eventsMsg is a batch of the agent's events, applied in order.
type eventsMsg []agent.Event

func (c *coalescer) event(e agent.Event) {
	if stream, text, ok := streamOf(e); ok {
		c.mu.Lock()
		if n := len(c.pending); n > 0 && c.pending[n-1].stream == stream {
			c.pending[n-1].text.WriteString(text)
		} else {
			p := &piece{event: e, stream: stream}
			p.text.WriteString(text)
			c.pending = append(c.pending, p)
		}
		if !c.armed {
			c.armed = true
			time.AfterFunc(c.every, c.flush)
		}
		c.mu.Unlock()
		return
	}
	c.sending.Lock()
	defer c.sending.Unlock()
	if batch := c.take(); batch != nil {
		c.send(batch)
	}
	c.send(eventMsg{e})
}

// streamOf names the stream a streamed piece belongs to, with its text.
func streamOf(e agent.Event) (stream, text string, ok bool) {
	switch e := e.(type) {
	case agent.TextDelta:
		return "text", e.Text, true
	case agent.ReasoningDelta:
		return "reasoning", e.Text, true
	case agent.ToolOutput:
		return "output " + e.ID, e.Chunk, true
	}
	return "", "", false
}

// flush sends what gathered, if anything.
func (c *coalescer) flush() {
	c.sending.Lock()
	defer c.sending.Unlock()
	if batch := c.take(); batch != nil {
		c.send(batch)
	}
}

// take empties what gathered into a batch, each stream's pieces as one event.
func (c *coalescer) take() eventsMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		c.armed = false
		return nil
	}
	batch := make(eventsMsg, len(c.pending))
	for i, p := range c.pending {
		switch e := p.event.(type) {
		case agent.TextDelta:
			batch[i] = agent.TextDelta{Text: p.text.String()}
		case agent.ReasoningDelta:
			batch[i] = agent.ReasoningDelta{Text: p.text.String()}
		case agent.ToolOutput:
			batch[i] = agent.ToolOutput{ID: e.ID, Chunk: p.text.String()}
		}
	}
	c.pending, c.armed = nil, false
	return batch
}
