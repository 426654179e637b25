package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// child wraps events of the sub-agent of task call parent.
func child(parent, label string, evs ...agent.Event) []agent.Event {
	out := make([]agent.Event, len(evs))
	for i, e := range evs {
		out[i] = agent.ChildEvent{ParentID: parent, Agent: label, Event: e}
	}
	return out
}

func taskStarted(id, desc, prompt string) agent.ToolCallStarted {
	in, _ := json.Marshal(map[string]any{"description": desc, "prompt": prompt})
	return agent.ToolCallStarted{ID: id, Name: "task", Input: in, Access: tools.Access{Kind: tools.AccessNone, Summary: desc}}
}

func bashStarted(id, command string) agent.ToolCallStarted {
	return agent.ToolCallStarted{ID: id, Name: "bash", Access: tools.Access{Kind: tools.AccessExec, Command: command, Summary: command}}
}

// startTask runs a task call whose child has listed the files and is about to write one. The child's
// call ids repeat the main agent's on purpose: ids are unique only within one conversation.
func startTask(m *Model) {
	send(m, bashStarted("c1", "pwd"),
		agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly"},
		agent.ToolFinished{ID: "c1", Result: tools.Result{Output: "/work/project\n", ExitCode: exit(0)}},
		taskStarted("c2", "find the config", "Find where the config is loaded.\nReport the file."),
		agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "readonly"})
	send(m, child("c2", "find the config",
		agent.TextDelta{Text: "Let me look around."},
		agent.AssistantText{Text: "Let me look around."},
		bashStarted("c1", "ls"),
		agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly"},
		agent.ToolOutput{ID: "c1", Chunk: "config.go\nmain.go\n"},
		agent.ToolFinished{ID: "c1", Result: tools.Result{ExitCode: exit(0)}, Duration: 12 * time.Millisecond},
		bashStarted("c2", "touch y"),
	)...)
}

func TestSubAgentCallsShowInsideTheTaskPanel(t *testing.T) {
	m, _ := newTestModel(t, 80, 30)
	startTask(m)
	s := plain(m)
	for _, want := range []string{"task · find the config", "“Find where the config is loaded.”", "↳ bash $ ls", "✓ exit 0", "↳ bash $ touch y", "deciding…", "Let me look around."} {
		if !strings.Contains(s, want) {
			t.Errorf("the task panel lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "Let me look around."); n != 1 {
		t.Errorf("the child's text shows %d times; it belongs only in the task panel:\n%s", n, s)
	}
	if got := m.byID["c1"].result.Output; got != "/work/project\n" {
		t.Errorf("the child's call c1 overwrote the main agent's c1: %q", got)
	}

	// The child's write asks: the modal names the child, and the child's panel (not the main c2) waits.
	msg, reply := touchRequest("c2", "Bash(touch:*)")
	msg.req.Agent = "find the config"
	msg.req.Access.Command = "touch y"
	m.Update(msg)
	s = plain(m)
	if !strings.Contains(s, "Allow bash? — sub-agent: find the config") {
		t.Errorf("the modal does not name the sub-agent:\n%s", s)
	}
	if m.byID["c2"].state != stateRunning || m.call(m.byID["c2"], "c2").state != stateAsking {
		t.Errorf("the wrong panel waits for approval: task %v, child %v", m.byID["c2"].state, m.call(m.byID["c2"], "c2").state)
	}
	// A decision for the main agent's c2 must not withdraw the child's question.
	send(m, agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "readonly"})
	if len(m.overlays) != 1 {
		t.Fatal("the main agent's call c2 withdrew the sub-agent's question")
	}
	m.clockAfterGuard()
	press(m, "y")
	if ap := answered(t, reply); !ap.Allow {
		t.Errorf("y answered %+v", ap)
	}
	send(m, child("c2", "find the config",
		agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "user"},
		agent.ToolFinished{ID: "c2", Result: tools.Result{ExitCode: exit(0)}},
		agent.TextDelta{Text: "The config is loaded in config.go."},
		agent.AssistantText{Text: "The config is loaded in config.go."},
		agent.TurnDone{Text: "The config is loaded in config.go."},
	)...)
	send(m, agent.ToolFinished{ID: "c2", Name: "task", Result: tools.Result{Output: "The config is loaded in config.go.\n\nTools the sub-agent ran:\n- bash (c1): exit 0\n- bash (c2): exit 0"}})
	s = plain(m)
	for _, want := range []string{"▸ 2 tool calls (ctrl+o to expand)", "The config is loaded in config.go."} {
		if !strings.Contains(s, want) {
			t.Errorf("the finished task panel lacks %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"$ touch y", "Tools the sub-agent ran"} {
		if strings.Contains(s, gone) {
			t.Errorf("the finished task panel still shows %q:\n%s", gone, s)
		}
	}
	press(m, "ctrl+o")
	s = plain(m)
	for _, want := range []string{"↳ bash $ ls", "config.go", "↳ bash $ touch y"} {
		if !strings.Contains(s, want) {
			t.Errorf("ctrl+o did not expand the task panel to show %q:\n%s", want, s)
		}
	}
}

// clockAfterGuard moves past the modal's type-ahead guard.
func (m *Model) clockAfterGuard() {
	now := m.now
	m.now = func() time.Time { return now().Add(time.Second) }
}

func TestHistoryIndentsSubAgentCalls(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	startTask(m)
	// A grandchild: the child delegates in turn.
	send(m, child("c2", "find the config",
		taskStarted("c3", "read the docs", "Read the docs."),
		agent.ChildEvent{ParentID: "c3", Agent: "read the docs", Event: agent.ToolCallStarted{ID: "c1", Name: "read_file",
			Access: tools.Access{Kind: tools.AccessRead, Path: "README.md", Summary: "README.md"}}},
	)...)
	send(m, bashStarted("c9", "git status"))
	press(m, "ctrl+t")
	s := plain(m)
	lines := strings.Split(s, "\n")
	want := [][2]string{{"bash", "$ pwd"}, {"task", "find the config"}, {"└ bash", "$ ls"}, {"└ bash", "$ touch y"},
		{"└ task", "read the docs"}, {"  └ read_file", "README.md"}, {"bash", "$ git status"}}
	for i, w := range want {
		row := []rune(lines[2+i])
		tool, target := strings.TrimRight(string(row[9:9+14]), " "), strings.TrimSpace(string(row[24:40]))
		if tool != w[0] || target != w[1] {
			t.Errorf("history row %d is %q, %q; want %q, %q:\n%s", i, tool, target, w[0], w[1], s)
		}
	}
	if !strings.Contains(s, "Tool history · 7 calls") {
		t.Errorf("the history does not count every call:\n%s", s)
	}
	// The approval of a grandchild's call is labelled with both sub-agents.
	m2, _ := newTestModel(t, 100, 30)
	startTask(m2)
	send(m2, child("c2", "find the config",
		taskStarted("c3", "read the docs", "Read the docs."),
		agent.ChildEvent{ParentID: "c3", Agent: "read the docs", Event: bashStarted("c1", "touch z")})...)
	msg, _ := touchRequest("c1", "")
	msg.req.Agent = "find the config › read the docs"
	m2.Update(msg)
	if p := m2.call(m2.call(m2.byID["c2"], "c3"), "c1"); p.state != stateAsking {
		t.Errorf("the grandchild's call is %v, want asking", p.state)
	}
	if s := plain(m2); !strings.Contains(s, "sub-agent: find the config › read the docs") {
		t.Errorf("the modal does not name the nested sub-agent:\n%s", s)
	}
}

// A failed stream's partial answer stays, marked as cut off, until the retry brings the answer again; if
// no retry succeeds it is still there to read.
func TestRetryReplacesThePartialAnswer(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: m.now()}
	send(m, agent.TextDelta{Text: "The answer is forty"},
		agent.Notice{Message: "retrying in 4s (attempt 2 of 4): rate limited", Retrying: true})
	s := plain(m)
	if !strings.Contains(s, "forty") || !strings.Contains(s, "the answer above was cut off") {
		t.Errorf("the partial answer should stay, marked, until the retry streams:\n%s", s)
	}
	if !strings.Contains(s, "retrying in 4s (attempt 2 of 4)") {
		t.Errorf("the retry is not shown:\n%s", s)
	}
	send(m, agent.Notice{Message: "retrying in 8s (attempt 3 of 4): rate limited", Retrying: true})
	send(m, agent.TextDelta{Text: "The answer is "}, agent.TextDelta{Text: "42."}, agent.AssistantText{Text: "The answer is 42."})
	s = plain(m)
	if strings.Contains(s, "retrying") || strings.Contains(s, "cut off") || strings.Count(s, "The answer is") != 1 ||
		!strings.Contains(s, "The answer is 42.") {
		t.Errorf("after the retry the screen should hold the answer once and no notice:\n%s", s)
	}

	m, _ = newTestModel(t, 80, 24)
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: m.now()}
	send(m, agent.TextDelta{Text: "Half an answer"},
		agent.Notice{Message: "retrying in 1s (attempt 2 of 2): cannot reach the server", Retrying: true},
		agent.Notice{Message: "cannot reach the server (gave up after 2 attempts)"}, agent.TurnDone{IsError: true})
	s = plain(m)
	if !strings.Contains(s, "Half an answer") || !strings.Contains(s, "cut off") || strings.Contains(s, "asking for it again") ||
		!strings.Contains(s, "✗ cannot reach the server (gave up after 2 attempts)") {
		t.Errorf("when every retry fails, what was read stays:\n%s", s)
	}
}

func TestContextCompactionAndUse(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	send(m, agent.UsageUpdated{Last: agent.Usage{PromptTokens: 90000}, Context: 96000, Window: 128000})
	if s := plain(m); !strings.Contains(s, "ctx 75%") {
		t.Errorf("status line lacks the context use:\n%s", s)
	}
	send(m, agent.ContextCompacted{Elided: 3, Summarized: 12, Before: 96000, After: 41000})
	s := plain(m)
	if !strings.Contains(s, "context: elided 3 old tool outputs, summarised 12 messages (~96k → 41k tokens)") {
		t.Errorf("the compaction is not shown:\n%s", s)
	}
	if !strings.Contains(s, "ctx ~32%") {
		t.Errorf("the status line does not show the estimated use after compaction:\n%s", s)
	}
}

func TestSandboxProblemAsksFirst(t *testing.T) {
	ran := false
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{SandboxProblem: "bubblewrap is not installed and Landlock is not available", RunUnsandboxed: func() { ran = true },
		Trust: newFakeTrust(".warden/settings.json: allow Bash(make:*)")}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m); !strings.Contains(s, "bubblewrap is not installed") || !strings.Contains(s, "y run unsandboxed") {
		t.Fatalf("the sandbox problem is not the first screen:\n%s", s)
	}
	press(m, "y")
	if ran {
		t.Fatal("a key typed at start-up chose to run unsandboxed")
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if !ran {
		t.Error("y did not call RunUnsandboxed")
	}
	if s := plain(m); !strings.Contains(s, "Trust this workspace?") {
		t.Errorf("the trust prompt does not follow:\n%s", s)
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "n")
	if s := plain(m); !strings.Contains(s, "sandbox: off") {
		t.Errorf("the status line does not say the sandbox is off:\n%s", s)
	}

	clock2 := &fixedClock{t: clock.t}
	m = newModel(Options{SandboxProblem: "no sandbox"}, clock2.now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	clock2.t = clock2.t.Add(time.Second)
	if _, cmd := m.Update(keyMsg("n")); cmd == nil || !isQuit(cmd) {
		t.Error("n did not quit")
	}

	m, _ = newTestModel(t, 100, 24)
	m.opts.Sandbox = "sandbox: landlock, no network"
	if s := plain(m); !strings.Contains(s, "sandbox: landlock, no network") {
		t.Errorf("the status line does not show the sandbox:\n%s", s)
	}
}

func TestWarningsShowOnce(t *testing.T) {
	m := newModel(Options{Warnings: []string{"AGENTS.md: permission denied"}}, time.Now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m); strings.Count(s, "AGENTS.md: permission denied") != 1 {
		t.Errorf("the warning does not show exactly once:\n%s", s)
	}
}
