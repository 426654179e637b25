package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

var binary string

// exitUsage is the binary's exit status for bad usage (DESIGN.md §2).
const exitUsage = 2

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "warden-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "warden")
	// The program is the module's root package, one directory up.
	out, err := exec.Command("go", "build", "-o", binary, "..").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run is one invocation of the real binary in a fresh workspace with its own HOME and XDG directories.
type invocation struct {
	t         *testing.T
	workspace string
	env       []string
	stdin     string
	// program is the executable to run, when not the one TestMain built.
	program string
}

func newRun(t *testing.T) *invocation {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	for _, d := range []string{ws, filepath.Join(root, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &invocation{t: t, workspace: ws, env: []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"),
	}}
}

func (r *invocation) exec(args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	program := binary
	if r.program != "" {
		program = r.program
	}
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = r.workspace
	cmd.Env = r.env
	cmd.Stdin = strings.NewReader(r.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		r.t.Fatalf("warden %v did not finish in time; stderr: %s", args, errb.String())
	}
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// events parses stream-json output into generic objects.
func events(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line is not JSON: %q", sc.Text())
		}
		evs = append(evs, m)
	}
	return evs
}

func TestHeadlessRunsBashAndAnswers(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("call_ls", "bash", `{"command":"ls","description":"list files"}`).Chunk(5).Usage(50, 10),
		fakeapi.Text("There is one file: hello.txt.").Chunk(4).Usage(80, 8),
	)
	r := newRun(t)
	if err := os.WriteFile(filepath.Join(r.workspace, "hello.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.exec("-p", "what files are here?", "--base-url", server.URL(), "--model", "fake-model",
		"--output-format", "stream-json", "--allow", "Bash(ls)")
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s\nstdout: %s", code, stderr, out)
	}
	evs := events(t, out)
	var types []string
	for _, e := range evs {
		types = append(types, e["type"].(string))
	}
	want := "session tool_call permission tool_result text result"
	if strings.Join(types, " ") != want {
		t.Fatalf("event types = %v, want %s\n%s", types, want, out)
	}
	session, call, perm, result, text, final := evs[0], evs[1], evs[2], evs[3], evs[4], evs[5]
	if session["cwd"] != r.workspace || session["model"] != "fake-model" || session["id"] == "" {
		t.Errorf("session = %v", session)
	}
	if call["id"] != "call_ls" || call["name"] != "bash" || call["input"].(map[string]any)["command"] != "ls" {
		t.Errorf("tool_call = %v", call)
	}
	if perm["id"] != "call_ls" || perm["decision"] != "allow" || perm["reason"] == "" {
		t.Errorf("permission = %v", perm)
	}
	if result["id"] != "call_ls" || result["is_error"] != false || result["exit_code"] != float64(0) ||
		!strings.Contains(result["output"].(string), "hello.txt") {
		t.Errorf("tool_result = %v", result)
	}
	if _, ok := result["duration_ms"].(float64); !ok {
		t.Errorf("tool_result without duration_ms: %v", result)
	}
	if text["text"] != "There is one file: hello.txt." {
		t.Errorf("text = %v", text)
	}
	usage := final["usage"].(map[string]any)
	if final["text"] != "There is one file: hello.txt." || final["is_error"] != false || final["turns"] != float64(2) ||
		usage["prompt_tokens"] != float64(130) || usage["completion_tokens"] != float64(18) {
		t.Errorf("result = %v", final)
	}

	// The model really received the listing, with the call's id.
	reqs := server.Requests()
	var toolMsg *fakeapi.Message
	for i, m := range reqs[1].Messages {
		if m.Role == "tool" {
			toolMsg = &reqs[1].Messages[i]
		}
	}
	if toolMsg == nil || toolMsg.ToolCallID != "call_ls" || !strings.Contains(toolMsg.Content, "hello.txt") {
		t.Errorf("tool message sent to the model = %+v", toolMsg)
	}
}

func TestHeadlessOutputFormats(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)

	server.Reply(fakeapi.Text("plain answer"))
	out, _, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	if code != 0 || out != "plain answer\n" {
		t.Errorf("text: exit %d out %q", code, out)
	}

	server.Reply(fakeapi.Text("json answer"))
	out, _, code = r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m", "--output-format", "json")
	evs := events(t, out)
	if code != 0 || len(evs) != 1 || evs[0]["type"] != "result" || evs[0]["text"] != "json answer" {
		t.Errorf("json: exit %d out %q", code, out)
	}

	server.Reply(fakeapi.Text("from stdin"))
	r.stdin = "the prompt on stdin\n"
	out, _, code = r.exec("--base-url", server.URL(), "--model", "m")
	if code != 0 || out != "from stdin\n" {
		t.Errorf("stdin: exit %d out %q", code, out)
	}
	reqs := server.Requests()
	if got := reqs[len(reqs)-1].LastUser(); got != "the prompt on stdin" {
		t.Errorf("prompt sent = %q", got)
	}
}

func TestHeadlessDeniesWhatWouldAskAndTellsTheModel(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"touch made.txt"}`), fakeapi.Text("I could not create it."))
	r := newRun(t)
	out, stderr, code := r.exec("-p", "make a file", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err == nil {
		t.Fatal("the command ran although nobody approved it")
	}
	for _, e := range events(t, out) {
		if e["type"] == "permission" && (e["decision"] != "deny" || e["by"] != "policy") {
			t.Errorf("permission = %v", e)
		}
	}
	if msg := server.Requests()[1].Messages; !strings.Contains(msg[len(msg)-1].Content, "headless") {
		t.Errorf("the model was not told why: %+v", msg[len(msg)-1])
	}

	// yolo lets it run.
	server.Reply(fakeapi.ToolCall("c2", "bash", `{"command":"touch made.txt"}`), fakeapi.Text("Created."))
	if _, stderr, code := r.exec("-p", "make a file", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo"); code != 0 {
		t.Fatalf("yolo exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err != nil {
		t.Errorf("yolo did not run the command: %v", err)
	}
}

func TestBadInputIsOneClearLine(t *testing.T) {
	t.Parallel() // the two slowest tests of the package; neither shares state with the others
	server := fakeapi.New()
	defer server.Close()
	dead := fakeapi.New()
	deadURL := dead.URL()
	dead.Close()

	cases := []struct {
		name  string
		setup func()
		args  []string
		code  int
		want  string
	}{
		{"empty prompt", nil, []string{"-p", "  ", "--base-url", server.URL(), "--model", "m"}, 2, "empty prompt"},
		{"unknown flag", nil, []string{"--frobnicate"}, 2, "flag provided but not defined: -frobnicate"},
		{"unknown command", nil, []string{"sesions"}, 2, "unknown command"},
		{"bad output format", nil, []string{"-p", "x", "--output-format", "yaml"}, 2, "--output-format"},
		{"bad mode", nil, []string{"-p", "x", "--permission-mode", "sometimes", "--base-url", server.URL(), "--model", "m"}, 2, "unknown permission mode"},
		{"unreachable server", nil, []string{"-p", "x", "--base-url", deadURL, "--model", "m"}, 1, "cannot reach the model server"},
		{"401", func() { server.Reply(fakeapi.Unauthorized()) }, []string{"-p", "x", "--base-url", server.URL(), "--model", "m"}, 1, "OPENAI_API_KEY"},
		{"garbage", func() {
			replyTimes(server, 4, func() *fakeapi.Response { return fakeapi.Garbage("<html>Bad Gateway</html>") })
		}, []string{"-p", "x", "--base-url", server.URL(), "--model", "m"}, 1, "cannot read"},
		{"cut stream", func() {
			replyTimes(server, 4, func() *fakeapi.Response { return fakeapi.Text("half of it").Chunk(2).CutAfter(2) })
		}, []string{"-p", "x", "--base-url", server.URL(), "--model", "m"}, 1, "connection cut"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			r := newRun(t)
			out, stderr, code := r.exec(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.want)
			}
			if n := strings.Count(strings.TrimRight(stderr, "\n"), "\n"); n != 0 {
				t.Errorf("stderr is %d lines: %q", n+1, stderr)
			}
			if strings.Contains(stderr+out, "goroutine") || strings.Contains(stderr+out, "panic") {
				t.Errorf("stack trace leaked: %s", stderr)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
		})
	}
}

// replyTimes queues n copies of a failing response, one for each attempt the retry policy makes.
func replyTimes(s *fakeapi.Server, n int, mk func() *fakeapi.Response) {
	for range n {
		s.Reply(mk())
	}
}

// A settings file of the person's own that does not parse stops the start, naming file, line and column;
// the project's shared one is left out with the same words, and the run goes on (a repository must not
// be able to stop Warden).
func TestSettingsErrorNamesFileLineAndColumn(t *testing.T) {
	r := newRun(t)
	dir := filepath.Join(r.workspace, ".warden")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "settings.local.json")
	if err := os.WriteFile(mine, []byte("{\n  \"model\": \"m\",,\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := r.exec("-p", "x")
	if code != 1 || !strings.Contains(stderr, mine+":2:16: invalid JSON") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	must(t, os.Rename(mine, filepath.Join(dir, "settings.json")))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("went on"))
	out, stderr, code := r.exec("-p", "x", "--base-url", server.URL(), "--model", "m")
	if code != 0 || !strings.Contains(stderr, filepath.Join(dir, "settings.json")+":2:16: invalid JSON") ||
		!strings.Contains(stderr, "Warden goes on without this file") || !strings.Contains(out, "went on") {
		t.Errorf("the project's file: exit %d stdout %q stderr %q", code, out, stderr)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := newRun(t).exec("--version")
	if code != 0 || !strings.HasPrefix(out, "warden ") {
		t.Errorf("exit %d out %q", code, out)
	}
}

func TestKilledRunResumesAsAValidConversation(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.Text("Starting with a quick one.").ToolCall("fast", "bash", `{"command":"echo quick"}`).ToolCall("slow", "bash", `{"command":"sleep 30"}`),
	)
	r := newRun(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-p", "run both", "--base-url", server.URL(), "--model", "m",
		"--permission-mode", "yolo", "--output-format", "stream-json")
	cmd.Dir, cmd.Env = r.workspace, r.env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		// Calls run in order: once the slow one is allowed, the fast one has finished.
		if strings.Contains(sc.Text(), `"type":"permission"`) && strings.Contains(sc.Text(), `"slow"`) {
			break
		}
	}
	// The killed warden cannot stop its `sleep 30`; its supervisor does, seeing it gone.
	sleepers := func() int {
		n := 0
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			env, err2 := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err == nil && err2 == nil && string(cmdline) == "sleep\x0030\x00" &&
				strings.Contains(string(env), fmt.Sprintf("WARDEN_INSTANCE=%d-", cmd.Process.Pid)) {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(10 * time.Second); sleepers() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow command never started")
		}
	}
	// The slow call is running: kill Warden without a chance to clean up.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// SIGKILL is delivered asynchronously: on a loaded machine the process may linger a moment.
	for deadline := time.Now().Add(5 * time.Second); sleepers() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("%d processes of the killed warden still run", sleepers())
			break
		}
	}

	server.Reply(fakeapi.Text("Picking up where we left off."))
	out, stderr, code := r.exec("--continue", "-p", "go on", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("resume exit %d: %s", code, stderr)
	}
	if evs := events(t, out); evs[len(evs)-1]["text"] != "Picking up where we left off." {
		t.Errorf("resumed run output: %s", out)
	}
	reqs := server.Requests()
	msgs := reqs[len(reqs)-1].Messages
	results := map[string]string{}
	var sawText, sawPrompt bool
	for _, m := range msgs {
		switch {
		case m.Role == "tool":
			results[m.ToolCallID] = m.Content
		case m.Role == "assistant" && m.Content == "Starting with a quick one.":
			sawText = true
		case m.Role == "user" && m.Content == "run both":
			sawPrompt = true
		}
	}
	if !sawText || !sawPrompt {
		t.Errorf("the transcript lost what was on the screen: %+v", msgs)
	}
	if !strings.Contains(results["fast"], "quick") || !strings.Contains(results["slow"], "Interrupted") || len(results) != 2 {
		t.Errorf("tool results sent after resume = %v", results)
	}

	// The history names both calls, the cut one as interrupted.
	out, stderr, code = r.exec("history", "--json")
	if code != 0 {
		t.Fatalf("history exit %d: %s", code, stderr)
	}
	hist := events(t, out)
	if len(hist) != 2 || hist[0]["id"] != "fast" || hist[0]["exit_code"] != float64(0) || hist[0]["decision"] != "allow" ||
		hist[0]["by"] != "readonly" || hist[1]["status"] != "interrupted" {
		t.Errorf("history = %s", out)
	}
	out, _, code = r.exec("sessions")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "run both") {
		t.Errorf("sessions: exit %d\n%s", code, out)
	}
}

func TestResumeUnknownSessionIsAClearError(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	_, stderr, code := newRun(t).exec("--resume", "nope", "-p", "x", "--base-url", server.URL(), "--model", "m")
	if code != 1 || !strings.Contains(stderr, `no session "nope"`) {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
}

func TestCheckHonoursSettingsAndFlags(t *testing.T) {
	r := newRun(t)
	os.MkdirAll(filepath.Join(r.workspace, ".warden"), 0o755)
	os.WriteFile(filepath.Join(r.workspace, ".warden", "settings.json"), []byte(`{"permissions":{"deny":["Bash(curl:*)"]}}`), 0o644)
	r.stdin = "ls -la\n\"printf 'a\\\\nb' | wc -l\"\ncurl example.com\n"
	out, stderr, code := r.exec("check", "--stdin", "--allow", "Bash(make test)", "--", "make test", "timeout 5 rm -rf build")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	evs := events(t, out)
	want := []struct{ command, decision string }{
		{"make test", "allow"}, {"timeout 5 rm -rf build", "ask"}, {"ls -la", "allow"}, {"printf 'a\\nb' | wc -l", "allow"},
		{"curl example.com", "deny"},
	}
	if len(evs) != len(want) {
		t.Fatalf("got %d results:\n%s", len(evs), out)
	}
	for i, w := range want {
		if evs[i]["command"] != w.command || evs[i]["decision"] != w.decision {
			t.Errorf("result %d = %v, want %s → %s", i, evs[i], w.command, w.decision)
		}
	}
	if evs[0]["rule"] != "Bash(make test)" || evs[4]["rule"] != "Bash(curl:*)" || evs[1]["suggested_rule"] == nil {
		t.Errorf("rules: %v / %v / %v", evs[0], evs[4], evs[1])
	}
}

func TestHeadlessReadEditReread(t *testing.T) {
	script := func(s *fakeapi.Server) {
		s.Reply(
			fakeapi.ToolCall("r1", "read_file", `{"path":"greet.go"}`),
			fakeapi.ToolCall("e1", "edit_file", `{"path":"greet.go","old_string":"Hello","new_string":"Goodbye"}`),
			fakeapi.ToolCall("r2", "read_file", `{"path":"greet.go"}`),
			fakeapi.Text("Changed the greeting."),
		)
	}
	const original = "package greet\n\nconst Greeting = \"Hello\"\n"
	for _, tc := range []struct {
		mode    string
		want    string
		allowed bool
	}{
		{"accept-edits", "package greet\n\nconst Greeting = \"Goodbye\"\n", true},
		{"default", original, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			server := fakeapi.New()
			defer server.Close()
			script(server)
			r := newRun(t)
			path := filepath.Join(r.workspace, "greet.go")
			if err := os.WriteFile(path, []byte(original), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := r.exec("-p", "say goodbye", "--base-url", server.URL(), "--model", "m",
				"--permission-mode", tc.mode, "--output-format", "stream-json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("file = %q, want %q", got, tc.want)
			}
			decisions := map[string]string{}
			for _, e := range events(t, out) {
				if e["type"] == "permission" {
					decisions[e["id"].(string)] = e["decision"].(string) + "/" + e["by"].(string)
				}
			}
			if decisions["r1"] != "allow/readonly" || decisions["r2"] != "allow/readonly" {
				t.Errorf("reads: %v", decisions)
			}
			wantEdit := "deny/policy"
			if tc.allowed {
				wantEdit = "allow/mode"
			}
			if decisions["e1"] != wantEdit {
				t.Errorf("edit decided %q, want %q", decisions["e1"], wantEdit)
			}
			reread := server.Requests()[3].Messages
			last := reread[len(reread)-1].Content
			if tc.allowed != strings.Contains(last, "Goodbye") {
				t.Errorf("the re-read saw %q", last)
			}
		})
	}
}

func TestSubAgentSearchesWithoutAsking(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("t1", "task", `{"description":"find the greeting","prompt":"Which file defines Greeting?"}`),
		fakeapi.ToolCall("g1", "grep", `{"pattern":"Greeting ="}`),
		fakeapi.ToolCall("r1", "read_file", `{"path":"greet.go"}`),
		fakeapi.Text("greet.go defines Greeting on line 3."),
		fakeapi.Text("It is in greet.go."),
	)
	r := newRun(t)
	os.WriteFile(filepath.Join(r.workspace, "greet.go"), []byte("package greet\n\nconst Greeting = \"Hello\"\n"), 0o644)
	out, stderr, code := r.exec("-p", "where is the greeting?", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var child []map[string]any
	for _, e := range events(t, out) {
		if e["parent_id"] == "t1" {
			child = append(child, e)
		}
	}
	perms := 0
	for _, e := range child {
		if e["type"] == "permission" {
			perms++
			if e["decision"] != "allow" || e["by"] != "readonly" || e["agent"] != "find the greeting" {
				t.Errorf("child permission = %v", e)
			}
		}
	}
	if perms != 2 {
		t.Errorf("child events = %v", child)
	}
	reqs := server.Requests()
	parent := reqs[len(reqs)-1].Messages
	result := parent[len(parent)-1].Content
	if !strings.HasPrefix(result, "greet.go defines Greeting on line 3.") || strings.Contains(result, "package greet") {
		t.Errorf("the parent received %q", result)
	}
	out, _, _ = r.exec("history")
	if !strings.Contains(out, "  grep") || !strings.Contains(out, "  read_file") {
		t.Errorf("history does not indent the child's calls:\n%s", out)
	}
}

func TestSandboxBoundsCommandsAndAutoAllowsInsideIt(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	userCfg := filepath.Join(r.env[2][len("XDG_CONFIG_HOME="):], "warden")
	os.MkdirAll(userCfg, 0o755)
	os.WriteFile(filepath.Join(userCfg, "settings.json"), []byte(`{"sandbox":{"auto_allow":true}}`), 0o644)
	outside := filepath.Join(t.TempDir(), "escaped.txt")
	server.Reply(
		fakeapi.ToolCall("in", "bash", `{"command":"touch inside.txt"}`).
			ToolCall("out", "bash", `{"command":"touch `+outside+`"}`).
			ToolCall("esc", "bash", `{"command":"touch `+outside+`","dangerously_unsandboxed":true}`),
		fakeapi.Text("done"),
	)
	out, stderr, code := r.exec("-p", "make files", "--base-url", server.URL(), "--model", "m", "--sandbox", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "inside.txt")); err != nil {
		t.Errorf("the write inside the workspace did not happen: %v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("a sandboxed command wrote outside the workspace")
	}
	decided := map[string]string{}
	results := map[string]string{}
	for _, e := range events(t, out) {
		switch e["type"] {
		case "permission":
			decided[e["id"].(string)] = e["decision"].(string) + "/" + e["by"].(string)
		case "tool_result":
			results[e["id"].(string)] = e["output"].(string)
		}
	}
	if decided["in"] != "allow/sandbox" || decided["out"] != "allow/sandbox" || decided["esc"] != "deny/policy" {
		t.Errorf("decisions = %v", decided)
	}
	if !strings.Contains(results["out"], "sandbox") {
		t.Errorf("the failed write was not explained: %q", results["out"])
	}
}

// TestTmuxScript drives the real binary in tmux against the fake server (scripts/tmux-test.sh): the
// conversation, the modal, streaming, interrupt, sub-agents, the history, quitting and resuming, as a
// person at a terminal sees them.
func TestTmuxScript(t *testing.T) {
	t.Parallel() // the two slowest tests of the package; neither shares state with the others
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed for this test: install it (bash .ci/run does)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", filepath.Join("..", "scripts", "tmux-test.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/tmux-test.sh failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("scripts/tmux-test.sh did not pass:\n%s", out)
	}
}

// pidAlive reports whether the process in the workspace file name is still running.
func pidAlive(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no pid file: %v", err)
	}
	pid := strings.TrimSpace(string(b))
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	// A zombie waiting for its parent is gone for our purpose.
	return err == nil && !strings.Contains(string(st), ") Z ")
}

func TestNothingOutlivesWarden(t *testing.T) {
	t.Run("exit with a background task running", func(t *testing.T) {
		server := fakeapi.New()
		defer server.Close()
		server.Reply(
			fakeapi.ToolCall("bg", "bash", `{"command":"sleep 300 & echo $! > bg.pid; wait","run_in_background":true}`),
			// The answer comes once the task has surely started.
			fakeapi.Text("Started it.").Stall(500*time.Millisecond),
		)
		r := newRun(t)
		if _, stderr, code := r.exec("-p", "start a server", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		deadline := time.Now().Add(5 * time.Second)
		for pidAlive(t, filepath.Join(r.workspace, "bg.pid")) {
			if time.Now().After(deadline) {
				t.Fatal("the background task's process outlived warden")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("SIGTERM during a command", func(t *testing.T) {
		server := fakeapi.New()
		defer server.Close()
		server.Reply(fakeapi.ToolCall("fg", "bash", `{"command":"sleep 300 & echo $! > fg.pid; wait"}`))
		r := newRun(t)
		cmd := exec.Command(binary, "-p", "wait", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo",
			"--output-format", "stream-json")
		cmd.Dir, cmd.Env = r.workspace, r.env
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pidFile := filepath.Join(r.workspace, "fg.pid")
		deadline := time.Now().Add(10 * time.Second)
		for {
			if b, err := os.ReadFile(pidFile); err == nil && len(strings.TrimSpace(string(b))) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the command never started")
			}
			time.Sleep(10 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatal("warden did not exit on SIGTERM")
		}
		if pidAlive(t, pidFile) {
			t.Error("the command's process outlived warden")
		}
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
		// The command was stopped because Warden is exiting, not by the person; the run did not finish.
		var sawTool, sawResult bool
		for _, ev := range events(t, stdout.String()) {
			switch ev["type"] {
			case "tool_result":
				sawTool = true
				if out, _ := ev["output"].(string); !strings.Contains(out, "Warden is exiting") {
					t.Errorf("tool_result output %q", out)
				}
			case "result":
				sawResult = true
				if ev["is_error"] != true || ev["interrupted"] != true {
					t.Errorf("result %v", ev)
				}
			}
		}
		if !sawTool || !sawResult {
			t.Errorf("events: %s", stdout.String())
		}
	})
}

// A session id is a name in the sessions directory, never a path: --resume must not open (and append to)
// a file elsewhere.
func TestSessionIDIsNotAPath(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	outside := filepath.Join(filepath.Dir(r.workspace), "other")
	if err := os.WriteFile(outside+".jsonl", []byte(`{"type":"session","id":"x","cwd":"/"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rel := "../../../other" // from <root>/state/warden/sessions
	_, stderr, code := r.exec("--resume", rel, "-p", "x", "--base-url", server.URL(), "--model", "m")
	if code != 2 || !strings.Contains(stderr, "not a session id") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	_, stderr, code = r.exec("history", "--session", rel)
	if code != 2 || !strings.Contains(stderr, "not a session id") {
		t.Errorf("history: exit %d stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(outside + ".jsonl"); strings.Count(string(b), "\n") != 1 {
		t.Errorf("the file outside was written: %s", b)
	}
}

func TestCheckJudgesAsASandboxedSessionWould(t *testing.T) {
	r := newRun(t)
	userCfg := filepath.Join(r.env[2][len("XDG_CONFIG_HOME="):], "warden")
	os.MkdirAll(userCfg, 0o755)
	os.WriteFile(filepath.Join(userCfg, "settings.json"), []byte(`{"sandbox":{"auto_allow":true}}`), 0o644)
	out, _, code := r.exec("check", "--sandbox", "--", "npm install")
	if code != 0 || !strings.Contains(out, `"decision":"allow"`) {
		t.Errorf("with the sandbox: exit %d %s", code, out)
	}
	out, _, _ = r.exec("check", "--", "npm install")
	if !strings.Contains(out, `"decision":"ask"`) {
		t.Errorf("without the sandbox: %s", out)
	}
}

func TestBadRuleNamesWhereItWasWritten(t *testing.T) {
	r := newRun(t)
	os.MkdirAll(filepath.Join(r.workspace, ".warden"), 0o755)
	path := filepath.Join(r.workspace, ".warden", "settings.local.json")
	os.WriteFile(path, []byte(`{"permissions":{"deny":["Bash(rm"]}}`), 0o644)
	_, stderr, code := r.exec("check", "--", "ls")
	if code != 1 || !strings.Contains(stderr, path+":1:25: permissions.deny:") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	// The project's shared file: the rule is left out, said where it was written, and the rest applies.
	project := filepath.Join(r.workspace, ".warden", "settings.json")
	must(t, os.Rename(path, project))
	os.WriteFile(project, []byte(`{"permissions":{"deny":["Bash(rm", "Bash(cat:*)"]}}`), 0o644)
	out, stderr, code := r.exec("check", "--", "cat x")
	if code != 0 || !strings.Contains(stderr, project+":1:25: permissions.deny:") || !strings.Contains(stderr, "goes on without this rule") ||
		!strings.Contains(out, `"decision":"deny"`) {
		t.Errorf("the project's rule: exit %d stdout %q stderr %q", code, out, stderr)
	}
	os.Remove(project)
	_, stderr, code = r.exec("check", "--allow", "Bash(ls", "--", "ls")
	if code != 2 || !strings.Contains(stderr, "--allow: permissions.allow:") {
		t.Errorf("flag: exit %d stderr %q", code, stderr)
	}
}
