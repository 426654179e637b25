package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

// subHarness is a harness whose agent offers the task tool, with echo as its read-only tool.
func subHarness(t *testing.T, approver Approver) *harness {
	t.Helper()
	h := newHarness(t, permissions.ModeDefault, approver)
	opts := h.agent.opts
	opts.SubAgents = true
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

func TestParentGetsOnlyTheChildsSummary(t *testing.T) {
	h := subHarness(t, nil)
	h.server.Reply(
		fakeapi.ToolCall("t1", "task", `{"description":"find the config","prompt":"Where is the config loaded?","tools":["echo"]}`),
		// The child's two turns.
		fakeapi.ToolCall("c1", "echo", `{"text":"secret detail the parent must not see"}`),
		fakeapi.Text("The config is loaded in config.go:42."),
		// The parent's answer.
		fakeapi.Text("Found it."),
	)
	done := h.run("where is the config?")
	if done.IsError || done.Text != "Found it." {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()
	child := reqs[1]
	if !strings.Contains(child.Messages[0].Content, "sub-agent") || child.LastUser() != "Where is the config loaded?" {
		t.Errorf("child's first request = %+v", child.Messages)
	}
	if len(child.Tools) != 1 || child.Tools[0].Function.Name != "echo" {
		t.Errorf("child's tools = %+v", child.Tools)
	}
	parentNext := reqs[3]
	result := h.toolResults(3)["t1"]
	if !strings.HasPrefix(result, "The config is loaded in config.go:42.") || !strings.Contains(result, "- echo (c1): ok") {
		t.Errorf("task result = %q", result)
	}
	for _, m := range parentNext.Messages {
		if strings.Contains(m.Content, "secret detail") && m.Role != "tool" || strings.Contains(m.Content, "echo: secret") {
			t.Errorf("the child's tool output reached the parent: %+v", m)
		}
	}
	var childCalls []ChildEvent
	for _, ev := range h.rec.all() {
		if c, ok := ev.(ChildEvent); ok {
			if _, ok := c.Event.(ToolCallStarted); ok {
				childCalls = append(childCalls, c)
			}
		}
	}
	if len(childCalls) != 1 || childCalls[0].ParentID != "t1" || childCalls[0].Agent != "find the config" {
		t.Errorf("child events = %+v", childCalls)
	}
}

func TestChildCannotWidenItsTools(t *testing.T) {
	h := subHarness(t, nil)
	h.server.Reply(
		fakeapi.ToolCall("t1", "task", `{"description":"x","prompt":"do it","tools":["echo","launch_rockets"]}`),
		fakeapi.Text("ok"),
	)
	h.run("go")
	if got := h.toolResults(1)["t1"]; !strings.Contains(got, "not available: launch_rockets") {
		t.Errorf("result = %q", got)
	}
}

func TestDepthSixIsRefused(t *testing.T) {
	h := subHarness(t, nil)
	var replies []*fakeapi.Response
	for i := range MaxDepth + 1 {
		replies = append(replies, fakeapi.ToolCall("t"+string(rune('0'+i)), "task", `{"description":"deeper","prompt":"go deeper","tools":["task","echo"]}`))
	}
	// Depth 5 tries to start depth 6 and is refused; then every level answers.
	for range MaxDepth + 1 {
		replies = append(replies, fakeapi.Text("done"))
	}
	h.server.Reply(replies...)
	done := h.run("recurse")
	if done.IsError {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()
	refused := false
	for _, r := range reqs {
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, "at most 5 deep") {
				refused = true
			}
		}
	}
	if !refused {
		t.Error("no request carried the depth refusal")
	}
	if h.server.Pending() != 0 {
		t.Errorf("%d replies unused", h.server.Pending())
	}
}

func TestChildWriteAsksLabelledWithTheChild(t *testing.T) {
	var mu sync.Mutex
	var asked []ApprovalRequest
	h := subHarness(t, ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Approval, error) {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return Approval{Allow: false}, nil
	}))
	h.server.Reply(
		fakeapi.ToolCall("t1", "task", `{"description":"tidy notes","prompt":"create x","tools":["touch"]}`),
		fakeapi.ToolCall("c1", "touch", `{"path":"x"}`),
		fakeapi.Text("could not"),
		fakeapi.Text("ok"),
	)
	h.run("go")
	if len(asked) != 1 || asked[0].Agent != "tidy notes" || asked[0].CallID != "c1" {
		t.Fatalf("asked = %+v", asked)
	}
	if len(h.ran) != 0 {
		t.Errorf("denied write ran: %v", h.ran)
	}
}

func TestInterruptStopsParentAndChild(t *testing.T) {
	h := subHarness(t, nil)
	h.server.Reply(
		fakeapi.ToolCall("t1", "task", `{"description":"slow","prompt":"think","tools":["echo"]}`),
		fakeapi.Text("a very slow child answer").Chunk(1).Delay(time.Second),
	)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			for _, ev := range h.rec.all() {
				if c, ok := ev.(ChildEvent); ok {
					if _, ok := c.Event.(TextDelta); ok {
						cancel()
						return
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	start := time.Now()
	done := h.agent.Run(ctx, "go")
	if !done.Interrupted || time.Since(start) > 10*time.Second { // the child would stream for 24 s
		t.Fatalf("done = %+v after %v", done, time.Since(start))
	}
	if got := h.agent.Messages(); got[len(got)-1].Role != "tool" || !strings.Contains(got[len(got)-1].Content, "interrupted") {
		t.Errorf("last message = %+v", got[len(got)-1])
	}
}

// delegatedSession runs one request in which the task call taskID starts a child that calls echo as
// childID, recording the session, and returns the session as read back.
func delegatedSession(t *testing.T, taskID, childID string) *Loaded {
	t.Helper()
	dir := t.TempDir()
	st, err := CreateStore(dir, "s", "/ws", "m")
	if err != nil {
		t.Fatal(err)
	}
	h := subHarness(t, nil)
	h.agent.opts.Store = st
	h.server.Reply(
		fakeapi.ToolCall(taskID, "task", `{"description":"look","prompt":"look","tools":["echo"]}`),
		fakeapi.ToolCall(childID, "echo", `{"text":"x"}`),
		fakeapi.Text("seen"),
		fakeapi.Text("ok"),
	)
	h.run("go")
	st.Close()
	l, err := ReadSession(SessionPath(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestChildCallsAreRecordedUnderTheParent(t *testing.T) {
	l := delegatedSession(t, "t1", "c1")
	hist := History(l)
	if len(hist) != 2 || hist[0].ID != "t1" || hist[1].ID != "c1" || hist[1].Parent != "t1" || hist[1].Depth != 1 || hist[1].Agent != "look" || hist[1].Status != "ok" {
		t.Errorf("history = %+v", hist)
	}
	// The child's conversation is not part of the resumed one.
	msgs, _ := l.Conversation()
	for _, m := range msgs {
		if m.Content == "look" && m.Role == "user" {
			t.Errorf("child prompt recorded as a parent message")
		}
	}
}

// Servers number calls per conversation (call_1, call_2...), so a child's call can carry the id of the
// parent's task call; the history must still put each record on its own call.
func TestChildCallWithTheParentsCallIDKeepsBothInTheHistory(t *testing.T) {
	hist := History(delegatedSession(t, "call_1", "call_1"))
	if len(hist) != 2 || hist[0].Tool != "task" || hist[0].Status != "ok" || hist[0].Depth != 0 ||
		hist[1].Tool != "echo" || hist[1].Status != "ok" || hist[1].Depth != 1 || hist[1].Output != "echo: x" {
		t.Errorf("history = %+v", hist)
	}
}

// A session killed while a sub-agent ran: the task call is closed as interrupted on resume, and the
// child's call that never finished reads interrupted too, not running for ever.
func TestHistoryClosesAKilledChildsCallWithItsTask(t *testing.T) {
	out := "Interrupted"
	l := &Loaded{Records: []Record{
		{Type: RecToolCall, CallID: "t1", Name: "task"},
		{Type: RecToolCall, CallID: "c1", Name: "bash", Parent: "t1"},
		{Type: RecToolResult, CallID: "t1", Name: "task", Output: &out, IsError: true, Interrupted: true},
	}}
	hist := History(l)
	if len(hist) != 2 || hist[0].Status != "interrupted" || hist[1].Status != "interrupted" {
		t.Errorf("history = %+v", hist)
	}
}
