package fakeapi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

func demoServer(t *testing.T) *fakeapi.Server {
	t.Helper()
	sc, err := fakeapi.LoadScript("testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	s := fakeapi.New()
	t.Cleanup(s.Close)
	sc.Install(s)
	return s
}

// afterTool is a conversation in which the model called a tool for prompt and got output back.
func afterTool(prompt, output string) string {
	msgs := []any{
		map[string]any{"role": "user", "content": prompt},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": "c1", "type": "function", "function": map[string]any{"name": "bash", "arguments": "{}"}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": output},
	}
	b, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "messages": msgs})
	return string(b)
}

func textOf(t *testing.T, res result) string {
	t.Helper()
	var b strings.Builder
	for _, d := range res.deltas(t) {
		if c, ok := d["content"].(string); ok {
			b.WriteString(c)
		}
	}
	return b.String()
}

func TestDemoScriptRulesCallToolsThenQuoteTheResult(t *testing.T) {
	t.Parallel()
	s := demoServer(t)
	tests := []struct{ prompt, command string }{
		{"please LIST the files", "ls -la"},
		{"touch a file", "touch notes.txt"},
		{"create notes", "touch notes.txt"},
		{"do something slow", "for i in 1 2 3 4 5; do echo tick $i; sleep 0.2; done"},
	}
	for _, tt := range tests {
		res := post(t, t.Context(), s, chatBody(true, tt.prompt))
		got := assemble(res.toolCalls(t))
		var args struct{ Command string }
		if err := json.Unmarshal([]byte(got[0]), &args); err != nil || args.Command != tt.command {
			t.Errorf("%q: arguments %q, want command %q", tt.prompt, got[0], tt.command)
		}
		if fr := res.finishReasons(t); len(fr) != 1 || fr[0] != "tool_calls" {
			t.Errorf("%q: finish %q", tt.prompt, fr)
		}
	}

	var long []string
	for i := range 30 {
		long = append(long, fmt.Sprintf("file%02d.txt", i))
	}
	res := post(t, t.Context(), s, afterTool("list them", strings.Join(long, "\n")))
	text := textOf(t, res)
	if !strings.Contains(text, "file00.txt\nfile01.txt") || strings.Contains(text, "file08.txt") || !strings.Contains(text, "(22 more lines)") {
		t.Errorf("follow-up does not quote a shortened result:\n%s", text)
	}
	if len(res.toolCalls(t)) != 0 {
		t.Errorf("follow-up calls a tool again")
	}
}

func TestDemoScriptDefaultIsStreamedMarkdown(t *testing.T) {
	t.Parallel()
	s := demoServer(t)
	start := time.Now()
	res := post(t, t.Context(), s, chatBody(true, "hello there"))
	text := textOf(t, res)
	for _, want := range []string{"## ", "\n- ", "```"} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown answer lacks %q:\n%s", want, text)
		}
	}
	if n := len(res.deltas(t)); n < 20 {
		t.Errorf("answer came in only %d deltas", n)
	}
	if time.Since(start) < 200*time.Millisecond {
		t.Errorf("answer streamed without visible delays")
	}
}

func TestScriptTurnsComeBeforeRules(t *testing.T) {
	t.Parallel()
	sc, err := fakeapi.ParseScript([]byte(`{
	  "models": ["m-a", "m-b"],
	  "turns": [
	    {"status": 429, "error": "slow down", "headers": {"Retry-After": "1"}},
	    {"text": "par", "error": "overloaded"},
	    {"raw": ["data: {broken", ""]},
	    {"text": "abcdef", "chunk": 2, "cut_after": 1},
	    {"tool_calls": [{"name": "bash", "arguments": "{\"command\":\"pwd\"}"}], "finish_reason": "stop", "usage": {"prompt_tokens": 3, "completion_tokens": 4}},
	    {"text": "slow", "stall_ms": 1, "keep_alive": 3}
	  ],
	  "rules": [{"match": "x", "steps": [{"text": "rule says {{prompt}}"}]}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	s := fakeapi.New()
	t.Cleanup(s.Close)
	sc.Install(s)

	res := post(t, t.Context(), s, chatBody(true, "x"))
	if res.status != 429 || res.header.Get("Retry-After") != "1" || !strings.Contains(res.body, "slow down") {
		t.Errorf("turn 1: %d %v %s", res.status, res.header, res.body)
	}
	res = post(t, t.Context(), s, chatBody(true, "x"))
	if !strings.Contains(res.data()[1], `"overloaded"`) || strings.Contains(res.body, "[DONE]") {
		t.Errorf("turn 2: %s", res.body)
	}
	if res = post(t, t.Context(), s, chatBody(true, "x")); res.body != "data: {broken\n\n" {
		t.Errorf("turn 3: %q", res.body)
	}
	if res = post(t, t.Context(), s, chatBody(true, "x")); res.readErr == nil || len(res.data()) != 1 {
		t.Errorf("turn 4: %v %q", res.readErr, res.data())
	}
	res = post(t, t.Context(), s, chatBody(true, "x"))
	tcs := res.toolCalls(t)
	if len(tcs) != 1 || tcs[0]["id"] != "call_t5_0" || tcs[0]["function"].(map[string]any)["arguments"] != `{"command":"pwd"}` ||
		res.finishReasons(t)[0] != "stop" || !strings.Contains(res.body, `"choices":[]`) {
		t.Errorf("turn 5: %s", res.body)
	}
	if res = post(t, t.Context(), s, chatBody(true, "x")); res.events[2].comment != "keep-alive" || textOf(t, res) != "slow" {
		t.Errorf("turn 6: %s", res.body)
	}
	if res = post(t, t.Context(), s, chatBody(true, "say x")); textOf(t, res) != "rule says say x" {
		t.Errorf("rule: %s", res.body)
	}
	res = post(t, t.Context(), s, chatBody(true, "nothing matches"))
	if res.status != 500 || !strings.Contains(res.body, "no rule matches") {
		t.Errorf("no rule: %d %s", res.status, res.body)
	}
}

func TestParseScriptRejectsMistakesWithTheirPlace(t *testing.T) {
	t.Parallel()
	tests := []struct{ script, want string }{
		{"{\n  \"rules\": [\n    {\"steps\": [}\n  ]\n}", "line 3, column"},
		{`{"rules": [{"match": "a", "steps": [{"txt": "typo"}]}]}`, `unknown field "txt"`},
		{`{"rules": [{"match": "a"}]}`, "rules[0]: a rule needs at least one step"},
		{`{"turns": [{"tool_calls": [{"arguments": {}}]}]}`, "turns[0]: tool_calls[0] has no name"},
		{`{"rules": [{"match": 3, "steps": [{"text": "a"}]}]}`, "match must be a string or an array"},
		{`{"turns": [{"raw": ["x"], "text": "y"}]}`, "raw cannot be combined"},
		{`{"chunk": "4"}`, "line 1, column"},
		{`{} {}`, "unexpected data"},
	}
	for _, tt := range tests {
		_, err := fakeapi.ParseScript([]byte(tt.script))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseScript(%q) = %v, want an error containing %q", tt.script, err, tt.want)
		}
	}
	sc, err := fakeapi.ParseScript([]byte(`{"rules": [{"match": ["a", "b"], "steps": [{"text": "x"}]}, {"steps": [{"text": "y"}]}]}`))
	if err != nil || len(sc.Rules[0].Match) != 2 || sc.Rules[1].Match != nil {
		t.Errorf("valid script: %v %+v", err, sc)
	}
	if _, err := fakeapi.LoadScript("testdata/missing.json"); err == nil {
		t.Errorf("LoadScript of a missing file returned no error")
	}
}
