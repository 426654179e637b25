package ui

import (
	"testing"
	"time"

	"github.com/warden-cli/warden/agent"
)

func TestTheRunningClockChangesTheScreenOnlyWithTheSpinner(t *testing.T) {
	start := time.Date(2026, 1, 1, 9, 0, 0, 37_000_000, time.UTC) // off the spinner's grid
	seen := map[string]bool{}
	for ms := range 1000 {
		now := start.Add(time.Duration(ms) * time.Millisecond)
		seen[spinnerFrame(now)+" working "+liveDuration(now, start)] = true
	}
	// A second holds ten spinner steps, and so eleven states at most over a second that starts off the grid.
	if len(seen) > 11 {
		t.Fatalf("over one second the spinner and the clock showed %d different states; a frame each time", len(seen))
	}
	if got := liveDuration(start.Add(1500*time.Millisecond), start); got != "1.5s" {
		t.Fatalf("1.5 s after the start the clock reads %q", got)
	}
}

func TestAStreamingAnswerAndTheSpinnerChangeTheScreenInTheSameFrames(t *testing.T) {
	m, clock := newTestModel(t, 100, 30)
	clock.t = clock.t.Add(37 * time.Millisecond) // off the clock's grid
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: clock.t}
	screens := map[string]bool{}
	for i := range 60 { // a second of frames, a word each
		clock.t = clock.t.Add(time.Second / 60)
		text := "word "
		if i%8 == 7 {
			text = "word\n\n"
		}
		send(m, agent.TextDelta{Text: text})
		screens[m.View().Content] = true
	}
	// Ten steps of the clock in a second, eleven screens at most when it starts off the grid.
	if len(screens) > 11 {
		t.Fatalf("a second of streaming drew %d different screens", len(screens))
	}
}
