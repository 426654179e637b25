package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/files"
)

// recorder is a Sink that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) sink(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// echoTool answers with its text argument; it touches nothing.
type echoParams struct {
	Text string `json:"text" desc:"what to echo"`
}

func echoTool() tools.Tool {
	return tools.New(tools.Spec[echoParams]{
		Name: "echo", Description: "Echo text back.",
		Access: func(env *tools.Env, p *echoParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessNone, Summary: p.Text}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *echoParams) tools.Result {
			if call.Output != nil {
				call.Output(p.Text)
			}
			return tools.Result{Output: "echo: " + p.Text}
		},
	})
}

// touchParams asks for a write so that the permission gate has something to decide.
type touchParams struct {
	Path string `json:"path"`
}

type harness struct {
	t      *testing.T
	server *fakeapi.Server
	rec    *recorder
	agent  *Agent
	ran    []string
}

func newHarness(t *testing.T, mode permissions.Mode, approver Approver, configure ...func(o *Options, ws string)) *harness {
	t.Helper()
	h := &harness{t: t, server: fakeapi.New(), rec: &recorder{}}
	t.Cleanup(h.server.Close)
	ws := t.TempDir()
	engine, err := permissions.NewEngine(permissions.Policy{Mode: mode, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	touch := tools.New(tools.Spec[touchParams]{
		Name: "touch", Description: "Create a file.",
		Access: func(env *tools.Env, p *touchParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessWrite, Path: p.Path, Cwd: env.Cwd(), Summary: p.Path}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *touchParams) tools.Result {
			mu.Lock()
			h.ran = append(h.ran, p.Path)
			mu.Unlock()
			return tools.Result{Output: "created " + p.Path}
		},
	})
	if approver == nil {
		approver = HeadlessApprover{}
	}
	opts := Options{
		Provider: NewProvider(h.server.URL(), "sk-test", "fake-model"),
		Tools:    tools.NewRegistry(echoTool(), touch),
		Env:      tools.NewEnv(ws, t.TempDir()),
		Engine:   engine,
		Approver: approver,
		Sink:     h.rec.sink,
		System:   "system prompt",
		MaxSteps: 5,
		Retry:    RetryPolicy{Attempts: 3, Base: 10 * time.Millisecond, Max: 50 * time.Millisecond, MaxRetryAfter: 5 * time.Second},
	}
	for _, c := range configure {
		c(&opts, ws)
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	return h
}

func (h *harness) run(prompt string) TurnDone {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return h.agent.Run(ctx, prompt)
}

// toolResults returns the tool messages of the request at index i.
func (h *harness) toolResults(i int) map[string]string {
	h.t.Helper()
	reqs := h.server.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("only %d requests", len(reqs))
	}
	out := map[string]string{}
	for _, m := range reqs[i].Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

func TestLoopRunsToolsAndAnswers(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(
		fakeapi.ToolCall("call_a", "echo", `{"text":"hi"}`).ToolCall("call_b", "echo", `{"text":"there"}`).Chunk(3).Usage(10, 2),
		fakeapi.Text("Both echoed.").Usage(20, 3),
	)
	done := h.run("echo twice")
	if done.IsError || done.Text != "Both echoed." || done.Turns != 2 {
		t.Fatalf("done = %+v", done)
	}
	if done.Usage != (Usage{PromptTokens: 30, CompletionTokens: 5}) {
		t.Errorf("usage = %+v", done.Usage)
	}
	got := h.toolResults(1)
	if got["call_a"] != "echo: hi" || got["call_b"] != "echo: there" {
		t.Errorf("tool results sent back = %v", got)
	}
	reqs := h.server.Requests()
	if reqs[0].Messages[0].Role != "system" || reqs[0].Messages[1].Content != "echo twice" {
		t.Errorf("first request messages = %+v", reqs[0].Messages)
	}
	if len(reqs[0].Tools) != 2 {
		t.Errorf("tools offered = %d", len(reqs[0].Tools))
	}
	var outputs []string
	for _, ev := range h.rec.all() {
		if o, ok := ev.(ToolOutput); ok {
			outputs = append(outputs, o.ID+"="+o.Chunk)
		}
	}
	// Both calls touch nothing, so they run at the same time and their output may interleave.
	sort.Strings(outputs)
	if strings.Join(outputs, ",") != "call_a=hi,call_b=there" {
		t.Errorf("live output events = %v", outputs)
	}
}

// Every provider quirk must end in the same assembled call and a valid next request.
func TestProviderQuirksAssembleTheSameCall(t *testing.T) {
	call := func() *fakeapi.Response { return fakeapi.ToolCall("q1", "echo", `{"text":"quirk"}`) }
	cases := map[string]*fakeapi.Response{
		"chunked":            call().Chunk(2),
		"omit index":         call().Chunk(2).OmitIndex(),
		"empty ids":          call().Chunk(2).EmptyIDs(),
		"args as object":     call().ArgsAsObject(),
		"one chunk":          call().CallsInOneChunk(),
		"stop finish reason": call().Chunk(4).Finish("stop"),
		"usage only chunk":   call().Usage(5, 5),
		"keep-alive":         call().KeepAlive(400, 0),
		"keep-alive between": call().Chunk(3).InsertEvent(1, ": keep-alive").InsertEvent(2, "event: ping"),
		"reasoning field":    call().Reasoning("let me think").ReasoningField("reasoning"),
		"no done":            call().NoDone(),
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, permissions.ModeDefault, nil)
			h.server.Reply(resp, fakeapi.Text("done"))
			done := h.run("go")
			if done.IsError || done.Text != "done" {
				t.Fatalf("done = %+v", done)
			}
			if got := h.toolResults(1)["q1"]; got != "echo: quirk" {
				t.Errorf("result for q1 = %q", got)
			}
		})
	}
}

func TestParallelCallsQuirks(t *testing.T) {
	for name, resp := range map[string]*fakeapi.Response{
		"same index":  fakeapi.ToolCall("p1", "echo", `{"text":"one"}`).ToolCall("p2", "echo", `{"text":"two"}`).SameIndex(),
		"interleaved": fakeapi.ToolCall("p1", "echo", `{"text":"one"}`).ToolCall("p2", "echo", `{"text":"two"}`).Chunk(2).Interleave(),
		"one chunk":   fakeapi.ToolCall("p1", "echo", `{"text":"one"}`).ToolCall("p2", "echo", `{"text":"two"}`).CallsInOneChunk(),
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, permissions.ModeDefault, nil)
			h.server.Reply(resp, fakeapi.Text("ok"))
			if done := h.run("go"); done.IsError {
				t.Fatalf("done = %+v", done)
			}
			got := h.toolResults(1)
			if got["p1"] != "echo: one" || got["p2"] != "echo: two" {
				t.Errorf("results = %v", got)
			}
		})
	}
}

func TestReasoningIsEchoedBack(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Reasoning("pondering").ToolCall("r1", "echo", `{"text":"x"}`), fakeapi.Text("fine"))
	h.run("go")
	msgs := h.server.Requests()[1].Messages
	var found bool
	for _, m := range msgs {
		if m.Role == "assistant" && m.ReasoningContent == "pondering" {
			found = true
		}
	}
	if !found {
		t.Errorf("reasoning not sent back: %+v", msgs)
	}
}

func TestProviderFailuresAreClearErrors(t *testing.T) {
	cases := []struct {
		name string
		resp *fakeapi.Response
		kind ErrKind
		want string
	}{
		{"cut stream", fakeapi.Text("half an answer").Chunk(2).CutAfter(2), ErrCutStream, "connection cut"},
		{"clean end without finish", fakeapi.Text("half").Chunk(1).EndAfter(2), ErrCutStream, "before the model finished"},
		{"error in stream", fakeapi.Text("a").StreamError("model overloaded"), ErrServer, "model overloaded"},
		{"error event", fakeapi.StreamError("upstream timeout").ErrorEvent(), ErrServer, "upstream timeout"},
		{"garbage body", fakeapi.Garbage("<html>oops</html>"), "", "cannot read"},
		{"garbage data line", fakeapi.Text("abc").Chunk(1).InsertEvent(1, "data: {not json"), ErrBadResponse, "not JSON"},
		{"401", fakeapi.Unauthorized(), ErrAuth, "OPENAI_API_KEY"},
		{"429", fakeapi.RateLimited(2 * time.Second), ErrRateLimit, "rate limited"},
		{"500", fakeapi.HTTPError(500, "boom"), ErrServer, "HTTP 500"},
		{"404", fakeapi.HTTPError(404, "model not found"), ErrNotFound, "--model"},
	}
	for _, f := range fakeapi.ContextFlavors() {
		cases = append(cases, struct {
			name string
			resp *fakeapi.Response
			kind ErrKind
			want string
		}{"context " + string(f), fakeapi.ContextLengthExceeded(f), ErrContextLength, "context window"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, permissions.ModeDefault, nil)
			h.server.Reply(tc.resp)
			p := NewProvider(h.server.URL(), "sk", "m")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := p.Stream(ctx, nil, nil, nil)
			var pe *ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want a ProviderError", err, err)
			}
			if tc.kind != "" && pe.Kind != tc.kind {
				t.Errorf("kind = %s, want %s (%v)", pe.Kind, tc.kind, pe)
			}
			if !strings.Contains(pe.Message, tc.want) {
				t.Errorf("message %q does not contain %q", pe.Message, tc.want)
			}
			if strings.Contains(pe.Message, "\n") {
				t.Errorf("message is not one line: %q", pe.Message)
			}
		})
	}
}

func TestRetryAfterIsKept(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.RateLimited(3 * time.Second))
	_, err := NewProvider(h.server.URL(), "", "m").Stream(context.Background(), nil, nil, nil)
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.RetryAfter != 3*time.Second || !pe.Retryable {
		t.Fatalf("err = %+v", err)
	}
}

func TestProviderErrorEndsTheTurnWithANotice(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Unauthorized())
	done := h.run("hello")
	if !done.IsError || !strings.Contains(done.Text, "API key") {
		t.Fatalf("done = %+v", done)
	}
	var notices int
	for _, ev := range h.rec.all() {
		if _, ok := ev.(Notice); ok {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("notices = %d", notices)
	}
}

func TestBadToolCallsBecomeErrorResultsAndTheLoopGoesOn(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(
		fakeapi.ToolCall("u1", "launch_rockets", `{}`).
			ToolCall("m1", "echo", `{"text": unterminated`).
			ToolCall("w1", "echo", `{"text": 5}`).
			ToolCall("x1", "echo", `{}`),
		fakeapi.Text("sorry"),
	)
	done := h.run("go")
	if done.IsError || done.Text != "sorry" {
		t.Fatalf("done = %+v", done)
	}
	got := h.toolResults(1)
	want := map[string]string{
		"u1": `Unknown tool "launch_rockets"`,
		"m1": "not valid JSON",
		"w1": `argument "text" must be of type string`,
		"x1": `missing required argument "text"`,
	}
	for id, w := range want {
		if !strings.Contains(got[id], w) {
			t.Errorf("%s: result %q, want it to contain %q", id, got[id], w)
		}
	}
}

func TestStepCapStopsAndSaysSo(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	for i := range 5 {
		h.server.Reply(fakeapi.ToolCall("c"+string(rune('0'+i)), "echo", `{"text":"again"}`))
	}
	done := h.run("loop forever")
	if !done.IsError || !strings.Contains(done.Text, "Stopped after 5 steps") || done.Turns != 5 {
		t.Fatalf("done = %+v", done)
	}
	if n := len(h.server.Requests()); n != 5 {
		t.Errorf("requests = %d", n)
	}
}

func TestHeadlessDeniesWhatWouldAsk(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.ToolCall("t1", "touch", `{"path":"x.txt"}`), fakeapi.Text("could not"))
	h.run("make a file")
	if len(h.ran) != 0 {
		t.Fatalf("the write ran without approval: %v", h.ran)
	}
	if got := h.toolResults(1)["t1"]; !strings.Contains(got, "headless") {
		t.Errorf("model was told %q", got)
	}
	var decided []PermissionDecided
	for _, ev := range h.rec.all() {
		if p, ok := ev.(PermissionDecided); ok {
			decided = append(decided, p)
		}
	}
	if len(decided) != 1 || decided[0].Decision != permissions.Deny || decided[0].By != "policy" {
		t.Errorf("permission events = %+v", decided)
	}
}

func TestApproverAnswersReachTheModel(t *testing.T) {
	var asked []ApprovalRequest
	answers := []Approval{{Allow: false, Message: "use a temp dir"}, {Allow: true}}
	approver := ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Approval, error) {
		asked = append(asked, req)
		a := answers[0]
		answers = answers[1:]
		return a, nil
	})
	h := newHarness(t, permissions.ModeDefault, approver)
	h.server.Reply(
		fakeapi.ToolCall("t1", "touch", `{"path":"x.txt"}`),
		fakeapi.ToolCall("t2", "touch", `{"path":"/tmp/y.txt"}`),
		fakeapi.Text("done"),
	)
	h.run("make a file")
	if len(asked) != 2 || asked[0].Access.Path != "x.txt" {
		t.Fatalf("asked = %+v", asked)
	}
	if got := h.toolResults(1)["t1"]; !strings.Contains(got, "use a temp dir") {
		t.Errorf("denial message not passed on: %q", got)
	}
	if len(h.ran) != 1 || h.ran[0] != "/tmp/y.txt" {
		t.Errorf("ran = %v", h.ran)
	}
}

func TestInterruptWhileStreamingEndsTheTurn(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Text("slow answer").Chunk(1).Delay(time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			for _, ev := range h.rec.all() {
				if _, ok := ev.(TextDelta); ok {
					cancel()
					return
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	start := time.Now()
	done := h.agent.Run(ctx, "go")
	if !done.Interrupted {
		t.Fatalf("done = %+v", done)
	}
	if time.Since(start) > 8*time.Second { // the answer would stream for 11 s
		t.Errorf("interrupt took %v", time.Since(start))
	}
	// What streamed before the interrupt was on the screen: the conversation keeps it.
	msgs := h.agent.Messages()
	last := msgs[len(msgs)-1]
	if last.Role != "assistant" || !strings.HasPrefix(last.Content, "s") || !strings.HasSuffix(last.Content, "[interrupted by the user]") {
		t.Errorf("last message = %+v", last)
	}
}

func TestInterruptDuringApprovalClosesEveryCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	approver := ApproverFunc(func(actx context.Context, req ApprovalRequest) (Approval, error) {
		cancel()
		<-actx.Done()
		return Approval{}, actx.Err()
	})
	h := newHarness(t, permissions.ModeDefault, approver)
	h.server.Reply(fakeapi.ToolCall("t1", "touch", `{"path":"a"}`).ToolCall("t2", "echo", `{"text":"b"}`))
	done := h.agent.Run(ctx, "go")
	if !done.Interrupted || len(h.ran) != 0 {
		t.Fatalf("done = %+v ran = %v", done, h.ran)
	}
	// The conversation must stay valid: every call has a result.
	msgs := h.agent.Messages()
	results := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "tool" {
			results[m.ToolCallID] = true
		}
	}
	if !results["t1"] || !results["t2"] {
		t.Errorf("calls without results: %v", results)
	}
}

func TestStreamJSONEventShapes(t *testing.T) {
	exit := 0
	cases := []struct {
		ev   Event
		want string
	}{
		{SessionStarted{ID: "s", Cwd: "/w", Model: "m"}, `{"cwd":"/w","id":"s","model":"m","type":"session"}`},
		{AssistantText{Text: "hi"}, `{"text":"hi","type":"text"}`},
		{ToolCallStarted{ID: "c", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}, `{"id":"c","input":{"command":"ls"},"name":"bash","type":"tool_call"}`},
		// Arguments that are not a JSON object (the model's mistake) still give an object, as §3 says.
		{ToolCallStarted{ID: "c", Name: "bash", Input: json.RawMessage(`"{\"command\":"`)}, `{"id":"c","input":{},"name":"bash","type":"tool_call"}`},
		{ToolCallStarted{ID: "c", Name: "bash", Input: json.RawMessage(`[1]`)}, `{"id":"c","input":{},"name":"bash","type":"tool_call"}`},
		{ToolCallStarted{ID: "c", Name: "bash", Input: json.RawMessage(`null`)}, `{"id":"c","input":{},"name":"bash","type":"tool_call"}`},
		{PermissionDecided{ID: "c", Decision: permissions.Allow, By: "readonly", Reason: "r"}, `{"by":"readonly","decision":"allow","id":"c","reason":"r","type":"permission"}`},
		{ToolFinished{ID: "c", Result: tools.Result{Output: "o", ExitCode: &exit}, Duration: 5 * time.Millisecond}, `{"duration_ms":5,"exit_code":0,"id":"c","is_error":false,"output":"o","type":"tool_result"}`},
		{Notice{Message: "m", Retrying: true}, `{"message":"m","retrying":true,"type":"error"}`},
		// Warden's own fields, and Claude Code's names beside them.
		{TurnDone{Text: "t", Turns: 2, Usage: Usage{1, 2}}, `{"is_error":false,"num_turns":2,"result":"t","text":"t","turns":2,"type":"result","usage":{"completion_tokens":2,"input_tokens":1,"output_tokens":2,"prompt_tokens":1}}`},
		{TurnDone{Text: "p", Plan: "p", Turns: 1}, `{"is_error":false,"num_turns":1,"plan":"p","result":"p","text":"p","turns":1,"type":"result","usage":{"completion_tokens":0,"input_tokens":0,"output_tokens":0,"prompt_tokens":0}}`},
		{PlanPresented{CallID: "c", Plan: "p"}, `{"id":"c","plan":"p","type":"plan"}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(StreamJSON(tc.ev))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%T:\n got %s\nwant %s", tc.ev, b, tc.want)
		}
	}
	if StreamJSON(TextDelta{Text: "x"}) != nil || StreamJSON(ToolOutput{}) != nil {
		t.Error("deltas must not be printed")
	}
}

// eventsOf returns the events of type T the harness's sink received, in order.
func eventsOf[T Event](h *harness) []T {
	var out []T
	for _, ev := range h.rec.all() {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestRateLimitsAreRetriedHonouringRetryAfter(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.RateLimited(time.Second), fakeapi.RateLimited(time.Second), fakeapi.Text("finally"))
	start := time.Now()
	done := h.run("hi")
	if done.IsError || done.Text != "finally" {
		t.Fatalf("done = %+v", done)
	}
	if el := time.Since(start); el < 2*time.Second {
		t.Errorf("finished after %v: Retry-After: 1 was not honoured twice", el)
	}
	n := eventsOf[Notice](h)
	if len(n) != 2 || !n[0].Retrying || !strings.Contains(n[0].Message, "retrying in 1s") || !strings.Contains(n[0].Message, "rate limited") {
		t.Errorf("notices = %+v", n)
	}
}

func TestCutStreamIsRetried(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Text("a long answer that breaks").Chunk(3).CutAfter(2), fakeapi.Text("whole answer"))
	done := h.run("hi")
	if done.IsError || done.Text != "whole answer" {
		t.Fatalf("done = %+v", done)
	}
	if len(h.server.Requests()) != 2 {
		t.Errorf("requests = %d", len(h.server.Requests()))
	}
}

func TestServerErrorStormEndsInAClearError(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.HTTPError(500, "boom"), fakeapi.HTTPError(502, "bad gateway"), fakeapi.HTTPError(503, "overloaded"))
	done := h.run("hi")
	if !done.IsError || !strings.Contains(done.Text, "HTTP 503") || !strings.Contains(done.Text, "gave up after 3 attempts") {
		t.Fatalf("done = %+v", done)
	}
	if n := h.server.Pending(); n != 0 {
		t.Errorf("%d scripted responses unused", n)
	}
	notices := eventsOf[Notice](h)
	if len(notices) != 3 || notices[2].Retrying {
		t.Errorf("notices = %+v", notices)
	}
}

func TestAuthErrorsAreNotRetried(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(fakeapi.Unauthorized(), fakeapi.Text("never"))
	h.run("hi")
	if len(h.server.Requests()) != 1 {
		t.Errorf("a refused key was retried: %d requests", len(h.server.Requests()))
	}
}

type slowReadParams struct {
	Path string `json:"path"`
}

func TestReadOnlyCallsOfATurnRunConcurrentlyAndInOrder(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Approval, error) {
		if req.Access.Kind == tools.AccessRead {
			t.Errorf("a read inside the workspace was asked about: %+v", req.Access)
		}
		return Approval{Allow: true}, nil
	}))
	var mu sync.Mutex
	var active, peak int
	slow := tools.New(tools.Spec[slowReadParams]{
		Name: "slow_read", Description: "Read slowly.",
		Access: func(env *tools.Env, p *slowReadParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessRead, Path: p.Path, Cwd: env.Cwd(), Summary: p.Path}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *slowReadParams) tools.Result {
			mu.Lock()
			active++
			peak = max(peak, active)
			mu.Unlock()
			time.Sleep(200 * time.Millisecond)
			mu.Lock()
			active--
			mu.Unlock()
			return tools.Result{Output: "read " + p.Path}
		},
	})
	h.agent.tools = tools.NewRegistry(slow, echoTool(), h.agent.tools.Subset("touch").Tools()[0])
	h.server.Reply(
		fakeapi.ToolCall("r1", "slow_read", `{"path":"a"}`).ToolCall("r2", "slow_read", `{"path":"b"}`).
			ToolCall("r3", "slow_read", `{"path":"c"}`).ToolCall("w1", "touch", `{"path":"d"}`).
			ToolCall("r4", "slow_read", `{"path":"e"}`),
		fakeapi.Text("ok"),
	)
	h.run("read them")
	if peak != 3 {
		t.Errorf("at most %d reads ran at once, want the first three together", peak)
	}
	var order []string
	for _, m := range h.server.Requests()[1].Messages {
		if m.Role == "tool" {
			order = append(order, m.ToolCallID)
		}
	}
	if strings.Join(order, ",") != "r1,r2,r3,w1,r4" {
		t.Errorf("results in order %v", order)
	}
}

type boomParams struct{}

func TestAPanickingToolFailsItsCallNotTheSession(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	boom := tools.New(tools.Spec[boomParams]{
		Name: "boom", Description: "Panics.",
		Access: func(env *tools.Env, p *boomParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessNone}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *boomParams) tools.Result {
			panic("kaboom")
		},
	})
	h.agent.tools = tools.NewRegistry(boom)
	h.server.Reply(fakeapi.ToolCall("b1", "boom", `{}`), fakeapi.Text("survived"))
	done := h.run("go")
	if done.IsError || done.Text != "survived" {
		t.Fatalf("done = %+v", done)
	}
	if got := h.toolResults(1)["b1"]; !strings.Contains(got, "kaboom") || !strings.Contains(got, "bug in Warden") {
		t.Errorf("result = %q", got)
	}
}

// finish_reason "length" means the server cut the answer at its output limit: the person is told, and a
// call whose arguments were cut tells the model why, so that it can send less rather than retry the same.
func TestAnswerCutAtTheOutputLimitIsReported(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil)
	h.server.Reply(
		fakeapi.ToolCall("c1", "echo", `{"text":"a very long te`).Finish("length"),
		fakeapi.Text("I was saying that the answ").Finish("length"),
	)
	done := h.run("go")
	if got := h.toolResults(1)["c1"]; !strings.Contains(got, "output limit") {
		t.Errorf("result for the cut call = %q", got)
	}
	ns := eventsOf[Notice](h)
	if len(ns) != 2 || !strings.Contains(ns[0].Message, "output limit") || !strings.Contains(ns[1].Message, "output limit") {
		t.Errorf("notices = %+v", ns)
	}
	if done.Text != "I was saying that the answ" {
		t.Errorf("done = %+v", done)
	}
}

type chdirParams struct {
	Dir string `json:"dir"`
}

// A call is decided where it will run: after an earlier call of the same turn moved the working directory
// out of the workspace, a relative write is outside it too, and accept-edits must not allow it.
func TestCallsAreDecidedAfterTheCallsBeforeThemRan(t *testing.T) {
	h := newHarness(t, permissions.ModeAcceptEdits, nil)
	outside := t.TempDir()
	chdir := tools.New(tools.Spec[chdirParams]{
		Name: "chdir", Description: "Change directory.",
		Access: func(env *tools.Env, p *chdirParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessNone, Summary: p.Dir}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *chdirParams) tools.Result {
			env.SetCwd(p.Dir)
			return tools.Result{Output: "now in " + p.Dir}
		},
	})
	opts := h.agent.opts
	opts.Tools = tools.NewRegistry(append(opts.Tools.Tools(), chdir)...)
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	h.server.Reply(
		fakeapi.ToolCall("c1", "chdir", `{"dir":"`+outside+`"}`).ToolCall("c2", "touch", `{"path":"x"}`),
		fakeapi.Text("done"),
	)
	h.run("go")
	if len(h.ran) != 0 {
		t.Errorf("a write outside the workspace ran unasked: %v", h.ran)
	}
	for _, ev := range h.rec.all() {
		if p, ok := ev.(PermissionDecided); ok && p.ID == "c2" && (p.Decision != permissions.Deny || p.By != "policy") {
			t.Errorf("c2 decided %+v", p)
		}
	}
}

// The person may take minutes to answer; what they approved is what gets written, or nothing is.
func TestAWriteRunsOnlyAsApproved(t *testing.T) {
	var ws string
	var onAsk func()
	h := newHarness(t, permissions.ModeDefault, ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Approval, error) {
		onAsk()
		return Approval{Allow: true}, nil
	}))
	ws = h.agent.opts.Env.Workspace
	opts := h.agent.opts
	opts.Tools = tools.NewRegistry(files.NewTools()...)
	opts.Env = tools.NewEnv(ws, t.TempDir())
	opts.Env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, t.TempDir()) }
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	notes := filepath.Join(ws, "notes.txt")
	if err := os.WriteFile(notes, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The person edits the file while the prompt is open.
	onAsk = func() { os.WriteFile(notes, []byte("mine\n"), 0o644) }
	h.server.Reply(fakeapi.ToolCall("w1", "write_file", `{"path":"notes.txt","content":"model\n"}`), fakeapi.Text("done"))
	h.run("write notes")
	if got, _ := os.ReadFile(notes); string(got) != "mine\n" {
		t.Errorf("the person's edit was overwritten: %q", got)
	}
	if r := h.toolResults(1)["w1"]; !strings.Contains(r, "changed on disk after the change was shown") {
		t.Errorf("result = %q", r)
	}

	// A directory in the path is swapped for a link elsewhere while the prompt is open.
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	onAsk = func() {
		os.Remove(filepath.Join(ws, "out"))
		os.Symlink(outside, filepath.Join(ws, "out"))
	}
	h.server.Reply(fakeapi.ToolCall("w2", "write_file", `{"path":"out/f.txt","content":"x"}`), fakeapi.Text("done"))
	h.run("write out/f.txt")
	if _, err := os.Stat(filepath.Join(outside, "f.txt")); err == nil {
		t.Error("the write followed a link swapped in after approval")
	}
	if r := h.toolResults(3)["w2"]; !strings.Contains(r, "not to "+filepath.Join(ws, "out", "f.txt")) {
		t.Errorf("result = %q", r)
	}

	// Untouched, the approved write happens.
	onAsk = func() {}
	h.server.Reply(fakeapi.ToolCall("w3", "write_file", `{"path":"notes.txt","content":"model\n"}`), fakeapi.Text("done"))
	h.run("write notes again")
	if got, _ := os.ReadFile(notes); string(got) != "model\n" {
		t.Errorf("the approved write did not happen: %q", got)
	}
}
