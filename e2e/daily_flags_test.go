package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The habits of a person who works with Claude Code every day: its short flags, its mode names, its
// json result, and a resume that works as the exit hint prints it.

// Without --model, the first chat model the server lists is used, in the server's order (a server
// lists its default first), not the alphabetically first.
func TestTheDefaultModelIsTheServersFirstChatModel(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.SetModels("text-embedding-3-small", "zeta-coder", "alpha-chat")
	server.Reply(fakeapi.Text("hi"))
	r := newRun(t)
	out, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if evs := events(t, out); evs[0]["model"] != "zeta-coder" {
		t.Errorf("session event %v; want the server's first chat model", evs[0])
	}
	if reqs := server.Requests(); len(reqs) != 1 || reqs[0].Model != "zeta-coder" {
		t.Errorf("the request asked for %q", reqs[0].Model)
	}
}

// --print is -p, and Claude Code's mode names choose Warden's modes: acceptEdits lets a write run
// unasked, bypassPermissions a command.
func TestClaudeCodesPrintFlagAndModeNamesWork(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(
		fakeapi.ToolCall("call_w", "write_file", `{"path":"a.txt","content":"x\n"}`),
		fakeapi.Text("written"),
	)
	out, stderr, code := r.exec("--print", "write it", "--base-url", server.URL(), "--model", "m", "--permission-mode", "acceptEdits")
	if code != 0 || out != "written\n" {
		t.Fatalf("--print with acceptEdits: exit %d out %q stderr %s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "a.txt")); err != nil {
		t.Errorf("acceptEdits did not let the write run: %v (the model read %q)", err, lastToolResult(server))
	}
	server.Reply(
		fakeapi.ToolCall("call_t", "bash", `{"command":"touch b.txt"}`),
		fakeapi.Text("touched"),
	)
	if _, stderr, code := r.exec("--print", "touch it", "--base-url", server.URL(), "--model", "m", "--permission-mode", "bypassPermissions"); code != 0 {
		t.Fatalf("bypassPermissions: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "b.txt")); err != nil {
		t.Errorf("bypassPermissions did not let the command run: %v (the model read %q)", err, lastToolResult(server))
	}
	for _, m := range []string{"default", "plan"} {
		server.Reply(fakeapi.Text("ok"))
		if _, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m", "--permission-mode", m); code != 0 {
			t.Errorf("--permission-mode %s: exit %d: %s", m, code, stderr)
		}
	}
}

// The json result carries Claude Code's fields beside Warden's: session_id (the session's own id),
// duration_ms, num_turns, result, and usage as input_tokens and output_tokens.
func TestTheJSONResultCarriesClaudeCodesFields(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("call_e", "bash", `{"command":"echo hi"}`).Usage(50, 10),
		fakeapi.Text("said hi").Usage(80, 8),
	)
	r := newRun(t)
	out, stderr, code := r.exec("-p", "say hi", "--base-url", server.URL(), "--model", "m", "--output-format", "json", "--allow", "Bash(echo:*)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	evs := events(t, out)
	if len(evs) != 1 {
		t.Fatalf("json printed %d objects:\n%s", len(evs), out)
	}
	res := evs[0]
	usage, _ := res["usage"].(map[string]any)
	if res["num_turns"] != float64(2) || res["turns"] != float64(2) || res["result"] != "said hi" || res["text"] != "said hi" ||
		usage["input_tokens"] != float64(130) || usage["output_tokens"] != float64(18) ||
		usage["prompt_tokens"] != float64(130) || usage["completion_tokens"] != float64(18) {
		t.Errorf("result = %v", res)
	}
	if d, ok := res["duration_ms"].(float64); !ok || d <= 0 {
		t.Errorf("duration_ms = %v", res["duration_ms"])
	}
	id, _ := res["session_id"].(string)
	if id == "" {
		t.Fatalf("no session_id: %v", res)
	}
	if _, err := os.Stat(filepath.Join(r.stateDir(), "warden", "sessions", id+".jsonl")); err != nil {
		t.Errorf("session_id %q is not the session's file: %v", id, err)
	}
}

// A session remembers its server and model: `warden --resume ID` (the hint printed at exit) and -r and
// -c reach the server it came from through --base-url, even with another server in the environment.
func TestAResumedSessionGoesOnWithItsServer(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text("first answer"))
	if _, stderr, code := r.exec("-p", "remember the word kestrel", "--base-url", server.URL(), "--model", "kestrel-model"); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(r.stateDir(), "warden", "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("sessions: %v", files)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
	// Another server in the environment, which answers nothing: the session's own must win.
	r.env = append(r.env, "OPENAI_BASE_URL=http://127.0.0.1:1/v1")
	for i, args := range [][]string{
		{"--resume", id, "-p", "what was the word?"},
		{"-r", id, "-p", "and again?"},
		{"-c", "-p", "once more?"},
	} {
		server.Reply(fakeapi.Text("kestrel"))
		out, stderr, code := r.exec(args...)
		if code != 0 || out != "kestrel\n" {
			t.Fatalf("%v: exit %d out %q stderr %s", args, code, out, stderr)
		}
		reqs := server.Requests()
		last := reqs[len(reqs)-1]
		if len(reqs) != i+2 || last.Model != "kestrel-model" {
			t.Fatalf("%v: %d requests, the last for model %q", args, len(reqs), last.Model)
		}
		var said []string
		for _, m := range last.Messages {
			if m.Role == "user" {
				said = append(said, m.Content)
			}
		}
		if !slices.Contains(said, "remember the word kestrel") {
			t.Errorf("%v: the resumed conversation lacks the first prompt: %q", args, said)
		}
	}
}

// Headless plan mode: the model is told it is in plan mode and offered exit_plan_mode; the run ends at
// the plan, exit status 0, and prints it: as the answer in text, in the result's plan field in json, and
// as a plan event in stream-json.
func TestHeadlessPlanModePrintsThePlanAndSucceeds(t *testing.T) {
	const plan = "# Plan\n\n1. Rename the flag in main.go.\n2. Run go test."
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	call := func() *fakeapi.Response {
		return fakeapi.ToolCall("call_p", "exit_plan_mode", `{"plan":"# Plan\n\n1. Rename the flag in main.go.\n2. Run go test."}`)
	}
	server.Reply(call())
	out, stderr, code := r.exec("-p", "rename the flag", "--base-url", server.URL(), "--model", "m", "--permission-mode", "plan")
	if code != 0 || out != plan+"\n" {
		t.Fatalf("text: exit %d out %q stderr %s", code, out, stderr)
	}
	reqs := server.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests; the run must end at the plan", len(reqs))
	}
	// A session that starts in plan mode says so in its system prompt.
	if sys := reqs[0].Messages[0]; sys.Role != "system" || !strings.Contains(sys.Content, "Plan mode is on") || !strings.Contains(sys.Content, "exit_plan_mode") {
		t.Errorf("the model was not told it is in plan mode: %q", sys.Content)
	}
	var offered bool
	for _, tl := range reqs[0].Tools {
		offered = offered || tl.Function.Name == "exit_plan_mode"
	}
	if !offered {
		t.Error("exit_plan_mode was not offered in plan mode")
	}

	server.Reply(call())
	out, _, code = r.exec("-p", "rename the flag", "--base-url", server.URL(), "--model", "m", "--permission-mode", "plan", "--output-format", "json")
	if evs := events(t, out); code != 0 || len(evs) != 1 || evs[0]["plan"] != plan || evs[0]["is_error"] != false {
		t.Errorf("json: exit %d out %s", code, out)
	}

	server.Reply(call())
	out, _, code = r.exec("-p", "rename the flag", "--base-url", server.URL(), "--model", "m", "--permission-mode", "plan", "--output-format", "stream-json")
	var types []string
	var shown any
	for _, e := range events(t, out) {
		types = append(types, e["type"].(string))
		if e["type"] == "plan" {
			shown = e["plan"]
		}
	}
	if code != 0 || strings.Join(types, " ") != "session tool_call permission plan tool_result result" || shown != plan {
		t.Errorf("stream-json: exit %d events %v\n%s", code, types, out)
	}

	// Outside plan mode the tool is not offered.
	server.Reply(fakeapi.Text("ok"))
	r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	reqs = server.Requests()
	for _, tl := range reqs[len(reqs)-1].Tools {
		if tl.Function.Name == "exit_plan_mode" {
			t.Error("exit_plan_mode is offered in default mode")
		}
	}
}

// lastToolResult is what the model was last told of a call.
func lastToolResult(s *fakeapi.Server) string {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		for j := len(reqs[i].Messages) - 1; j >= 0; j-- {
			if m := reqs[i].Messages[j]; m.Role == "tool" {
				return m.Content
			}
		}
	}
	return ""
}
