package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

func (r *invocation) writeMCPJSON(t *testing.T, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.workspace, ".mcp.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMCPListShowsStateToolsAndErrors(t *testing.T) {
	r := newRun(t)
	r.writeMCPJSON(t, `{"mcpServers": {"broken": {"command": "sh", "args": ["-c", "echo cannot reach the database >&2; exit 4"]}}}`)
	out, stderr, code := r.exec("mcp", "list")
	if code != 0 || !strings.Contains(out, "broken  untrusted  (stdio) sh -c 'echo cannot reach the database >&2; exit 4'") ||
		!strings.Contains(out, "not started: this workspace is not trusted") {
		t.Errorf("untrusted: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = r.exec("mcp", "list", "--trust")
	if code != 0 || !strings.Contains(out, "broken  failed") || !strings.Contains(out, "exit status 4") || !strings.Contains(out, "cannot reach the database") {
		t.Errorf("trusted: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = r.exec("mcp", "list", "--trust", "--json")
	var st struct {
		Name, State, Error string
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &st); err != nil || st.Name != "broken" || st.State != "failed" {
		t.Errorf("--json: %q %v", out, err)
	}
	if _, stderr, code := r.exec("mcp", "lsit"); code != exitUsage || !strings.Contains(stderr, "usage: warden mcp list") {
		t.Errorf("a wrong subcommand: %d %q", code, stderr)
	}
}

func TestHeadlessCallsAnMCPToolThroughTheRules(t *testing.T) {
	if _, err := exec.LookPath("mcp-server-everything"); err != nil {
		t.Skip("mcp-server-everything is not installed (.ci/run installs it from npm)")
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("c1", "mcp__everything__echo", `{"message":"hi there"}`).ToolCall("c2", "mcp__everything__get-sum", `{"a":1,"b":2}`),
		fakeapi.Text("done"),
	)
	r := newRun(t)
	r.writeMCPJSON(t, `{"mcpServers": {"everything": {"command": "mcp-server-everything"}}}`)
	out, stderr, code := r.exec("-p", "go", "--trust", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json",
		"--allow", "mcp__everything__echo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	results := map[string]string{}
	for _, ev := range events(t, out) {
		if ev["type"] == "tool_result" {
			results[ev["id"].(string)], _ = ev["output"].(string)
		}
	}
	if results["c1"] != "Echo: hi there" {
		t.Errorf("allowed call: %q", results["c1"])
	}
	if !strings.Contains(results["c2"], "Permission denied") {
		t.Errorf("a call no rule allows, headless: %q", results["c2"])
	}
	hist, _, _ := r.exec("history")
	if !strings.Contains(hist, "mcp__everything__echo") || !strings.Contains(hist, `everything · echo {"message":"hi there"}`) {
		t.Errorf("history:\n%s", hist)
	}
}

// kill -9 leaves Warden no chance to stop its servers: the session's supervisor, which started them, stops
// them and everything they started.
func TestMCPServersDoNotOutliveAKilledWarden(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	// No answer is queued: the run waits for the server, which never answers, until it is killed.
	r := newRun(t)
	r.writeMCPJSON(t, `{"mcpServers": {"stuck": {"command": "sh", "args": ["-c", "sleep 300 & echo $! > child.pid; echo $$ > server.pid; exec sleep 301"]}}}`)
	cmd := exec.Command(binary, "-p", "wait", "--trust", "--base-url", server.URL(), "--model", "m")
	cmd.Dir, cmd.Env = r.workspace, r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	serverPid, childPid := filepath.Join(r.workspace, "server.pid"), filepath.Join(r.workspace, "child.pid")
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err1 := os.ReadFile(serverPid)
		c, err2 := os.ReadFile(childPid)
		if err1 == nil && err2 == nil && len(bytes.TrimSpace(b)) > 0 && len(bytes.TrimSpace(c)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the server never started: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline = time.Now().Add(10 * time.Second)
	for pidAlive(t, serverPid) || pidAlive(t, childPid) {
		if time.Now().After(deadline) {
			t.Fatalf("the MCP server (alive: %v) or what it started (alive: %v) outlived the killed warden",
				pidAlive(t, serverPid), pidAlive(t, childPid))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Opening a repository never runs a program it chose, even through the person's own servers: npx, the usual
// way to start one, runs the workspace's node_modules/.bin first. In a workspace not trusted such a server
// waits; `warden mcp list` and a headless run say so, and start it only with --trust.
func TestTheUsersNpxServerDoesNotRunTheWorkspacesProgram(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed (Node.js; .ci/run installs the MCP servers with npm)")
	}
	r := newRun(t)
	userDir := filepath.Join(filepath.Dir(r.workspace), "config", "warden")
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userDir, "settings.json"), []byte(`{"mcpServers": {"tool": {"command": "npx", "args": ["--no", "my-mcp-server"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(r.workspace, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(r.workspace, "MARKER")
	if err := os.WriteFile(filepath.Join(bin, "my-mcp-server"), []byte("#!/bin/sh\necho ran > "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.exec("mcp", "list")
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("warden mcp list ran the workspace's program in an untrusted workspace:\n%s%s", out, stderr)
	}
	if code != 0 || !strings.Contains(out, "tool  untrusted  (stdio) npx --no my-mcp-server") || !strings.Contains(out, "--trust") {
		t.Errorf("untrusted: exit %d\n%s%s", code, out, stderr)
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("done"))
	_, stderr, code = r.exec("-p", "go", "--base-url", server.URL(), "--model", "m")
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("a headless run ran the workspace's program in an untrusted workspace: %s", stderr)
	}
	if code != 0 || !strings.Contains(stderr, `your MCP server "tool" would run in this workspace`) {
		t.Errorf("headless: exit %d: %s", code, stderr)
	}
	// Trusted, it is the person's choice: the program runs (and, being no server, fails to start).
	if out, stderr, _ = r.exec("mcp", "list", "--trust"); !strings.Contains(out, "tool  failed") {
		t.Errorf("trusted:\n%s%s", out, stderr)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("with --trust the server did not start: %v", err)
	}
}

// Server names are case-sensitive: a rule that names a configured server in another case matches nothing,
// which for a deny rule would be silent; Warden says so at start.
func TestAnMCPRuleInTheWrongCaseIsReported(t *testing.T) {
	r := newRun(t)
	dir := filepath.Join(filepath.Dir(r.workspace), "config", "warden")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"mcpServers": {"github": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("done"))
	_, stderr, code := r.exec("-p", "go", "--base-url", server.URL(), "--model", "m", "--deny", "mcp__GitHub__delete_repo")
	if code != 0 || !strings.Contains(stderr, "the deny rule mcp__GitHub__delete_repo names no MCP server; server names are case-sensitive: did you mean mcp__github?") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
