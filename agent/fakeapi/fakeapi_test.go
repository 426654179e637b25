package fakeapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// sse is one server-sent event as a client sees it.
type sse struct {
	comment string // a ": ..." line
	name    string // the "event:" field
	data    string
}

type result struct {
	status  int
	header  http.Header
	body    string
	readErr error
	events  []sse
}

// data returns the data of every event that has some, in order.
func (r result) data() []string {
	var out []string
	for _, e := range r.events {
		if e.data != "" {
			out = append(out, e.data)
		}
	}
	return out
}

// chunks decodes every data event except [DONE].
func (r result) chunks(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range r.data() {
		if d == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("data line is not JSON: %q: %v", d, err)
		}
		out = append(out, m)
	}
	return out
}

// deltas returns the delta of each chunk that has a choice.
func (r result) deltas(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, c := range r.chunks(t) {
		if ch, _ := c["choices"].([]any); len(ch) > 0 {
			out = append(out, ch[0].(map[string]any)["delta"].(map[string]any))
		}
	}
	return out
}

// toolCalls returns every tool-call delta in order.
func (r result) toolCalls(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range r.deltas(t) {
		tcs, _ := d["tool_calls"].([]any)
		for _, tc := range tcs {
			out = append(out, tc.(map[string]any))
		}
	}
	return out
}

func (r result) finishReasons(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, c := range r.chunks(t) {
		if ch, _ := c["choices"].([]any); len(ch) > 0 {
			if f, ok := ch[0].(map[string]any)["finish_reason"].(string); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

func parseSSE(body string) []sse {
	var out []sse
	var cur sse
	for _, line := range strings.Split(body, "\n") {
		switch {
		case line == "":
			if cur != (sse{}) {
				out = append(out, cur)
			}
			cur = sse{}
		case strings.HasPrefix(line, ":"):
			out = append(out, sse{comment: strings.TrimSpace(line[1:])})
		case strings.HasPrefix(line, "event:"):
			cur.name = strings.TrimSpace(line[len("event:"):])
		case strings.HasPrefix(line, "data:"):
			cur.data = strings.TrimSpace(line[len("data:"):])
		}
	}
	if cur != (sse{}) {
		out = append(out, cur)
	}
	return out
}

func chatBody(stream bool, user string) string {
	return fmt.Sprintf(`{"model":"m1","stream":%t,"messages":[{"role":"user","content":%q}]}`, stream, user)
}

func post(t *testing.T, ctx context.Context, s *fakeapi.Server, body string) result {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, readErr := io.ReadAll(resp.Body)
	return result{status: resp.StatusCode, header: resp.Header, body: string(b), readErr: readErr, events: parseSSE(string(b))}
}

// serve answers one request with r and returns what the client saw.
func serve(t *testing.T, stream bool, r *fakeapi.Response) result {
	t.Helper()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	s.Reply(r)
	return post(t, t.Context(), s, chatBody(stream, "hi"))
}

func TestTextStreamsInDeltasAndEndsWithFinishAndDone(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Text("hello world").Chunk(3))
	if res.status != 200 || res.readErr != nil {
		t.Fatalf("status %d, read error %v", res.status, res.readErr)
	}
	if ct := res.header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	var text []string
	for _, d := range res.deltas(t) {
		if c, ok := d["content"].(string); ok {
			text = append(text, c)
		}
	}
	if want := []string{"hel", "lo ", "wor", "ld"}; !reflect.DeepEqual(text, want) {
		t.Errorf("content deltas = %q, want %q", text, want)
	}
	if role := res.deltas(t)[0]["role"]; role != "assistant" {
		t.Errorf("first delta role = %v", role)
	}
	if got := res.finishReasons(t); !reflect.DeepEqual(got, []string{"stop"}) {
		t.Errorf("finish reasons = %q", got)
	}
	if d := res.data(); d[len(d)-1] != "[DONE]" {
		t.Errorf("last data = %q, want [DONE]", d[len(d)-1])
	}
	for _, c := range res.chunks(t) {
		if c["model"] != "m1" || c["object"] != "chat.completion.chunk" {
			t.Errorf("chunk model/object = %v/%v", c["model"], c["object"])
		}
	}
}

func TestNonStreamingRequestGetsOneCompletion(t *testing.T) {
	t.Parallel()
	res := serve(t, false, fakeapi.Text("Let me check.").ToolCall("call_1", "bash", `{"command":"ls"}`).Usage(10, 3).Chunk(2))
	var body struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Role      string `json:"role"`
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage fakeapi.Usage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(res.body), &body); err != nil {
		t.Fatalf("body %q: %v", res.body, err)
	}
	m := body.Choices[0].Message
	if body.Object != "chat.completion" || m.Role != "assistant" || m.Content != "Let me check." {
		t.Errorf("object %q role %q content %q", body.Object, m.Role, m.Content)
	}
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call_1" || m.ToolCalls[0].Function.Arguments != `{"command":"ls"}` {
		t.Errorf("tool calls = %+v", m.ToolCalls)
	}
	if body.Choices[0].FinishReason != "tool_calls" || body.Usage.TotalTokens != 13 {
		t.Errorf("finish %q usage %+v", body.Choices[0].FinishReason, body.Usage)
	}
}

func TestToolCallArgumentsSplitAcrossDeltas(t *testing.T) {
	t.Parallel()
	args := `{"command":"ls -la","timeout":5}`
	res := serve(t, true, fakeapi.ToolCall("call_a", "bash", args).Chunk(4))
	tcs := res.toolCalls(t)
	if len(tcs) < 5 {
		t.Fatalf("only %d tool-call deltas", len(tcs))
	}
	head := tcs[0]
	fn := head["function"].(map[string]any)
	if head["id"] != "call_a" || head["type"] != "function" || fn["name"] != "bash" || fn["arguments"] != "" {
		t.Errorf("first delta = %v", head)
	}
	var b strings.Builder
	for _, tc := range tcs[1:] {
		if _, ok := tc["id"]; ok {
			t.Errorf("continuation delta carries an id: %v", tc)
		}
		if tc["index"] != 0.0 {
			t.Errorf("continuation index = %v", tc["index"])
		}
		b.WriteString(tc["function"].(map[string]any)["arguments"].(string))
	}
	if b.String() != args {
		t.Errorf("arguments reassemble to %q", b.String())
	}
	if got := res.finishReasons(t); !reflect.DeepEqual(got, []string{"tool_calls"}) {
		t.Errorf("finish reasons = %q", got)
	}
	if res.deltas(t)[0]["role"] != "assistant" {
		t.Errorf("first delta has no role: %v", res.deltas(t)[0])
	}
}

// assemble rebuilds calls keyed by index the way a well-behaved client would.
func assemble(tcs []map[string]any) map[float64]string {
	args := map[float64]string{}
	for _, tc := range tcs {
		i := tc["index"].(float64)
		args[i] += tc["function"].(map[string]any)["arguments"].(string)
	}
	return args
}

func TestParallelToolCalls(t *testing.T) {
	t.Parallel()
	for _, interleave := range []bool{false, true} {
		r := fakeapi.ToolCall("c0", "bash", `{"command":"ls"}`).ToolCall("c1", "bash", `{"command":"pwd"}`).Chunk(5)
		if interleave {
			r.Interleave()
		}
		res := serve(t, true, r)
		tcs := res.toolCalls(t)
		if got := assemble(tcs); got[0] != `{"command":"ls"}` || got[1] != `{"command":"pwd"}` {
			t.Errorf("interleave=%v: assembled %v", interleave, got)
		}
		var order []float64
		for _, tc := range tcs {
			order = append(order, tc["index"].(float64))
		}
		switched := 0
		for i := 1; i < len(order); i++ {
			if order[i] != order[i-1] {
				switched++
			}
		}
		if interleave && switched < 3 || !interleave && switched != 1 {
			t.Errorf("interleave=%v: index order %v", interleave, order)
		}
	}
}

func TestToolCallQuirksOnTheWire(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		resp  *fakeapi.Response
		check func(t *testing.T, tcs []map[string]any, res result)
	}{
		{"deltas omit index", fakeapi.ToolCall("c0", "bash", `{"command":"ls"}`).Chunk(3).OmitIndex(),
			func(t *testing.T, tcs []map[string]any, _ result) {
				for _, tc := range tcs {
					if _, ok := tc["index"]; ok {
						t.Errorf("delta has index: %v", tc)
					}
				}
			}},
		{"two calls at the same index", fakeapi.ToolCall("c0", "bash", `{}`).ToolCall("c1", "bash", `{}`).SameIndex(),
			func(t *testing.T, tcs []map[string]any, _ result) {
				if len(tcs) != 2 || tcs[0]["index"] != 0.0 || tcs[1]["index"] != 0.0 || tcs[0]["id"] == tcs[1]["id"] {
					t.Errorf("deltas = %v", tcs)
				}
			}},
		{"continuations repeat empty id and name", fakeapi.ToolCall("c0", "bash", `{"command":"ls"}`).Chunk(3).EmptyIDs(),
			func(t *testing.T, tcs []map[string]any, _ result) {
				for _, tc := range tcs[1:] {
					if id, ok := tc["id"]; !ok || id != "" || tc["function"].(map[string]any)["name"] != "" {
						t.Errorf("continuation = %v", tc)
					}
				}
			}},
		{"arguments as an object", fakeapi.ToolCall("c0", "bash", `{"command":"ls"}`).Chunk(3).ArgsAsObject(),
			func(t *testing.T, tcs []map[string]any, _ result) {
				a, ok := tcs[0]["function"].(map[string]any)["arguments"].(map[string]any)
				if len(tcs) != 1 || !ok || a["command"] != "ls" {
					t.Errorf("deltas = %v", tcs)
				}
			}},
		{"arguments omitted", fakeapi.ToolCall("c0", "list_todos", "").Chunk(3),
			func(t *testing.T, tcs []map[string]any, _ result) {
				if _, ok := tcs[0]["function"].(map[string]any)["arguments"]; len(tcs) != 1 || ok {
					t.Errorf("deltas = %v", tcs)
				}
			}},
		{"all calls in one chunk", fakeapi.ToolCall("c0", "bash", `{}`).ToolCall("c1", "bash", `{}`).CallsInOneChunk(),
			func(t *testing.T, tcs []map[string]any, res result) {
				n := 0
				for _, d := range res.deltas(t) {
					if _, ok := d["tool_calls"]; ok {
						n++
					}
				}
				if n != 1 || len(tcs) != 2 {
					t.Errorf("%d tool-call deltas with %d calls", n, len(tcs))
				}
			}},
		{"finish stop although tool calls came", fakeapi.ToolCall("c0", "bash", `{}`).Finish("stop"),
			func(t *testing.T, tcs []map[string]any, res result) {
				if got := res.finishReasons(t); len(tcs) != 1 || !reflect.DeepEqual(got, []string{"stop"}) {
					t.Errorf("finish reasons %q with %d calls", got, len(tcs))
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := serve(t, true, tt.resp)
			tt.check(t, res.toolCalls(t), res)
		})
	}
}

func TestUsageChunkHasEmptyChoicesBeforeDone(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Text("hi").Usage(7, 2))
	d := res.data()
	usage := d[len(d)-2]
	if !strings.Contains(usage, `"choices":[]`) || !strings.Contains(usage, `"total_tokens":9`) {
		t.Errorf("usage chunk = %s", usage)
	}
	if d[len(d)-1] != "[DONE]" || !strings.Contains(d[len(d)-3], `"finish_reason":"stop"`) {
		t.Errorf("tail = %q", d[len(d)-3:])
	}
}

func TestKeepAliveCommentsComeFirstAndTakeTheirTime(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Text("hi").KeepAlive(200, 0))
	for i := range 200 {
		if res.events[i].comment != "keep-alive" {
			t.Fatalf("event %d = %+v, want a keep-alive comment", i, res.events[i])
		}
	}
	if res.events[200].data == "" {
		t.Errorf("event after the keep-alives = %+v", res.events[200])
	}

	start := time.Now()
	serve(t, true, fakeapi.Text("hi").KeepAlive(3, 30*time.Millisecond))
	if el := time.Since(start); el < 90*time.Millisecond {
		t.Errorf("3 keep-alives 30ms apart took %v", el)
	}
}

func TestErrorObjectInsideA200Stream(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Text("partial").StreamError("overloaded").ErrorEvent())
	if res.status != 200 {
		t.Fatalf("status %d", res.status)
	}
	last := res.events[len(res.events)-1]
	if last.name != "error" || !strings.Contains(last.data, `"error":{`) || !strings.Contains(last.data, "overloaded") {
		t.Errorf("last event = %+v", last)
	}
	if strings.Contains(res.body, "[DONE]") || len(res.finishReasons(t)) != 0 {
		t.Errorf("stream error must end the stream without finish or [DONE]:\n%s", res.body)
	}
	if bare := serve(t, true, fakeapi.StreamError("boom")); strings.Contains(bare.body, "event:") {
		t.Errorf("error event line without ErrorEvent:\n%s", bare.body)
	}
	if plain := serve(t, false, fakeapi.StreamError("boom")); plain.status != 500 || !strings.Contains(plain.body, "boom") {
		t.Errorf("non-streaming stream error: %d %s", plain.status, plain.body)
	}
}

func TestReasoningField(t *testing.T) {
	t.Parallel()
	for _, field := range []string{"", "reasoning"} {
		res := serve(t, true, fakeapi.Reasoning("think").Text("answer").ReasoningField(field))
		want := field
		if want == "" {
			want = "reasoning_content"
		}
		d := res.deltas(t)
		if d[0][want] != "think" || d[1]["content"] != "answer" {
			t.Errorf("field %q: deltas %v", field, d)
		}
		plain := serve(t, false, fakeapi.Reasoning("think").Text("answer").ReasoningField(field))
		if !strings.Contains(plain.body, `"`+want+`":"think"`) {
			t.Errorf("field %q: body %s", field, plain.body)
		}
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	type apiErr struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	for _, stream := range []bool{true, false} {
		res := serve(t, stream, fakeapi.RateLimited(1500*time.Millisecond))
		if res.status != 429 || res.header.Get("Retry-After") != "2" {
			t.Errorf("rate limited: %d Retry-After %q", res.status, res.header.Get("Retry-After"))
		}
		for _, code := range []int{500, 503} {
			res := serve(t, stream, fakeapi.HTTPError(code, "try later"))
			var e apiErr
			if res.status != code || json.Unmarshal([]byte(res.body), &e) != nil || e.Error.Message != "try later" {
				t.Errorf("%d: %d %s", code, res.status, res.body)
			}
		}
		res = serve(t, stream, fakeapi.Unauthorized())
		var e apiErr
		if err := json.Unmarshal([]byte(res.body), &e); err != nil || res.status != 401 || e.Error.Code != "invalid_api_key" {
			t.Errorf("unauthorized: %d %s", res.status, res.body)
		}
	}
}

func TestContextLengthExceededWordings(t *testing.T) {
	t.Parallel()
	bodies := map[string]bool{}
	for _, f := range fakeapi.ContextFlavors() {
		res := serve(t, true, fakeapi.ContextLengthExceeded(f))
		if res.status != 400 || !json.Valid([]byte(res.body)) || bodies[res.body] {
			t.Errorf("%s: %d %s", f, res.status, res.body)
		}
		bodies[res.body] = true
		low := strings.ToLower(res.body)
		if !strings.Contains(low, "context") && !strings.Contains(low, "too long") {
			t.Errorf("%s does not say what went wrong: %s", f, res.body)
		}
	}
	if len(bodies) < 4 {
		t.Errorf("only %d distinct wordings", len(bodies))
	}
}

func TestGarbage(t *testing.T) {
	t.Parallel()
	res := serve(t, false, fakeapi.Garbage("<html>502 Bad Gateway</html>"))
	if res.status != 200 || json.Valid([]byte(res.body)) || res.body != "<html>502 Bad Gateway</html>" {
		t.Errorf("garbage body: %d %q", res.status, res.body)
	}
	res = serve(t, true, fakeapi.Text("abcdef").Chunk(2).InsertEvent(1, "data: {not json"))
	d := res.data()
	if d[1] != "{not json" {
		t.Errorf("data lines = %q", d)
	}
}

func TestCutStreamEndsWithoutFinishOrDone(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Text("abcdefgh").Chunk(2).CutAfter(2))
	if res.readErr == nil {
		t.Errorf("reading a cut stream returned no error")
	}
	if d := res.data(); len(d) != 2 || strings.Contains(res.body, "[DONE]") || len(res.finishReasons(t)) != 0 {
		t.Errorf("cut stream sent %q", d)
	}

	res = serve(t, true, fakeapi.Text("abcdefgh").Chunk(2).EndAfter(2))
	if res.readErr != nil {
		t.Errorf("EndAfter must end the body cleanly: %v", res.readErr)
	}
	if d := res.data(); len(d) != 2 || len(res.finishReasons(t)) != 0 {
		t.Errorf("ended stream sent %q", d)
	}

	res = serve(t, true, fakeapi.Text("hi").NoDone())
	if strings.Contains(res.body, "[DONE]") || len(res.finishReasons(t)) != 1 {
		t.Errorf("NoDone: %s", res.body)
	}
}

func TestStallsEndWithTheClientAndTheServer(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	s.Reply(fakeapi.Text("never").Stall(time.Hour), fakeapi.Text("ab").Chunk(1).StallAfter(1, time.Hour))

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(chatBody(true, "x")))
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stalled request: err = %v", err)
	}

	// The second response sends one chunk, then stalls until the server closes.
	resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(chatBody(true, "x")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	if n, _ := resp.Body.Read(buf); !strings.Contains(string(buf[:n]), `"content":"a"`) {
		t.Errorf("first chunk = %q", buf[:n])
	}
	s.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("a stream ended by Close read cleanly")
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("stalls held things up for %v", el)
	}
}

func TestDelayAndStallAfterTakeRealTime(t *testing.T) {
	t.Parallel()
	start := time.Now()
	serve(t, true, fakeapi.Text("abcd").Chunk(1).Delay(20*time.Millisecond).StallAfter(2, 80*time.Millisecond))
	if el := time.Since(start); el < 140*time.Millisecond {
		t.Errorf("took %v, want at least 4 delays of 20ms and a stall of 80ms", el)
	}
}

func TestRawWritesLinesLiterally(t *testing.T) {
	t.Parallel()
	res := serve(t, true, fakeapi.Raw(418, http.Header{"X-Teapot": {"yes"}}, "data: {\"a\":1}", "", "weird"))
	if res.status != 418 || res.header.Get("X-Teapot") != "yes" || res.body != "data: {\"a\":1}\n\nweird\n" {
		t.Errorf("raw: %d %v %q", res.status, res.header, res.body)
	}
}

func TestEmptyQueueAnswersALoud500(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	s.Reply(fakeapi.Text("one"))
	post(t, t.Context(), s, chatBody(true, "a"))
	res := post(t, t.Context(), s, chatBody(true, "b"))
	if res.status != 500 || !strings.Contains(res.body, "script ran out") || !strings.Contains(res.body, "#2") {
		t.Errorf("%d %s", res.status, res.body)
	}
	if s.Pending() != 0 {
		t.Errorf("pending = %d", s.Pending())
	}
}

func TestRequestsAreRecordedDecodedAndRaw(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	s.Reply(fakeapi.Text("a"), fakeapi.Text("b"))
	body := `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},
	 "tools":[{"type":"function","function":{"name":"bash","description":"run","parameters":{"type":"object"}}}],
	 "messages":[
	  {"role":"system","content":"sys"},
	  {"role":"user","content":[{"type":"text","text":"list "},{"type":"text","text":"files"}]},
	  {"role":"assistant","content":null,"reasoning_content":"hmm","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},
	  {"role":"tool","tool_call_id":"c1","content":"a.txt"}]}`

	done := make(chan []fakeapi.Request)
	go func() {
		reqs, err := s.WaitRequests(2, 5*time.Second)
		if err != nil {
			t.Error(err)
		}
		done <- reqs
	}()
	post(t, t.Context(), s, body)
	post(t, t.Context(), s, chatBody(false, "again"))
	reqs := <-done

	r := reqs[0]
	if string(r.Raw) != body || r.Header.Get("Authorization") != "Bearer sk-test" || r.Path != "/v1/chat/completions" {
		t.Errorf("raw/header/path not recorded: %q %v %q", r.Raw, r.Header, r.Path)
	}
	if r.Model != "gpt-x" || !r.Stream || r.StreamOptions == nil || !r.StreamOptions.IncludeUsage {
		t.Errorf("model/stream = %q %v %+v", r.Model, r.Stream, r.StreamOptions)
	}
	if len(r.Tools) != 1 || r.Tools[0].Function.Name != "bash" || string(r.Tools[0].Function.Parameters) != `{"type":"object"}` {
		t.Errorf("tools = %+v", r.Tools)
	}
	m := r.Messages
	if m[1].Content != "list files" || r.LastUser() != "list files" {
		t.Errorf("content parts = %q", m[1].Content)
	}
	if string(m[2].RawContent) != "null" || m[2].ReasoningContent != "hmm" || m[2].ToolCalls[0].Function.Arguments != `{"command":"ls"}` {
		t.Errorf("assistant message = %+v", m[2])
	}
	if m[3].Role != "tool" || m[3].ToolCallID != "c1" || m[3].Content != "a.txt" {
		t.Errorf("tool message = %+v", m[3])
	}
	if reqs[1].Stream || reqs[1].LastUser() != "again" {
		t.Errorf("second request = %+v", reqs[1])
	}

	if _, err := s.WaitRequests(3, 20*time.Millisecond); err == nil {
		t.Errorf("WaitRequests for a request that never comes returned no error")
	}
}

func TestInvalidRequestBodyIsRecordedAndRejected(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	s.Reply(fakeapi.Text("kept for the next request"))
	res := post(t, t.Context(), s, `{"messages": "oops"`)
	if res.status != 400 || !strings.Contains(res.body, "not a valid chat request") {
		t.Errorf("%d %s", res.status, res.body)
	}
	if r := s.Requests(); len(r) != 1 || r[0].DecodeErr == nil || s.Pending() != 1 {
		t.Errorf("requests %+v, pending %d", r, s.Pending())
	}
}

func TestConcurrentRequestsEachTakeOneResponse(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	const n = 20
	for i := range n {
		s.Reply(fakeapi.Text(fmt.Sprint(i)).Chunk(1))
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if res := post(t, t.Context(), s, chatBody(true, "x")); res.status != 200 {
				t.Errorf("status %d", res.status)
			}
		})
	}
	wg.Wait()
	if len(s.Requests()) != n || s.Pending() != 0 {
		t.Errorf("%d requests, %d pending", len(s.Requests()), s.Pending())
	}
}

func TestModelsAndUnknownRoutes(t *testing.T) {
	t.Parallel()
	s := fakeapi.New()
	t.Cleanup(s.Close)
	s.SetModels("a", "b")
	resp, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if list.Object != "list" || len(list.Data) != 2 || list.Data[1].ID != "b" {
		t.Errorf("models = %+v", list)
	}
	resp, err = http.Get(strings.TrimSuffix(s.URL(), "/v1") + "/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown route: %d", resp.StatusCode)
	}
}
