package agent

import (
	"slices"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

// A steering message waits for the tool boundary: the request under way does not carry it, the one after
// the call's result does, right after that result, and the event says it went.
func TestASteerReachesTheModelAtTheNextToolBoundary(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.ToolCall("call_e", "echo", `{"text":"x"}`), fakeapi.Text("Done, with printf."))
	h.agent.Steer("  use printf instead  ")
	h.agent.Steer("and be quick")
	h.run("print it")
	reqs := h.server.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, m := range reqs[0].Messages {
		if m.Content == "use printf instead" {
			t.Fatal("the steer went with the request that started the turn")
		}
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "user" || last.Content != "use printf instead\n\nand be quick" || msgs[len(msgs)-2].Role != "tool" {
		t.Fatalf("the request after the tool boundary ends with %+v after %+v", last, msgs[len(msgs)-2])
	}
	var delivered []string
	for _, e := range h.rec.all() {
		if s, ok := e.(SteerDelivered); ok {
			delivered = append(delivered, s.Text)
		}
	}
	if !slices.Equal(delivered, []string{"use printf instead", "and be quick"}) {
		t.Errorf("SteerDelivered events: %q", delivered)
	}
	if left := h.agent.TakeSteers(); len(left) != 0 {
		t.Errorf("delivered steers are still waiting: %q", left)
	}
}

// A turn that ends without another tool call leaves the steer waiting, for the caller to send as the next
// request; one taken back before the boundary never reaches the model.
func TestASteerThatFindsNoBoundaryIsHandedBack(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.ToolCall("call_e", "echo", `{"text":"x"}`), fakeapi.Text("Done."))
	h.agent.Steer("drop this")
	if !h.agent.Unsteer("drop this") || h.agent.Unsteer("drop this") {
		t.Fatal("Unsteer does not take back exactly the one waiting")
	}
	h.run("print it")
	for _, m := range h.server.Requests()[1].Messages {
		if m.Content == "drop this" {
			t.Fatal("a steer taken back reached the model")
		}
	}
	h.server.Reply(fakeapi.Text("Plain answer."))
	h.agent.Steer("too late")
	h.run("again")
	if left := h.agent.TakeSteers(); !slices.Equal(left, []string{"too late"}) {
		t.Errorf("TakeSteers = %q", left)
	}
}
