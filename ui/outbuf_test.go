package ui

import (
	"slices"
	"testing"
)

// A line the bash engine redraws (a progress bar) stays one line that changes.
func TestOutBufferRedrawsTheUnfinishedLine(t *testing.T) {
	var b outBuffer
	b.Write("building\nstep 01/30")
	b.Write("\rstep 02/30")
	if got := b.Tail(5); !slices.Equal(got, []string{"building", "step 02/30"}) {
		t.Errorf("while it runs: %q", got)
	}
	b.Write("\rstep 30/30\ndone\n")
	if got := b.Tail(5); !slices.Equal(got, []string{"building", "step 30/30", "done"}) {
		t.Errorf("at the end: %q", got)
	}
}
