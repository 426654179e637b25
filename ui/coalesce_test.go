package ui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// received records what a coalescer hands to the program, flattened to the events in order.
type received struct {
	mu     sync.Mutex
	msgs   []tea.Msg
	events []agent.Event
	got    chan struct{}
}

func newReceived() *received { return &received{got: make(chan struct{}, 1)} }

func (r *received) send(msg tea.Msg) {
	r.mu.Lock()
	r.msgs = append(r.msgs, msg)
	switch msg := msg.(type) {
	case eventMsg:
		r.events = append(r.events, msg.Event)
	case eventsMsg:
		r.events = append(r.events, msg...)
	}
	r.mu.Unlock()
	select {
	case r.got <- struct{}{}:
	default:
	}
}

func TestStreamedPiecesReachTheProgramMergedAndInOrder(t *testing.T) {
	r := newReceived()
	c := &coalescer{send: r.send, every: time.Hour} // only the other events send what gathered
	for _, e := range []agent.Event{
		agent.TextDelta{Text: "Hel"}, agent.TextDelta{Text: "lo"},
		agent.ToolOutput{ID: "x", Chunk: "1\n"}, agent.ToolOutput{ID: "x", Chunk: "2\n"}, agent.ToolOutput{ID: "y", Chunk: "3\n"},
		agent.ReasoningDelta{Text: "hm"}, agent.TextDelta{Text: "!"},
		agent.ToolFinished{ID: "x"},
		agent.TextDelta{Text: "after"},
		agent.TurnDone{},
	} {
		c.event(e)
	}
	want := []tea.Msg{
		eventsMsg{agent.TextDelta{Text: "Hello"}, agent.ToolOutput{ID: "x", Chunk: "1\n2\n"}, agent.ToolOutput{ID: "y", Chunk: "3\n"},
			agent.ReasoningDelta{Text: "hm"}, agent.TextDelta{Text: "!"}},
		eventMsg{agent.ToolFinished{ID: "x"}},
		eventsMsg{agent.TextDelta{Text: "after"}},
		eventMsg{agent.TurnDone{}},
	}
	if got, w := fmt.Sprintf("%#v", r.msgs), fmt.Sprintf("%#v", want); got != w {
		t.Fatalf("the program got\n%s\nwant\n%s", got, w)
	}
}

func TestStreamedPiecesArriveWithinAFrameWithoutWaitingForTheProgram(t *testing.T) {
	r := newReceived()
	release := make(chan struct{})
	blocked := func(msg tea.Msg) {
		<-release // the program is busy: it takes nothing yet
		r.send(msg)
	}
	c := &coalescer{send: blocked, every: time.Millisecond}
	done := make(chan struct{})
	go func() {
		for i := range 1000 {
			c.event(agent.TextDelta{Text: fmt.Sprintf("%d ", i)})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent waited for a busy program to take streamed text")
	}
	close(release)
	want := ""
	for i := range 1000 {
		want += fmt.Sprintf("%d ", i)
	}
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		var text strings.Builder
		for _, e := range r.events {
			text.WriteString(e.(agent.TextDelta).Text)
		}
		n := len(r.msgs)
		r.mu.Unlock()
		if text.String() == want {
			if n >= 1000 {
				t.Fatalf("1,000 deltas reached the program as %d messages: nothing was merged", n)
			}
			return
		}
		select {
		case <-r.got:
		case <-deadline:
			t.Fatalf("the program got %q, want all 1,000 deltas in order", text.String())
		}
	}
}

func TestATimedBatchIsNeverOvertakenByTheEventAfterIt(t *testing.T) {
	r := newReceived()
	c := &coalescer{send: r.send, every: time.Microsecond}
	const n = 2000
	for i := range n {
		c.event(agent.TextDelta{Text: fmt.Sprintf("<%d>", i)})
		if i%3 == 0 {
			c.event(agent.Notice{Message: fmt.Sprint(i)})
		}
	}
	c.event(agent.TurnDone{})
	// Every notice must come after the text sent before it and before the text sent after it.
	r.mu.Lock()
	defer r.mu.Unlock()
	var text strings.Builder
	for _, e := range r.events {
		switch e := e.(type) {
		case agent.TextDelta:
			text.WriteString(e.Text)
		case agent.Notice:
			var i int
			fmt.Sscan(e.Message, &i)
			if want := fmt.Sprintf("<%d>", i); !strings.HasSuffix(text.String(), want) {
				t.Fatalf("the notice after %s came after %q", want, text.String()[max(text.Len()-40, 0):])
			}
		}
	}
}
