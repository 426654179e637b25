package agent

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

func TestOldToolOutputsAreElidedBeforeTheWindowOverflows(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.ContextWindow = 3000
	big := strings.Repeat("y", 3000)
	h.server.Reply(
		fakeapi.ToolCall("c1", "echo", `{"text":"`+big+`"}`),
		fakeapi.ToolCall("c2", "echo", `{"text":"`+big+`"}`),
		fakeapi.Text("done"),
	)
	done := h.run("go")
	if done.IsError {
		t.Fatalf("done = %+v", done)
	}
	last := h.toolResults(2)
	if !strings.HasPrefix(last["c1"], elidedPrefix) || !strings.Contains(last["c1"], "3006 characters") {
		t.Errorf("old output not elided: %.100q", last["c1"])
	}
	if last["c2"] != "echo: "+big {
		t.Errorf("the latest output must stay whole: %.100q", last["c2"])
	}
	c := eventsOf[ContextCompacted](h)
	if len(c) != 1 || c[0].Elided != 1 || c[0].After >= c[0].Before {
		t.Errorf("compactions = %+v", c)
	}
}

func TestOlderTurnsAreSummarisedWhenElidingIsNotEnough(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.ContextWindow = 400
	h.server.Reply(fakeapi.Text("first answer " + strings.Repeat("a", 400)))
	h.run("first request " + strings.Repeat("z", 1000))
	h.server.Reply(fakeapi.Text("- asked about z"), fakeapi.Text("second answer"))
	done := h.run("second request")
	if done.IsError || done.Text != "second answer" {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()
	summaryReq := reqs[1]
	if len(summaryReq.Tools) != 0 || !strings.Contains(summaryReq.Messages[0].Content, "summarise") ||
		!strings.Contains(summaryReq.Messages[1].Content, "first request") {
		t.Errorf("summary request = %+v", summaryReq.Messages)
	}
	final := reqs[2].Messages
	var joined []string
	for _, m := range final {
		joined = append(joined, m.Role+":"+m.Content)
	}
	all := strings.Join(joined, "\n")
	if strings.Contains(all, strings.Repeat("z", 100)) || !strings.Contains(all, "[Summary of the earlier part") ||
		!strings.Contains(all, "- asked about z") || !strings.HasSuffix(all, "user:second request") {
		t.Errorf("request after summary:\n%s", all)
	}
	if c := eventsOf[ContextCompacted](h); len(c) != 1 || c[0].Summarized != 2 {
		t.Errorf("compactions = %+v", c)
	}
}

func TestContextLengthErrorRecovers(t *testing.T) {
	for _, flavor := range fakeapi.ContextFlavors() {
		t.Run(string(flavor), func(t *testing.T) {
			h := newHarness(t, permissions.ModeDefault, nil)
			h.agent.opts.ContextWindow = 1_000_000
			big := strings.Repeat("q", 3000)
			h.server.Reply(
				fakeapi.ToolCall("c1", "echo", `{"text":"`+big+`"}`),
				fakeapi.ToolCall("c2", "echo", `{"text":"small"}`),
				fakeapi.ContextLengthExceeded(flavor),
				fakeapi.Text("recovered"),
			)
			done := h.run("go")
			if done.IsError || done.Text != "recovered" {
				t.Fatalf("done = %+v", done)
			}
			if got := h.toolResults(3)["c1"]; !strings.HasPrefix(got, elidedPrefix) {
				t.Errorf("retry after the context error was not shortened: %.80q", got)
			}
		})
	}
}

func TestUsageIsEstimatedWhenTheServerSendsNone(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.ContextWindow = 1000
	h.server.Reply(fakeapi.Text(strings.Repeat("w", 400)))
	h.run(strings.Repeat("p", 400))
	var u *UsageUpdated
	for _, ev := range h.rec.all() {
		if e, ok := ev.(UsageUpdated); ok {
			u = &e
		}
	}
	if u == nil || !u.Estimated || u.Last.PromptTokens < 100 || u.Last.CompletionTokens != 100 || u.Window != 1000 || u.Context < 200 {
		t.Errorf("usage = %+v", u)
	}
}

// When the server rejects a prompt that cannot be shortened, raising context_window cannot help: the advice
// must point at what can.
func TestUnshortenablePromptTheServerRejectsGivesAdviceThatHelps(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.ContextWindow = 128000
	h.server.Reply(fakeapi.ContextLengthExceeded(fakeapi.ContextFlavors()[0]))
	done := h.run(strings.Repeat("a long request ", 100))
	if !done.IsError || strings.Contains(done.Text, "raise context_window") || !strings.Contains(done.Text, "shorter request") {
		t.Errorf("done = %+v", done)
	}
}

// The summary request must itself fit: a window set far above the model's real one (a local server with a
// small context) ends in a context-length error, and a summary request that repeats the whole conversation
// would be rejected the same way, leaving the session at a dead end.
func TestSummaryRequestFitsWhatTheServerAccepts(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.ContextWindow = 128000
	for i := range 30 {
		h.server.Reply(fakeapi.ToolCall("w", "touch", `{"path":"`+strings.Repeat("p", 1500)+`"}`), fakeapi.Text("ok"))
		h.run(strings.Repeat("request ", 200) + string(rune('a'+i%26)))
	}
	before := len(h.server.Requests())
	h.server.Reply(fakeapi.ContextLengthExceeded(fakeapi.ContextFlavors()[0]), fakeapi.Text("- summary"), fakeapi.Text("answer"))
	done := h.run("last request")
	if done.IsError {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()[before:]
	rejected, summary := 0, 0
	for _, m := range reqs[0].Messages {
		rejected += len(m.Content)
		for _, tc := range m.ToolCalls {
			rejected += len(tc.Function.Arguments)
		}
	}
	for _, m := range reqs[1].Messages {
		summary += len(m.Content)
	}
	if summary*3 > rejected*2 {
		t.Errorf("summary request is %d characters, the rejected one was %d", summary, rejected)
	}
}

func TestSqueezeKeepsHeadAndTailWithinBounds(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "line %d é\n", i)
	}
	s := b.String()
	for _, max := range []int{40, 100, 1000, 5000} {
		got := squeeze(s, max)
		if len(got) > max+80 || !utf8.ValidString(got) || !strings.HasPrefix(got, "line 0") || !strings.HasSuffix(got, "line 999 é\n") {
			t.Errorf("squeeze(%d) = %d bytes %.60q…", max, len(got), got)
		}
	}
	if squeeze("short", 10) != "short" {
		t.Error("a short transcript must stay whole")
	}
}
