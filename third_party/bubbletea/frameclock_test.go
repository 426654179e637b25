package tea

import (
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests of the one change this copy makes to Bubble Tea v2.0.10: the renderer's clock runs only while
// there are frames to draw.

// countingRenderer counts the renderer loop's flushes and remembers the last view it was given.
type countingRenderer struct {
	nilRenderer
	flushes atomic.Int64
	mu      sync.Mutex
	last    string
	drawn   chan string
}

func (r *countingRenderer) render(v View) {
	r.mu.Lock()
	r.last = v.Content
	r.mu.Unlock()
}

func (r *countingRenderer) flush(bool) error {
	r.flushes.Add(1)
	r.mu.Lock()
	last := r.last
	r.mu.Unlock()
	select {
	case r.drawn <- last:
	default:
	}
	return nil
}

type stepModel struct{ n int }

type stepMsg struct{}

func (m stepModel) Init() Cmd { return nil }

func (m stepModel) Update(msg Msg) (Model, Cmd) {
	if _, ok := msg.(stepMsg); ok {
		m.n++
	}
	return m, nil
}

func (m stepModel) View() View { return NewView(string(rune('a' + m.n%26))) }

func startCounted(t *testing.T) (*Program, *countingRenderer) {
	t.Helper()
	r := &countingRenderer{drawn: make(chan string, 1)}
	p := NewProgram(stepModel{}, WithInput(nil), WithOutput(io.Discard), WithoutSignals(), WithWindowSize(10, 2))
	p.renderer = r
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Error(err)
		}
	}()
	t.Cleanup(func() {
		p.Quit()
		<-done
	})
	return p, r
}

// waitDrawn waits until the renderer flushes with view as its content.
func waitDrawn(t *testing.T, r *countingRenderer, view string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case got := <-r.drawn:
			if got == view {
				return
			}
		case <-deadline:
			t.Fatalf("the view %q was never drawn", view)
		}
	}
}

func TestAnIdleProgramsRendererStopsWaking(t *testing.T) {
	p, r := startCounted(t)
	p.Send(stepMsg{})
	waitDrawn(t, r, "b")
	// The tick after the last frame finds nothing new and stops the clock; allow it and one more.
	time.Sleep(50 * time.Millisecond)
	before := r.flushes.Load()
	time.Sleep(300 * time.Millisecond)
	if woke := r.flushes.Load() - before; woke > 0 {
		t.Fatalf("the renderer flushed %d times in 300 ms with nothing to draw (the published renderer: about 18)", woke)
	}
}

func TestAViewAfterIdleIsDrawnAtOnceAndABurstTogether(t *testing.T) {
	p, r := startCounted(t)
	p.Send(stepMsg{})
	waitDrawn(t, r, "b")
	time.Sleep(50 * time.Millisecond) // the clock stops
	before := r.flushes.Load()
	for range 200 {
		p.Send(stepMsg{})
	}
	// 201 steps: the last view, 'a' + 201%26.
	waitDrawn(t, r, string(rune('a'+201%26)))
	if n := r.flushes.Load() - before; n > 100 {
		t.Fatalf("200 views sent back to back took %d flushes: they were not drawn a frame at a time", n)
	}
}
