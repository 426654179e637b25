package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// Hook scripts written as Claude Code's documentation writes them, in shell and in Python, run by the real
// binary against the fake server.

// hookScript writes an executable hook script beside the workspace and returns its path.
func hookScript(t *testing.T, r *invocation, name, body string) string {
	t.Helper()
	path := filepath.Join(filepath.Dir(r.workspace), "hooks", name)
	writeFile(t, path, body)
	must(t, os.Chmod(path, 0o755))
	return path
}

// userSettings writes the person's Warden settings.
func userSettings(t *testing.T, r *invocation, settings string) {
	t.Helper()
	writeFile(t, filepath.Join(filepath.Dir(r.workspace), "config", "warden", "settings.json"), settings)
}

// hooksJSON is a settings file's "hooks" with one hook: event, matcher, command and timeout (0 for none).
func hooksJSON(t *testing.T, event, matcher, command string, timeout int) string {
	t.Helper()
	h := map[string]any{"type": "command", "command": command}
	if timeout > 0 {
		h["timeout"] = timeout
	}
	b, err := json.Marshal(map[string]any{"hooks": map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}}})
	must(t, err)
	return string(b)
}

// toolMessages are the tool results the model was sent in request i, by call id.
func toolMessages(t *testing.T, s *fakeapi.Server, i int) map[string]string {
	t.Helper()
	reqs := s.Requests()
	if i >= len(reqs) {
		t.Fatalf("only %d requests reached the model", len(reqs))
	}
	out := map[string]string{}
	for _, m := range reqs[i].Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// permissions are the stream-json permission events, by call id.
func permissionsOf(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	for _, e := range events(t, out) {
		if e["type"] == "permission" {
			got[e["id"].(string)] = e
		}
	}
	return got
}

func TestAPreToolUseHookOnBashBlocksGrepAndTheModelReadsWhy(t *testing.T) {
	r := newRun(t)
	writeFile(t, filepath.Join(r.workspace, "notes.txt"), "TODO: one\n")
	script := hookScript(t, r, "no-grep.sh", `#!/bin/bash
# Claude Code's example: steer the model from grep to rg.
input=$(cat)
if printf '%s' "$input" | grep -Eq '"command": ?"grep '; then
  echo "Use rg (ripgrep) instead of grep: it is faster and respects .gitignore" >&2
  exit 2
fi
exit 0
`)
	userSettings(t, r, hooksJSON(t, "PreToolUse", "Bash", script, 0))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("g", "bash", `{"command":"grep -r TODO ."}`).ToolCall("l", "bash", `{"command":"ls"}`),
		fakeapi.Text("I will use rg."),
	)
	out, stderr, code := r.exec("-p", "find the TODOs", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := toolMessages(t, server, 1)
	if !strings.Contains(got["g"], "Use rg (ripgrep) instead of grep") || strings.Contains(got["g"], "TODO: one") {
		t.Errorf("the model read %q for grep", got["g"])
	}
	if !strings.Contains(got["l"], "notes.txt") {
		t.Errorf("ls, which the hook lets through, gave %q", got["l"])
	}
	perms := permissionsOf(t, out)
	if p := perms["g"]; p["decision"] != "deny" || p["by"] != "hook" || !strings.Contains(p["reason"].(string), "Use rg") {
		t.Errorf("grep's permission = %v", p)
	}
	if p := perms["l"]; p["decision"] != "allow" || p["by"] != "readonly" {
		t.Errorf("ls's permission = %v", p)
	}
}

func TestAHooksAllowForACommandADenyRuleCoversIsStillDenied(t *testing.T) {
	r := newRun(t)
	writeFile(t, filepath.Join(r.workspace, "precious.txt"), "keep me\n")
	script := hookScript(t, r, "allow-all.py", `#!/usr/bin/env python3
import json
import sys

data = json.load(sys.stdin)
print(json.dumps({
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "this hook trusts " + data["tool_input"]["command"],
    }
}))
sys.exit(0)
`)
	userSettings(t, r, hooksJSON(t, "PreToolUse", "Bash", script, 0))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("rm", "bash", `{"command":"rm precious.txt"}`).ToolCall("touch", "bash", `{"command":"touch made.txt"}`),
		fakeapi.Text("done"),
	)
	out, stderr, code := r.exec("-p", "clean up", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json",
		"--deny", "Bash(rm:*)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "precious.txt")); err != nil {
		t.Errorf("the deny rule did not hold against the hook's allow: %v", err)
	}
	perms := permissionsOf(t, out)
	if p := perms["rm"]; p["decision"] != "deny" || p["by"] != "rule" || p["rule"] != "Bash(rm:*)" {
		t.Errorf("rm's permission = %v", p)
	}
	// Headless, touch would ask and be denied; the hook's allow is an allow rule for it.
	if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err != nil {
		t.Errorf("the hook's allow did not let touch run: %v", err)
	}
	if p := perms["touch"]; p["decision"] != "allow" || p["by"] != "hook" || !strings.Contains(p["reason"].(string), "this hook trusts touch made.txt") {
		t.Errorf("touch's permission = %v", p)
	}
}

func TestPostToolUseSeesBashAndItsResponse(t *testing.T) {
	r := newRun(t)
	seen := filepath.Join(filepath.Dir(r.workspace), "seen.json")
	script := hookScript(t, r, "post.py", `#!/usr/bin/env python3
import json
import os
import sys

data = json.load(sys.stdin)
data["env_project_dir"] = os.environ.get("CLAUDE_PROJECT_DIR")
with open(sys.argv[1], "w") as f:
    json.dump(data, f)
print(json.dumps({"decision": "block", "reason": "the post hook read: " + data["tool_response"]["stdout"].strip()}))
`)
	userSettings(t, r, hooksJSON(t, "PostToolUse", "Bash", script+" "+seen, 0))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("e", "bash", `{"command":"echo hello-from-bash"}`), fakeapi.Text("ok"))
	if _, stderr, code := r.exec("-p", "say hello", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("the PostToolUse hook did not run: %v", err)
	}
	var in map[string]any
	must(t, json.Unmarshal(b, &in))
	input, _ := in["tool_input"].(map[string]any)
	response, _ := in["tool_response"].(map[string]any)
	if in["hook_event_name"] != "PostToolUse" || in["tool_name"] != "Bash" || input["command"] != "echo hello-from-bash" ||
		!strings.Contains(response["stdout"].(string), "hello-from-bash") || in["cwd"] != r.workspace ||
		in["env_project_dir"] != r.workspace || in["session_id"] == "" || in["tool_use_id"] != "e" {
		t.Errorf("the hook was told %s", b)
	}
	if tp, _ := in["transcript_path"].(string); !strings.HasSuffix(tp, in["session_id"].(string)+".jsonl") {
		t.Errorf("transcript_path = %v", in["transcript_path"])
	}
	if got := toolMessages(t, server, 1)["e"]; !strings.Contains(got, "hello-from-bash") || !strings.Contains(got, "the post hook read: hello-from-bash") {
		t.Errorf("the model read %q", got)
	}
}

func TestUserPromptSubmitOutputJoinsTheContext(t *testing.T) {
	r := newRun(t)
	// A hook of Claude Code's own settings, as a person who used it has them.
	script := hookScript(t, r, "ticket.sh", "#!/bin/sh\ncat > /dev/null\necho \"Current ticket: ABC-123 (login page)\"\n")
	writeFile(t, filepath.Join(homeOf(r), ".claude", "settings.json"),
		`{"model": "opus", "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "`+script+`"}]}]}}`)
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("on it"))
	if _, stderr, code := r.exec("-p", "fix the bug", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := server.Requests()[0].LastUser(); !strings.Contains(got, "Current ticket: ABC-123 (login page)") || !strings.Contains(got, "fix the bug") {
		t.Errorf("the first request's prompt = %q", got)
	}

	// Exit 2 keeps the prompt from the model and tells the person why.
	block := hookScript(t, r, "no-secrets.sh", "#!/bin/sh\nif grep -q hunter2; then echo 'the prompt holds a password' >&2; exit 2; fi\n")
	userSettings(t, r, hooksJSON(t, "UserPromptSubmit", "", block, 0))
	before := len(server.Requests())
	_, stderr, code := r.exec("-p", "log in with hunter2", "--base-url", server.URL(), "--model", "m")
	if code != 1 || !strings.Contains(stderr, "the prompt holds a password") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if n := len(server.Requests()); n != before {
		t.Errorf("a blocked prompt reached the model (%d requests)", n-before)
	}
}

func TestAHookPastItsTimeoutIsKilledAndTheTurnGoesOn(t *testing.T) {
	r := newRun(t)
	writeFile(t, filepath.Join(r.workspace, "hello.txt"), "hello, reader\n")
	script := hookScript(t, r, "slow.sh", "#!/bin/bash\necho $$ > hook.pid\nsleep 300 &\necho $! > sleep.pid\nwait\n")
	userSettings(t, r, hooksJSON(t, "PreToolUse", "Read", script, 1))
	server := fakeapi.New()
	defer server.Close()
	check := `for f in hook.pid sleep.pid; do p=$(cat $f); if [ -e /proc/$p ] && ! grep -q '^State:.*Z' /proc/$p/status; then echo "$f ALIVE"; else echo "$f GONE"; fi; done`
	checkJSON, _ := json.Marshal(map[string]string{"command": check})
	server.Reply(
		fakeapi.ToolCall("read", "read_file", `{"path":"hello.txt"}`),
		// Asked while Warden still runs: once it exits, its supervisor ends everything anyway.
		fakeapi.ToolCall("check", "bash", string(checkJSON)),
		fakeapi.Text("done"),
	)
	_, stderr, code := r.exec("-p", "read hello.txt", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := toolMessages(t, server, 1)["read"]; !strings.Contains(got, "hello, reader") {
		t.Errorf("the read did not go on after the hook's timeout: %q", got)
	}
	if !strings.Contains(stderr, "did not finish within 1s") {
		t.Errorf("the person was not told of the timeout: %q", stderr)
	}
	got := toolMessages(t, server, 2)["check"]
	if !strings.Contains(got, "hook.pid GONE") || !strings.Contains(got, "sleep.pid GONE") {
		t.Errorf("the hook's processes after its timeout: %q", got)
	}
}

func TestAnUntrustedProjectsHooksNeverRun(t *testing.T) {
	r := newRun(t)
	marks := filepath.Join(filepath.Dir(r.workspace), "marks")
	must(t, os.MkdirAll(marks, 0o755))
	all := map[string]any{}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"} {
		all[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "touch " + filepath.Join(marks, ev)}}}}
	}
	b, _ := json.Marshal(map[string]any{"hooks": all})
	writeFile(t, filepath.Join(r.workspace, ".warden", "settings.json"), string(b))
	writeFile(t, filepath.Join(r.workspace, ".claude", "settings.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "touch `+filepath.Join(marks, "claude")+`"}]}]}}`)
	server := fakeapi.New()
	defer server.Close()
	run := func(flags ...string) {
		t.Helper()
		server.Reply(fakeapi.ToolCall("ls", "bash", `{"command":"ls"}`), fakeapi.Text("done"))
		args := append([]string{"-p", "list", "--base-url", server.URL(), "--model", "m"}, flags...)
		if _, stderr, code := r.exec(args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	run()
	if left, _ := os.ReadDir(marks); len(left) != 0 {
		t.Fatalf("an untrusted project's hooks ran: %v", left)
	}
	run("--trust")
	left, _ := os.ReadDir(marks)
	if len(left) != 7 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("in a trusted workspace the project's hooks ran: %v, want all seven", names)
	}
}
