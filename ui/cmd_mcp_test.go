package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/mcp"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// fakeMCP stands for the session's servers.
type fakeMCP struct {
	mu       sync.Mutex
	status   []mcp.ServerStatus
	prompts  []mcp.PromptStatus
	onChange func()
	asked    []string
}

func (f *fakeMCP) Status() []mcp.ServerStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

func (f *fakeMCP) Counts() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ready := 0
	for _, s := range f.status {
		if s.State == mcp.Ready {
			ready++
		}
	}
	return ready, len(f.status)
}

func (f *fakeMCP) Prompts() []mcp.PromptStatus { return f.prompts }

func (f *fakeMCP) Prompt(ctx context.Context, command, args string) (string, error) {
	f.mu.Lock()
	f.asked = append(f.asked, command+" "+args)
	f.mu.Unlock()
	if args == "" {
		return "", errors.New("needs path")
	}
	return "Review " + args, nil
}

func (f *fakeMCP) SetOnChange(fn func()) { f.onChange = fn }

func newFakeMCP() *fakeMCP {
	return &fakeMCP{
		status: []mcp.ServerStatus{
			{Name: "files", Transport: "stdio", Target: "mcp-server-filesystem .", File: ".mcp.json", State: mcp.Ready,
				Tools:   []mcp.ToolStatus{{Name: "mcp__files__read_file", ReadOnly: true}, {Name: "mcp__files__write_file"}},
				Prompts: []mcp.PromptStatus{{Command: "mcp__files__review", Name: "review", Description: "Review a file.\nMore."}}},
			{Name: "db", Transport: "stdio", Target: "db-server", File: "settings.json", State: mcp.Failed,
				Error: "could not start (exit status 2)\nstderr (last lines; all of it in /tmp/db.log):\nfatal: no database"},
		},
		prompts: []mcp.PromptStatus{{Command: "mcp__files__review", Name: "review", Description: "Review a file.\nMore.",
			Args: []mcp.PromptArg{{Name: "path", Required: true}}}},
	}
}

func newMCPModel(t *testing.T, f *fakeMCP) *Model {
	t.Helper()
	m, _ := newTestModel(t, 100, 30)
	m.opts.MCP = f
	if cmd := watchMCP(m); cmd != nil {
		m.Update(cmd())
	}
	return m
}

func TestStatusLineCountsReadyServers(t *testing.T) {
	m := newMCPModel(t, newFakeMCP())
	if !strings.Contains(plain(m), "mcp 1/2") {
		t.Errorf("status line:\n%s", plain(m))
	}
	m2, _ := newTestModel(t, 100, 30)
	if strings.Contains(plain(m2), "mcp ") {
		t.Error("the count shows without servers")
	}
}

func TestMCPCommandListsServersToolsAndErrors(t *testing.T) {
	m := newMCPModel(t, newFakeMCP())
	typeText(m, "/mcp")
	press(m, "enter")
	screen := plain(m)
	for _, want := range []string{"MCP servers (1 of 2 ready)", "files  ready  stdio  mcp-server-filesystem .",
		"mcp__files__read_file  read-only (the server's mark, not trusted)", "mcp__files__write_file",
		"/mcp__files__review  Review a file.", "db  failed", "fatal: no database"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/mcp lacks %q:\n%s", want, screen)
		}
	}
	press(m, "esc")
	if len(m.overlays) != 0 {
		t.Error("esc did not close /mcp")
	}
}

func TestServerPromptsAreCommands(t *testing.T) {
	f := newFakeMCP()
	m := newMCPModel(t, f)
	c, ok := m.commands.lookup("mcp__files__review")
	if !ok || c.Source != "mcp: files" || c.Args != "PATH" || c.Desc != "Review a file." || !c.Idle {
		t.Fatalf("command %+v %v", c, ok)
	}
	cmd := c.Run(m, "main.go")
	if msg, ok := cmd().(promptMsg); !ok || msg.Text != "Review main.go" {
		t.Errorf("running the prompt gave %#v", cmd())
	}
	// A failure is said, and nothing is sent.
	res, ok := c.Run(m, "")().(commandResult)
	if !ok {
		t.Fatal("a failed prompt did not come back as a result")
	}
	res(m)
	if !strings.Contains(plain(m), "/mcp__files__review: needs path") {
		t.Errorf("the failure is not shown:\n%s", plain(m))
	}
	// A server that loses its prompts loses its commands at the next change.
	f.prompts = nil
	m.Update(commandResult(func(m *Model) tea.Cmd { return m.mcpChanged() }))
	if _, ok := m.commands.lookup("mcp__files__review"); ok {
		t.Error("the prompt's command outlived the prompt")
	}
}

func TestAChangeReachesTheUIOnceAtATime(t *testing.T) {
	f := newFakeMCP()
	m, _ := newTestModel(t, 100, 30)
	m.opts.MCP = f
	got := make(chan tea.Msg, 200)
	m.send.set(func(msg tea.Msg) { got <- msg })
	watchMCP(m)
	for range 100 {
		f.onChange()
	}
	next := func() tea.Msg {
		select {
		case msg := <-got:
			return msg
		case <-time.After(10 * time.Second):
			t.Fatal("no refresh reached the UI")
		}
		return nil
	}
	first := next()
	// Until Update takes it, no other refresh is on its way: the flag stays set.
	select {
	case <-got:
		t.Fatal("a second refresh was sent before the first was taken")
	default:
	}
	m.Update(first)
	f.onChange()
	next()
}

func TestModalShowsServerToolAndFormattedArguments(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	args := `{"path":"/tmp/a.txt","content":"line 1\nline 2","mode":{"append":true,"lines":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}}`
	send(m, agent.ToolCallStarted{ID: "c1", Name: "mcp__files__write_file", Input: json.RawMessage(args),
		Access: tools.Access{Kind: tools.AccessMCP, Summary: "files · write_file", MCP: &tools.MCPTarget{Server: "files", Tool: "write_file"}}})
	reply := make(chan agent.Approval, 1)
	m.Update(approvalMsg{reply: reply, req: agent.ApprovalRequest{CallID: "c1", Tool: "mcp__files__write_file", Input: json.RawMessage(args),
		Access:  tools.Access{Kind: tools.AccessMCP, Summary: "files · write_file", MCP: &tools.MCPTarget{Server: "files", Tool: "write_file", ReadOnlyHint: true}},
		Verdict: permissions.Verdict{Decision: permissions.Ask, Reason: "calls `write_file` of MCP server `files`", SuggestedRule: "mcp__files__write_file"}}})
	clock.t = clock.t.Add(typeAheadGuard * 2)
	screen := plain(m)
	for _, want := range []string{"Allow mcp__files__write_file?", "server files", "tool   write_file  marked read-only by the server (not trusted)",
		`"path": "/tmp/a.txt",`, `"content": "line 1\nline 2",`, "↑↓ PgUp/PgDn Home/End to read it all"} {
		if !strings.Contains(screen, want) {
			t.Errorf("modal lacks %q:\n%s", want, screen)
		}
	}
	press(m, "end")
	if screen := plain(m); !strings.Contains(screen, "20") || !strings.Contains(screen, "}") {
		t.Errorf("the end of the arguments cannot be reached:\n%s", screen)
	}
	press(m, "a")
	if !strings.Contains(plain(m), "mcp__files__write_file") || !strings.Contains(plain(m), "enter save and allow") {
		t.Errorf("always-allow does not show the rule:\n%s", plain(m))
	}
	press(m, "enter")
	if ap := answered(t, reply); !ap.Allow || ap.Rule != "mcp__files__write_file" || ap.Scope != agent.ForSession {
		t.Errorf("answer %+v", ap)
	}
}

// /status counts the MCP servers as the status line does, and points to /mcp; a wall not yet found out
// at start says so; a status that fits the screen has no scroll percentage in its title.
func TestStatusCountsMCPServersAndTheWallBeingFoundOut(t *testing.T) {
	m := newMCPModel(t, newFakeMCP())
	m.opts.Settle = func() (string, []string) { return "wall: bubblewrap", nil }
	typeText(m, "/status")
	press(m, "enter")
	s := plain(m)
	for _, want := range []string{"MCP           1 of 2 servers ready (/mcp)", "Wall          being found out"} {
		if !strings.Contains(s, want) {
			t.Errorf("/status lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "%") {
		t.Errorf("a status that fits has a scroll percentage:\n%s", s)
	}
}
