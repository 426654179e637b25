package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// echo x | warden -p, warden -p < file and warden -p "words" --flags all send their prompt.
func TestPromptFromStdinWithBareP(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"from a pipe\n", []string{"-p"}, "from a pipe"},
		{"from a file\nsecond line\n", []string{"-p", "-"}, "from a file\nsecond line"},
		{"", []string{"-p", "words", "after", "--model", "m"}, "words after"},
		{"", []string{"-p=the whole prompt"}, "the whole prompt"},
	} {
		server.Reply(fakeapi.Text("ok"))
		r.stdin = tc.stdin
		args := append(append([]string{}, tc.args...), "--base-url", server.URL(), "--model", "m")
		out, stderr, code := r.exec(args...)
		if code != 0 || out != "ok\n" {
			t.Fatalf("%v: exit %d out %q err %q", tc.args, code, out, stderr)
		}
		reqs := server.Requests()
		if got := reqs[len(reqs)-1].LastUser(); got != tc.want {
			t.Errorf("%v: prompt %q, want %q", tc.args, got, tc.want)
		}
	}
}

// Global flags work after a subcommand's name too.
func TestGlobalFlagsBeforeASubcommand(t *testing.T) {
	r := newRun(t)
	out, stderr, code := r.exec("--permission-mode", "plan", "check", "--", "touch x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil || res["decision"] != "deny" {
		t.Errorf("plan mode did not apply: %s %v", out, err)
	}
	if _, stderr, code := r.exec("--model", "m", "sessions"); code != 0 {
		t.Errorf("sessions with a global flag: exit %d %s", code, stderr)
	}
}

// A run that fails before any answer leaves no session behind; --continue picks the last real one; with
// json output the failure is still a result object.
func TestFailedRunLeavesNoSession(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text("the real work"))
	if _, stderr, code := r.exec("-p", "real work", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	server.Reply(fakeapi.HTTPError(401, "bad key"))
	out, _, code := r.exec("-p", "doomed", "--base-url", server.URL(), "--model", "m", "--output-format", "json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if evs := events(t, out); len(evs) != 1 || evs[0]["is_error"] != true {
		t.Errorf("json output %q", out)
	}
	files, _ := filepath.Glob(filepath.Join(r.stateDir(), "warden", "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d session files: %v", len(files), files)
	}
	server.Reply(fakeapi.Text("continued"))
	if _, stderr, code := r.exec("-p", "more", "--continue", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("--continue exit %d: %s", code, stderr)
	}
	reqs := server.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); !strings.Contains(raw, "the real work") || strings.Contains(raw, "doomed") {
		t.Errorf("--continue sent %s", raw)
	}
}

// Set-up errors with json output still print a result; a base URL without a scheme says what to add.
func TestSetupErrorsAreResultsAndSayWhatToFix(t *testing.T) {
	r := newRun(t)
	out, stderr, code := r.exec("-p", "hi", "--base-url", "localhost:11434/v1", "--model", "m", "--output-format", "stream-json")
	if code != 1 || !strings.Contains(stderr, "add http:// or https://") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	evs := events(t, out)
	if len(evs) != 1 || evs[0]["type"] != "result" || evs[0]["is_error"] != true || !strings.Contains(evs[0]["text"].(string), "add http://") {
		t.Errorf("stdout %q", out)
	}
	out, _, code = r.exec("-p", "hi", "--permission-mode", "nonsense", "--output-format", "json", "--base-url", "http://127.0.0.1:1/v1")
	if evs := events(t, out); code != 2 || len(evs) != 1 || evs[0]["is_error"] != true {
		t.Errorf("usage error: exit %d out %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.stateDir(), "warden", "sessions")); err == nil {
		files, _ := filepath.Glob(filepath.Join(r.stateDir(), "warden", "sessions", "*.jsonl"))
		if len(files) != 0 {
			t.Errorf("failed set-ups left sessions: %v", files)
		}
	}
}

// Without --model, the first model the server lists that can chat is used.
func TestAutomaticModelSkipsModelsThatCannotChat(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.SetModels("dall-e-3", "text-embedding-3-small", "whisper-1", "zz-chat")
	server.Reply(fakeapi.Text("hi"))
	r := newRun(t)
	out, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if evs := events(t, out); evs[0]["model"] != "zz-chat" {
		t.Errorf("session event %v", evs[0])
	}
}

// stateDir is the XDG_STATE_HOME the invocation runs with.
func (r *invocation) stateDir() string {
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return v
		}
	}
	return ""
}
