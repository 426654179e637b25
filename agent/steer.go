package agent

import (
	"slices"
	"strings"
)

// Steering: a message the person types while the agent works, meant for the turn under way rather than
// for after it. It waits here until the next tool boundary, when the calls of a model turn have all
// returned, and goes to the model in a user message right after their results, as the person's own words
// (with any notes waiting beside it), before the model's next request. A turn that ends without another
// tool call leaves it undelivered: TakeSteers hands it back, and the caller sends it as the next request.

// SteerDelivered reports a steering message that reached the model, at a tool boundary.
type SteerDelivered struct{ Text string }

func (SteerDelivered) isEvent() {}

// Steer queues text for the model's next tool boundary. It may be called from any goroutine.
func (a *Agent) Steer(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	a.steerMu.Lock()
	defer a.steerMu.Unlock()
	a.steers = append(a.steers, text)
}

// Unsteer takes back the last waiting steering message equal to text, and reports whether one was still
// waiting (false once it reached the model).
func (a *Agent) Unsteer(text string) bool {
	a.steerMu.Lock()
	defer a.steerMu.Unlock()
	text = strings.TrimSpace(text)
	for i := len(a.steers) - 1; i >= 0; i-- {
		if a.steers[i] == text {
			a.steers = slices.Delete(a.steers, i, i+1)
			return true
		}
	}
	return false
}

// TakeSteers returns the steering messages that never reached the model and forgets them.
func (a *Agent) TakeSteers() []string {
	a.steerMu.Lock()
	defer a.steerMu.Unlock()
	s := a.steers
	a.steers = nil
	return s
}
