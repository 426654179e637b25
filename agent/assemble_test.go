package agent

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// assemble feeds raw chunk payloads to an assembler and returns the result.
func assemble(t *testing.T, chunks ...string) (*Completion, error) {
	t.Helper()
	var a assembler
	for _, c := range chunks {
		if err := a.add([]byte(c), nil); err != nil {
			return nil, err
		}
	}
	return a.finish()
}

func TestAssembleToolCallQuirks(t *testing.T) {
	type call struct{ id, name, args string }
	cases := []struct {
		name   string
		chunks []string
		want   []call
		text   string
	}{
		{
			name: "arguments split across deltas",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"bash","arguments":""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"comm"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"and\":\"ls\"}"}}]}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{{"c1", "bash", `{"command":"ls"}`}},
		},
		{
			name: "index omitted: continuation goes to the latest call",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"bash","arguments":"{\"command\":"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"pwd\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"read_file","arguments":"{}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"a", "bash", `{"command":"pwd"}`}, {"b", "read_file", `{}`}},
		},
		{
			name: "two calls at the same index with different ids",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"y","function":{"name":"bash","arguments":"{\"command\":\"pwd\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"x", "bash", `{"command":"ls"}`}, {"y", "bash", `{"command":"pwd"}`}},
		},
		{
			name: "empty id and name on continuation never overwrite",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"bash","arguments":"{\"command\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"","type":"","function":{"name":"","arguments":":\"ls\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"c", "bash", `{"command":"ls"}`}},
		},
		{
			name: "arguments as an object",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"o","function":{"name":"bash","arguments":{"command":"ls"}}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"o", "bash", `{"command":"ls"}`}},
		},
		{
			name: "arguments omitted for a no-argument tool",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"n","function":{"name":"list"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"n", "list", `{}`}},
		},
		{
			name: "finish reason stop although tool calls came",
			chunks: []string{
				`{"choices":[{"delta":{"content":"Let me look."}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"s","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"stop","delta":{}}]}`,
			},
			want: []call{{"s", "bash", `{"command":"ls"}`}},
			text: "Let me look.",
		},
		{
			name: "parallel calls by index, interleaved",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"p0","function":{"name":"bash","arguments":""}},{"index":1,"id":"p1","function":{"name":"bash","arguments":""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"command\":\"pwd\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":\"ls\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"p0", "bash", `{"command":"ls"}`}, {"p1", "bash", `{"command":"pwd"}`}},
		},
		{
			name: "two calls with the same id at different indexes stay two calls with distinct ids",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"x","function":{"name":"bash","arguments":"{\"command\":\"pwd\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"x", "bash", `{"command":"ls"}`}, {"x_2", "bash", `{"command":"pwd"}`}},
		},
		{
			name: "the id repeated on every delta of one call continues it",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"r","function":{"name":"bash","arguments":"{\"command\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"r","function":{"arguments":":\"ls\"}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"r", "bash", `{"command":"ls"}`}},
		},
		{
			name: "a generated id never repeats one the server sent",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"bash","arguments":"{}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_1","function":{"name":"bash","arguments":"{}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"call_1_2", "bash", `{}`}, {"call_1", "bash", `{}`}},
		},
		{
			name: "missing id gets one",
			chunks: []string{
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"bash","arguments":"{}"}}]}}]}`,
				`{"choices":[{"finish_reason":"tool_calls","delta":{}}]}`,
			},
			want: []call{{"call_1", "bash", `{}`}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := assemble(t, tc.chunks...)
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != tc.text {
				t.Errorf("text = %q, want %q", c.Text, tc.text)
			}
			if len(c.ToolCalls) != len(tc.want) {
				t.Fatalf("got %d calls %+v, want %d", len(c.ToolCalls), c.ToolCalls, len(tc.want))
			}
			for i, w := range tc.want {
				g := c.ToolCalls[i]
				if g.ID != w.id || g.Function.Name != w.name || g.Function.Arguments != w.args {
					t.Errorf("call %d = {%s %s %s}, want {%s %s %s}", i, g.ID, g.Function.Name, g.Function.Arguments, w.id, w.name, w.args)
				}
			}
		})
	}
}

func TestAssembleTextReasoningAndUsage(t *testing.T) {
	var deltas []string
	var a assembler
	for _, c := range []string{
		`{"choices":[{"delta":{"role":"assistant","reasoning_content":"think"}}]}`,
		`{"choices":[{"delta":{"reasoning":"ing"}}]}`,
		`{"choices":[{"delta":{"content":"Hel"}}]}`,
		`{"choices":[{"delta":{"content":null}}]}`,
		`{"choices":[{"delta":{"content":"lo"},"finish_reason":null}]}`,
		`{"choices":[{"delta":{},"finish_reason":"stop"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3}}`,
	} {
		if err := a.add([]byte(c), func(text, reasoning string) { deltas = append(deltas, text+"|"+reasoning) }); err != nil {
			t.Fatal(err)
		}
	}
	c, err := a.finish()
	if err != nil {
		t.Fatal(err)
	}
	if c.Text != "Hello" || c.Reasoning != "thinking" {
		t.Errorf("text %q reasoning %q", c.Text, c.Reasoning)
	}
	if c.Usage == nil || c.Usage.PromptTokens != 12 || c.Usage.CompletionTokens != 3 {
		t.Errorf("usage = %+v", c.Usage)
	}
	if got := strings.Join(deltas, ","); got != "|think,|ing,Hel|,lo|" {
		t.Errorf("deltas = %s", got)
	}
}

func TestAssembleCutStreamIsAnError(t *testing.T) {
	_, err := assemble(t,
		`{"choices":[{"delta":{"content":"Half an ans"}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"bash","arguments":"{\"comm"}}]}}]}`,
	)
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Kind != ErrCutStream {
		t.Fatalf("err = %v, want a cut-stream error", err)
	}
}

func TestAssembleErrorInsideStream(t *testing.T) {
	_, err := assemble(t, `{"error":{"message":"model overloaded","type":"server_error"}}`)
	var pe *ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "model overloaded") {
		t.Fatalf("err = %v", err)
	}
	_, err = assemble(t, `{"error":{"message":"This model's maximum context length is 8192 tokens"}}`)
	if !errors.As(err, &pe) || pe.Kind != ErrContextLength {
		t.Fatalf("err = %v, want context length", err)
	}
}

func TestAssembleGarbageChunk(t *testing.T) {
	_, err := assemble(t, `{"choices":[{"delta":{"content":"a"}}]}`, `<html>502 Bad Gateway</html>`)
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Kind != ErrBadResponse {
		t.Fatalf("err = %v", err)
	}
}

func TestDataLineReaderKeepsOnlyData(t *testing.T) {
	in := ": keep-alive\n\n: keep-alive\nevent: message\ndata: {\"a\":1}\n\nid: 7\nretry: 10\n" +
		"event: error\ndata: {\"message\":\"boom\"}\n\ndata:{\"b\":2}\ndata: [DONE]"
	r := newDataLineReader(io.NopCloser(strings.NewReader(in)), nil)
	out, err := io.ReadAll(r)
	var pe *ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "boom") {
		t.Fatalf("err = %v, want the error event's message", err)
	}
	if want := "data: {\"a\":1}\n"; string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}

	in = ": keep-alive\n\ndata:{\"b\":2}\n\nid: 8\ndata: {\"choices\":[{\"delta\":{\"content\":\"an \\\"error\\\"\"}}]}\ndata: [DONE]"
	out, err = io.ReadAll(newDataLineReader(io.NopCloser(strings.NewReader(in)), nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := "data: {\"b\":2}\ndata: {\"choices\":[{\"delta\":{\"content\":\"an \\\"error\\\"\"}}]}\ndata: [DONE]\n"; string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// An error object inside a 200 stream ends the turn with the server's words at once: whatever its shape,
// and even when the server then keeps the connection open with keep-alive comments.
func TestStreamErrorEndsTheStreamWithTheServersMessage(t *testing.T) {
	sse := http.Header{"Content-Type": {"text/event-stream"}}
	cases := map[string]*fakeapi.Response{
		"string error, then keep-alives": fakeapi.Raw(200, sse,
			`data: {"error":"overloaded"}`, ``, `: keep-alive`, `: keep-alive`, `: keep-alive`).Delay(time.Second),
		"object error, then keep-alives": fakeapi.Raw(200, sse,
			`data: {"error":{"message":"overloaded","code":500}}`, ``, `: keep-alive`, `: keep-alive`, `: keep-alive`).Delay(time.Second),
		"spaced error key": fakeapi.Raw(200, sse, `data: { "error" : {"message":"overloaded"}}`, ``),
		"after event: error, then keep-alives": fakeapi.Raw(200, sse,
			`event: error`, `data: {"message":"overloaded"}`, ``, `: keep-alive`, `: keep-alive`, `: keep-alive`).Delay(time.Second),
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			s := fakeapi.New()
			defer s.Close()
			s.Reply(r)
			ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
			defer cancel()
			_, err := NewProvider(s.URL(), "k", "m").Stream(ctx, nil, nil, nil)
			var pe *ProviderError
			if !errors.As(err, &pe) || !strings.Contains(pe.Message, "overloaded") || !pe.Retryable {
				t.Fatalf("err = %v", err)
			}
		})
	}
}
