package ui

import (
	"strings"
	"testing"
)

// The start-up work the first frame need not wait for runs after it: the prompt is drawn while Settle is
// still busy, and what Settle finds then completes the header and is told once.
func TestSettleRunsAfterTheFirstFrame(t *testing.T) {
	release := make(chan struct{})
	a := startAppWith(t, newSetup(t), func(o *Options) {
		o.Settle = func() (string, []string) {
			<-release
			return "wall: bubblewrap", []string{"stopped 2 processes left running by a Warden that was killed"}
		}
	}, nil)
	s := a.waitFor("Ask Warden", "Warden · fake-model")
	if strings.Contains(s, "wall:") {
		t.Fatalf("the header names a wall before Settle said which:\n%s", s)
	}
	close(release)
	s = a.waitFor("wall: bubblewrap", "stopped 2 processes left running")
	if n := strings.Count(s, "wall: bubblewrap"); n != 1 {
		t.Errorf("the wall is named %d times:\n%s", n, s)
	}
}
