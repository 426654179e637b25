package ui

import (
	"testing"
	"time"
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
