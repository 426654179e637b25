package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// These tests run the real agent loop against the fake model server, with the manager as its source of
// tools, so that an MCP call goes through dispatch and the permission engine exactly as in a session.

type approvals struct {
	mu   sync.Mutex
	reqs []agent.ApprovalRequest
	ans  agent.Approval
}

func (a *approvals) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Approval, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, req)
	return a.ans, nil
}

func (a *approvals) asked() []agent.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]agent.ApprovalRequest(nil), a.reqs...)
}

type run struct {
	api    *fakeapi.Server
	done   agent.TurnDone
	events []agent.Event
}

func runAgent(t *testing.T, m agent.ToolSource, policy permissions.Policy, approver agent.Approver, replies ...*fakeapi.Response) *run {
	t.Helper()
	return runAgentWith(t, m, policy, approver, nil, replies...)
}

// runAgentWith is runAgent with the agent's options changed by opts.
func runAgentWith(t *testing.T, m agent.ToolSource, policy permissions.Policy, approver agent.Approver, opts func(*agent.Options), replies ...*fakeapi.Response) *run {
	t.Helper()
	r := &run{api: fakeapi.New()}
	t.Cleanup(r.api.Close)
	r.api.Reply(replies...)
	if policy.Workspace == "" {
		policy.Workspace = t.TempDir()
	}
	engine, err := permissions.NewEngine(policy)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	o := agent.Options{
		Provider: agent.NewProvider(r.api.URL(), "sk-test", "fake-model"),
		Tools:    tools.NewRegistry(),
		Env:      tools.NewEnv(policy.Workspace, t.TempDir()),
		Engine:   engine,
		Approver: approver,
		Sink:     func(e agent.Event) { mu.Lock(); r.events = append(r.events, e); mu.Unlock() },
		System:   "system",
		MaxSteps: 5,
		More:     m,
	}
	if opts != nil {
		opts(&o)
	}
	a, err := agent.New(o)
	if err != nil {
		t.Fatal(err)
	}
	r.done = a.Run(ctxT(t), "go")
	return r
}

// toolResult is what the model was told for call id.
func (r *run) toolResult(t *testing.T, id string) string {
	t.Helper()
	for _, req := range r.api.Requests() {
		for _, m := range req.Messages {
			if m.Role == "tool" && m.ToolCallID == id {
				return m.Content
			}
		}
	}
	t.Fatalf("no result for %s", id)
	return ""
}

func (r *run) offered(name string) bool {
	reqs := r.api.Requests()
	if len(reqs) == 0 {
		return false
	}
	for _, tl := range reqs[0].Tools {
		if tl.Function.Name == name {
			return true
		}
	}
	return false
}

func (r *run) permission(id string) (agent.PermissionDecided, bool) {
	for _, e := range r.events {
		if p, ok := e.(agent.PermissionDecided); ok && p.ID == id {
			return p, true
		}
	}
	return agent.PermissionDecided{}, false
}

func TestACallIsAskedAndAllowedThroughTheAgent(t *testing.T) {
	m := inProcess(t)
	ap := &approvals{ans: agent.Approval{Allow: true}}
	r := runAgent(t, m, permissions.Policy{}, ap,
		fakeapi.ToolCall("c1", "mcp__test__write_note", `{"text":"remember"}`), fakeapi.Text("done"))
	if !r.offered("mcp__test__write_note") || !r.offered("mcp__test__echo") {
		t.Fatal("the MCP tools were not offered to the model")
	}
	asked := ap.asked()
	if len(asked) != 1 || asked[0].Access.Kind != tools.AccessMCP || asked[0].Verdict.Decision != permissions.Ask ||
		asked[0].Verdict.SuggestedRule != "mcp__test__write_note" || string(asked[0].Input) != `{"text":"remember"}` {
		t.Fatalf("approval requests %+v", asked)
	}
	if got := r.toolResult(t, "c1"); got != "written" {
		t.Errorf("result %q", got)
	}
	if p, _ := r.permission("c1"); p.Decision != permissions.Allow || p.By != "user" {
		t.Errorf("permission %+v", p)
	}
}

func TestADenyRuleHolds(t *testing.T) {
	for _, rule := range []string{"mcp__test", "mcp__test__write_note"} {
		m := inProcess(t)
		ap := &approvals{ans: agent.Approval{Allow: true}}
		r := runAgent(t, m, permissions.Policy{Mode: permissions.ModeYolo, Deny: []string{rule}}, ap,
			fakeapi.ToolCall("c1", "mcp__test__write_note", `{"text":"x"}`), fakeapi.Text("done"))
		if len(ap.asked()) != 0 {
			t.Errorf("%s: the person was asked", rule)
		}
		if got := r.toolResult(t, "c1"); !strings.Contains(got, "Permission denied") || !strings.Contains(got, rule) {
			t.Errorf("%s: result %q", rule, got)
		}
		if p, _ := r.permission("c1"); p.Decision != permissions.Deny || p.Rule != rule {
			t.Errorf("%s: permission %+v", rule, p)
		}
	}
}

func TestHeadlessDeniesUnlessARuleAllows(t *testing.T) {
	m := inProcess(t)
	r := runAgent(t, m, permissions.Policy{}, agent.HeadlessApprover{},
		fakeapi.ToolCall("c1", "mcp__test__echo", `{"text":"x"}`), fakeapi.Text("done"))
	if got := r.toolResult(t, "c1"); !strings.Contains(got, "Permission denied") {
		t.Errorf("headless without a rule: %q", got)
	}
	r = runAgent(t, m, permissions.Policy{Allow: []string{"mcp__test__echo"}}, agent.HeadlessApprover{},
		fakeapi.ToolCall("c1", "mcp__test__echo", `{"text":"x"}`), fakeapi.Text("done"))
	if got := r.toolResult(t, "c1"); got != "echo: x" {
		t.Errorf("headless with a rule: %q", got)
	}
}

func TestPlanModeRefusesToolsNotMarkedReadOnly(t *testing.T) {
	trust := true
	m := inProcess(t, config.MCPServerEntry{Name: "test", MCPServer: config.MCPServer{Command: "x", TrustReadOnly: &trust}})
	ap := &approvals{ans: agent.Approval{Allow: true}}
	r := runAgent(t, m, permissions.Policy{Mode: permissions.ModePlan}, ap,
		fakeapi.ToolCall("c1", "mcp__test__write_note", `{"text":"x"}`).ToolCall("c2", "mcp__test__echo", `{"text":"y"}`), fakeapi.Text("done"))
	if got := r.toolResult(t, "c1"); !strings.Contains(got, "plan mode only reads") {
		t.Errorf("write in plan mode: %q", got)
	}
	if got := r.toolResult(t, "c2"); got != "echo: y" {
		t.Errorf("a trusted read-only tool in plan mode: %q", got)
	}
	if len(ap.asked()) != 0 {
		t.Errorf("asked %d times", len(ap.asked()))
	}
}

// The reference servers others wrote, from npm: .ci/run installs them.
func npmServer(t *testing.T, bin string) string {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("%s is not installed (npm install -g @modelcontextprotocol/%s; .ci/run does it)", bin, strings.TrimPrefix(bin, "mcp-"))
	}
	return path
}

func TestServerEverything(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	t.Setenv("MY_SECRET_TOKEN", "s3cret")
	tasks := bash.NewTasks()
	m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline,
		ChildEnv: func(d string) []string { return tasks.ChildEnv(tools.BashSettings{}, d) }, Start: startWith(tasks)})
	t.Cleanup(m.Close)
	m.Add([]config.MCPServerEntry{{Name: "everything", MCPServer: config.MCPServer{Command: bin}}})
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	echo := toolByName(t, list, "mcp__everything__echo")
	if ac, _ := echo.Access(env, nil); !ac.MCP.ReadOnlyHint {
		t.Error("echo is annotated read-only by server-everything")
	}
	if res := call(t, ctxT(t), echo, env, `{"message":"hi"}`); res.IsError || !strings.Contains(res.Output, "hi") {
		t.Errorf("echo: %+v", res)
	}
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__everything__get-sum"), env, `{"a":2,"b":3}`); !strings.Contains(res.Output, "5") {
		t.Errorf("get-sum: %+v", res)
	}
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__everything__get-tiny-image"), env, `{}`); !strings.Contains(res.Output, "[image, image/png") {
		t.Errorf("get-tiny-image: %q", res.Output)
	}
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__everything__get-env"), env, `{}`); strings.Contains(res.Output, "s3cret") || !strings.Contains(res.Output, "WARDEN_INSTANCE") {
		t.Errorf("get-env shows a secret, or not the session's mark: %q", res.Output)
	}
	// A long operation cut by its timeout.
	ms := 500
	m2 := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline})
	t.Cleanup(m2.Close)
	m2.Add([]config.MCPServerEntry{{Name: "everything", MCPServer: config.MCPServer{Command: bin, TimeoutMS: &ms}}})
	long := toolByName(t, m2.Tools(ctxT(t)), "mcp__everything__trigger-long-running-operation")
	if res := call(t, ctxT(t), long, env, `{"duration": 30, "steps": 3}`); !res.TimedOut {
		t.Errorf("long operation: %+v", res)
	}
	if got, err := m.Prompt(ctxT(t), "mcp__everything__simple-prompt", ""); err != nil || got == "" {
		t.Errorf("simple-prompt: %q %v", got, err)
	}
}

func TestServerFilesystemAskedAllowedAndRecoveredAfterAKill(t *testing.T) {
	bin := npmServer(t, "mcp-server-filesystem")
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	m := New(Options{Workspace: root, LogDir: t.TempDir(), StartTimeout: deadline})
	t.Cleanup(m.Close)
	m.Add([]config.MCPServerEntry{{Name: "fs", MCPServer: config.MCPServer{Command: bin, Args: []string{root}}}})
	target := filepath.Join(root, "note.txt")
	ap := &approvals{ans: agent.Approval{Allow: true}}
	r := runAgent(t, m, permissions.Policy{Workspace: root}, ap,
		fakeapi.ToolCall("c1", "mcp__fs__write_file", `{"path":"`+target+`","content":"from mcp"}`), fakeapi.Text("done"))
	if len(ap.asked()) != 1 {
		t.Errorf("asked %d times", len(ap.asked()))
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != "from mcp" {
		t.Fatalf("file %q %v (result %q)", data, err, r.toolResult(t, "c1"))
	}
	// Killed from outside: reported, and started again by the next call.
	pid := serverPID(t, m, "fs")
	if err := syscallKillGroup(pid); err != nil {
		t.Fatal(err)
	}
	r = runAgent(t, m, permissions.Policy{Workspace: root, Allow: []string{"mcp__fs__read_text_file"}}, ap,
		fakeapi.ToolCall("c2", "mcp__fs__read_text_file", `{"path":"`+target+`"}`), fakeapi.Text("done"))
	got := r.toolResult(t, "c2")
	if got != "from mcp" {
		// The kill may be noticed first by the call itself: then the call says so and the next one works.
		if !strings.Contains(got, "stopped") {
			t.Fatalf("read after the kill: %q", got)
		}
		r = runAgent(t, m, permissions.Policy{Workspace: root, Allow: []string{"mcp__fs__read_text_file"}}, ap,
			fakeapi.ToolCall("c3", "mcp__fs__read_text_file", `{"path":"`+target+`"}`), fakeapi.Text("done"))
		if got := r.toolResult(t, "c3"); got != "from mcp" {
			t.Fatalf("read after the restart: %q", got)
		}
	}
	if pid2 := serverPID(t, m, "fs"); pid2 == pid {
		t.Error("the server was not started again")
	}
}
