package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	if strings.HasPrefix(k, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(k[len(k)-1]), Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func touchRequest(id string, suggested string) (approvalMsg, chan agent.Approval) {
	reply := make(chan agent.Approval, 1)
	return approvalMsg{reply: reply, req: agent.ApprovalRequest{
		CallID: id, Tool: "bash",
		Access: tools.Access{Kind: tools.AccessExec, Command: "touch x", Summary: "touch x", Cwd: "/work/project"},
		Verdict: permissions.Verdict{Decision: permissions.Ask, Reason: "`touch x` writes files", Part: "touch x",
			SuggestedRule: suggested},
	}}, reply
}

func startCall(m *Model, id, command string) {
	send(m, agent.ToolCallStarted{ID: id, Name: "bash",
		Access: tools.Access{Kind: tools.AccessExec, Command: command, Summary: command}})
}

func answered(t *testing.T, reply chan agent.Approval) agent.Approval {
	t.Helper()
	select {
	case ap := <-reply:
		return ap
	default:
		t.Fatal("the modal did not answer")
	}
	return agent.Approval{}
}

func TestModalAnswersOnlyAfterTypeAheadGuard(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	typeText(m, "hello") // typing in the input just before the modal opens
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "Bash(touch:*)")
	m.Update(msg)
	press(m, "y")
	if len(reply) != 0 {
		t.Fatal("a key typed right after the modal opened answered it")
	}
	if !strings.Contains(plain(m), "keys paused") {
		t.Errorf("the modal does not say its keys are paused:\n%s", plain(m))
	}
	clock.t = clock.t.Add(typeAheadGuard + time.Millisecond)
	press(m, "y")
	if ap := answered(t, reply); !ap.Allow || ap.Scope != agent.Once {
		t.Errorf("y answered %+v, want allow once", ap)
	}
	if len(m.overlays) != 0 {
		t.Error("the modal is still open after its only request was answered")
	}
}

func TestModalAlwaysAllowShowsRuleBeforeSaving(t *testing.T) {
	for _, tc := range []struct {
		key   string
		scope agent.Scope
		where string
	}{{"a", agent.ForSession, "for this session"}, {"p", agent.ForProject, "settings.local.json"}} {
		m, _ := newTestModel(t, 80, 24)
		startCall(m, "c1", "touch x")
		msg, reply := touchRequest("c1", "Bash(touch:*)")
		m.Update(msg)
		press(m, tc.key)
		screen := plain(m)
		if !strings.Contains(screen, "Bash(touch:*)") || !strings.Contains(screen, tc.where) {
			t.Errorf("%s: the rule is not shown before saving:\n%s", tc.key, screen)
		}
		if len(reply) != 0 {
			t.Fatalf("%s answered before the rule was confirmed", tc.key)
		}
		press(m, "enter")
		ap := answered(t, reply)
		if !ap.Allow || ap.Scope != tc.scope || ap.Rule != "Bash(touch:*)" {
			t.Errorf("%s answered %+v", tc.key, ap)
		}
	}
}

func TestModalWithoutSuggestedRuleRefusesAlwaysAllow(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "")
	m.Update(msg)
	if !strings.Contains(plain(m), "a/p unavailable") {
		t.Errorf("the hint does not say a/p are unavailable:\n%s", plain(m))
	}
	press(m, "a")
	if len(reply) != 0 {
		t.Fatal("a answered without a rule")
	}
	if !strings.Contains(plain(m), "No rule can be saved") {
		t.Errorf("pressing a does not explain:\n%s", plain(m))
	}
}

func TestModalDenyWithReason(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "Bash(touch:*)")
	m.Update(msg)
	press(m, "d")
	typeText(m, "use a temp dir")
	press(m, "enter")
	if ap := answered(t, reply); ap.Allow || ap.Message != "use a temp dir" {
		t.Errorf("d answered %+v", ap)
	}
}

func TestModalQueuesRequestsOneAtATime(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	startCall(m, "c2", "touch y")
	first, r1 := touchRequest("c1", "")
	second, r2 := touchRequest("c2", "")
	second.req.Access.Command = "touch y"
	m.Update(first)
	m.Update(second)
	if !strings.Contains(plain(m), "1 of 2") {
		t.Errorf("the modal does not count the waiting requests:\n%s", plain(m))
	}
	press(m, "n")
	if ap := answered(t, r1); ap.Allow {
		t.Error("n allowed the first call")
	}
	press(m, "y") // the same finger, too soon after the first answer
	if len(r2) != 0 {
		t.Fatal("a key meant for the first modal answered the second")
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if ap := answered(t, r2); !ap.Allow {
		t.Error("y did not allow the second call")
	}
}

func TestModalShowsControlCharactersDangerAndDiff(t *testing.T) {
	m, _ := newTestModel(t, 80, 30)
	startCall(m, "c1", "x")
	msg, _ := touchRequest("c1", "")
	msg.req.Access.Command = "echo safe\x1b[2K\rrm -rf ~ \u202e"
	msg.req.Verdict.Part = "rm -rf ~"
	msg.req.Verdict.Dangerous = true
	m.Update(msg)
	screen := plain(m)
	for _, want := range []string{"DANGEROUS", "^[", "^M", "<U+202E>", "rm -rf ~"} {
		if !strings.Contains(screen, want) {
			t.Errorf("modal lacks %q:\n%s", want, screen)
		}
	}
	m3, _ := newTestModel(t, 80, 30)
	startCall(m3, "c3", "x")
	u, _ := touchRequest("c3", "")
	u.req.Access.Unsandboxed = true
	m3.Update(u)
	if screen := plain(m3); !strings.Contains(screen, "OUTSIDE THE SANDBOX") {
		t.Errorf("an unsandboxed command is not flagged:\n%s", screen)
	}
	m2, _ := newTestModel(t, 80, 30)
	send(m2, agent.ToolCallStarted{ID: "w1", Name: "write_file",
		Access: tools.Access{Kind: tools.AccessWrite, Path: "notes.txt", Summary: "notes.txt"}})
	w, _ := touchRequest("w1", "")
	w.req.Tool = "write_file"
	w.req.Verdict.Reason = "writing notes.txt changes a file"
	w.req.Access = tools.Access{Kind: tools.AccessWrite, Path: "notes.txt", Summary: "notes.txt",
		Diff: "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-old line\n+new line\n"}
	m2.Update(w)
	screen = plain(m2)
	for _, want := range []string{"notes.txt", "-old line", "+new line", "@@ -1 +1 @@"} {
		if !strings.Contains(screen, want) {
			t.Errorf("write modal lacks %q:\n%s", want, screen)
		}
	}
	golden(t, "modal-write-80x30", screen)
}

func TestPermissionDecidedWithdrawsItsModal(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	msg, _ := touchRequest("c1", "")
	m.Update(msg)
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Deny, By: "user", Reason: "interrupted while waiting for approval"})
	if len(m.overlays) != 0 {
		t.Error("the modal stayed open for a call the agent stopped waiting on")
	}
}

func TestPanelStates(t *testing.T) {
	m, clock := newTestModel(t, 80, 40)
	startCall(m, "run", "make")
	send(m, agent.PermissionDecided{ID: "run", Decision: permissions.Allow, By: "rule", Rule: "Bash(make:*)"},
		agent.ToolOutput{ID: "run", Chunk: "step 1\nstep 2\n"})
	clock.t = clock.t.Add(1500 * time.Millisecond)
	if s := plain(m); !strings.Contains(s, "running 1.5s") || !strings.Contains(s, "step 2") {
		t.Errorf("a running panel shows no elapsed time or live output:\n%s", s)
	}
	send(m, agent.ToolFinished{ID: "run", Result: tools.Result{ExitCode: exit(2)}, Duration: 2 * time.Second})
	startCall(m, "deny", "rm -rf build")
	send(m, agent.PermissionDecided{ID: "deny", Decision: permissions.Deny, By: "user", Reason: "denied by the user"},
		agent.ToolFinished{ID: "deny", Result: tools.Result{IsError: true}})
	startCall(m, "slow", "sleep 999")
	send(m, agent.PermissionDecided{ID: "slow", Decision: permissions.Allow, By: "mode"},
		agent.ToolFinished{ID: "slow", Result: tools.Result{TimedOut: true}, Duration: 120 * time.Second})
	startCall(m, "bg", "npm run dev")
	send(m, agent.PermissionDecided{ID: "bg", Decision: permissions.Allow, By: "user"},
		agent.ToolFinished{ID: "bg", Result: tools.Result{BackgroundID: "task-1"}})
	s := plain(m)
	for _, want := range []string{"✗ exit 2", "⊘ denied by user", "⏱ timed out", "⇥ in background task-1"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestLongOutputIsBoundedAndCollapsed(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "big", "seq 100000")
	send(m, agent.PermissionDecided{ID: "big", Decision: permissions.Allow, By: "readonly"})
	var sb strings.Builder
	for i := range 100_000 {
		sb.WriteString("line ")
		sb.WriteString(strings.Repeat("x", i%50))
		sb.WriteByte('\n')
		if sb.Len() > 64<<10 {
			send(m, agent.ToolOutput{ID: "big", Chunk: sb.String()})
			sb.Reset()
		}
	}
	send(m, agent.ToolOutput{ID: "big", Chunk: sb.String()},
		agent.ToolFinished{ID: "big", Result: tools.Result{ExitCode: exit(0)}})
	p := m.byID["big"]
	if n := len(p.out.lines); n > maxKeptLines+compactionSlop {
		t.Errorf("panel keeps %d lines", n)
	}
	if p.out.Total() != 100_000 {
		t.Errorf("panel counted %d lines, want 100000", p.out.Total())
	}
	if s := plain(m); !strings.Contains(s, "+99,996 lines") && !strings.Contains(s, "+99996 lines") {
		t.Errorf("collapsed panel does not say how many lines are hidden:\n%s", s)
	}
	press(m, "ctrl+o")
	if !p.expanded {
		t.Error("ctrl+o did not expand the focused panel")
	}
}

func TestEscInterruptsTheRun(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	cancelled := false
	m.run = &run{cancel: func() { cancelled = true }, done: make(chan struct{}), started: m.now()}
	startCall(m, "c1", "touch x")
	msg, _ := touchRequest("c1", "")
	m.Update(msg)
	press(m, "ctrl+c")
	if !cancelled || len(m.overlays) != 0 {
		t.Fatalf("ctrl+c: cancelled=%v overlays=%d", cancelled, len(m.overlays))
	}
	cancelled = false
	m.run = &run{cancel: func() { cancelled = true }, done: make(chan struct{}), started: m.now()}
	press(m, "esc")
	if !cancelled {
		t.Error("esc did not cancel the run")
	}
	send(m, agent.TurnDone{Interrupted: true})
	if !strings.Contains(plain(m), "interrupted") {
		t.Errorf("the transcript does not say interrupted:\n%s", plain(m))
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	m.Update(keyMsg("ctrl+c"))
	if m.quitArmed.IsZero() || !strings.Contains(plain(m), "Press Ctrl+C again") {
		t.Fatalf("one ctrl+c did not ask for a second:\n%s", plain(m))
	}
	clock.t = clock.t.Add(time.Second)
	_, cmd := m.Update(keyMsg("ctrl+c"))
	if cmd == nil || !isQuit(cmd) {
		t.Fatal("the second ctrl+c did not quit")
	}
}

func isQuit(cmd tea.Cmd) bool {
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestShiftTabCyclesMode(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	press(m, "shift+tab")
	if got := m.opts.Engine.Mode(); got != permissions.ModeAcceptEdits {
		t.Fatalf("mode is %s after shift+tab", got)
	}
	if !strings.Contains(plain(m), "accept-edits") {
		t.Errorf("status line does not show the mode:\n%s", plain(m))
	}
}

func TestPromptHistory(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m.prompts = []string{"first", "second"}
	m.promptIdx = 2
	typeText(m, "draft")
	press(m, "up")
	if v := m.input.Value(); v != "second" {
		t.Fatalf("up shows %q", v)
	}
	press(m, "up", "down", "down")
	if v := m.input.Value(); v != "draft" {
		t.Fatalf("down back to the draft shows %q", v)
	}
}

func TestHistoryListsCallsAndFilters(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	send(m, conversationEvents()...)
	startCall(m, "c2", "touch x")
	send(m, agent.PermissionDecided{ID: "c2", Decision: permissions.Deny, By: "user"},
		agent.ToolFinished{ID: "c2", Result: tools.Result{IsError: true}})
	startCall(m, "c3", "false")
	send(m, agent.PermissionDecided{ID: "c3", Decision: permissions.Allow, By: "user"},
		agent.ToolFinished{ID: "c3", Result: tools.Result{ExitCode: exit(1)}, Duration: 5 * time.Millisecond})
	press(m, "ctrl+t")
	s := plain(m)
	for _, want := range []string{"Tool history · 3 calls", "ls -la", "allow · readonly", "deny · user", "touch x"} {
		if !strings.Contains(s, want) {
			t.Errorf("history lacks %q:\n%s", want, s)
		}
	}
	golden(t, "history-100x24", s)
	press(m, "/")
	typeText(m, "touch")
	press(m, "enter")
	if s := plain(m); strings.Contains(s, "ls -la") || !strings.Contains(s, "1 shown") {
		t.Errorf("the filter did not narrow the table:\n%s", s)
	}
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Denied") {
		t.Errorf("enter did not open the call's output:\n%s", s)
	}
	press(m, "esc", "esc")
	if len(m.overlays) != 0 {
		t.Errorf("esc did not return to the conversation: %d overlays", len(m.overlays))
	}
}

func TestHelpShowsEveryBinding(t *testing.T) {
	m, _ := newTestModel(t, 100, 40)
	press(m, "?")
	s := plain(m)
	for _, g := range m.keys.FullHelp() {
		for _, b := range g {
			if !strings.Contains(s, b.Help().Desc) {
				t.Errorf("help lacks %q", b.Help().Desc)
			}
		}
	}
}

func TestResizeFollowsTheTerminal(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	send(m, conversationEvents()...)
	for _, size := range [][2]int{{60, 15}, {120, 40}, {61, 17}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(plain(m), "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if !strings.Contains(plain(m), "at least 60×15") {
		t.Errorf("a too small terminal is not explained:\n%s", plain(m))
	}
}

func TestSetupErrorIsTheFirstScreen(t *testing.T) {
	m := newModel(Options{SetupError: "No model server configured. Set OPENAI_API_KEY or OPENAI_BASE_URL."}, time.Now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m); !strings.Contains(s, "Setup needed") || !strings.Contains(s, "OPENAI_BASE_URL") {
		t.Errorf("setup screen:\n%s", s)
	}
}

func TestTrustPrompt(t *testing.T) {
	trust := newFakeTrust(".warden/settings.json: allow Bash(make:*)")
	trusted := func() bool { return len(trust.approved) > 0 }
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Trust: trust}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m); !strings.Contains(s, "Trust this workspace?") || !strings.Contains(s, "Bash(make:*)") {
		t.Fatalf("trust prompt:\n%s", s)
	}
	// A key typed while warden starts is meant for the prompt: it must not trust anything.
	press(m, "y")
	if trusted() || len(m.overlays) != 1 {
		t.Fatalf("a key typed at start-up answered the trust prompt")
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if !trusted() || len(m.overlays) != 0 {
		t.Errorf("y: trusted=%v overlays=%d", trusted(), len(m.overlays))
	}
}

func TestStreamingAndReasoning(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	send(m, agent.ReasoningDelta{Text: "The user wants files.\nI should run ls."})
	if s := plain(m); !strings.Contains(s, "Thinking") || !strings.Contains(s, "I should run ls.") {
		t.Errorf("streaming reasoning is not shown:\n%s", s)
	}
	send(m, agent.TextDelta{Text: "Here "})
	plain(m)
	clock.t = clock.t.Add(time.Second)
	send(m, agent.TextDelta{Text: "we go."})
	if s := plain(m); !strings.Contains(s, "Here we go.") {
		t.Errorf("streamed text is not shown:\n%s", s)
	}
	send(m, agent.AssistantText{Text: "Here we go.", Reasoning: "The user wants files.\nI should run ls."})
	if s := plain(m); !strings.Contains(s, "Thought for 2 lines") {
		t.Errorf("finished reasoning is not collapsed:\n%s", s)
	}
	press(m, "ctrl+r")
	if s := plain(m); !strings.Contains(s, "The user wants files.") {
		t.Errorf("ctrl+r does not show reasoning:\n%s", s)
	}
}

// fakeTasks stands in for the bash engine's task list.
type fakeTasks struct {
	running      int
	backgrounded []string
}

func (f *fakeTasks) Running() int { return f.running }

func (f *fakeTasks) Background(callID string) bool {
	f.backgrounded = append(f.backgrounded, callID)
	f.running++
	return true
}

func TestCtrlBSendsTheRunningCommandToTheBackground(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	tasks := &fakeTasks{}
	m.opts.Tasks = tasks
	startCall(m, "c1", "npm run dev")
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "user"})
	press(m, "ctrl+b")
	if len(tasks.backgrounded) != 1 || tasks.backgrounded[0] != "c1" {
		t.Fatalf("ctrl+b backgrounded %v", tasks.backgrounded)
	}
	if !strings.Contains(plain(m), "1 background task") {
		t.Errorf("the status line does not count the task:\n%s", plain(m))
	}
}

func TestPanelCountsLinesTheLiveOutputLeftOut(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "big", "seq 1 3000000")
	send(m, agent.ToolOutput{ID: "big", Chunk: "1\n2\n[… 20 MB not shown …]\n2999999\n3000000\n"})
	send(m, agent.ToolFinished{ID: "big", Name: "bash", Result: tools.Result{ExitCode: exit(0), Lines: 3000000,
		Truncated: true, OutputPath: "/state/sessions/s/bash-1.log"}})
	s := plain(m)
	if !strings.Contains(s, "+2999996 lines; all of it: ctrl+t, enter") {
		t.Errorf("the panel does not say how much the command printed:\n%s", s)
	}
}

func TestPagerLoadsTheHeadAndTailOfAHugeOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.log")
	var b strings.Builder
	for i := range 1_000_000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readHeadTail(path, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 1<<20+200 {
		t.Errorf("loaded %d bytes, limit 1 MB", len(got))
	}
	for _, want := range []string{"line 0\n", "line 999999\n", "not shown here"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	// No line is cut in half at either seam.
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if !strings.HasPrefix(l, "line ") && !strings.HasPrefix(l, "[… ") {
			t.Errorf("a cut line: %q", l)
		}
	}
}

func TestInputGrowsWithWrappedText(t *testing.T) {
	m, _ := newTestModel(t, 60, 15)
	typeText(m, strings.Repeat("word ", 30)+"end")
	lines := strings.Split(plain(m), "\n")
	if len(lines) != 15 {
		t.Fatalf("the screen has %d lines, want 15", len(lines))
	}
	// The input sits between the rule line and the status line; every word typed must be on screen.
	if s := plain(m); strings.Count(s, "word") != 30 || !strings.Contains(s, "end") {
		t.Errorf("a prompt that wraps is not shown whole: the input did not grow:\n%s", s)
	}
}

func TestOutputDropsInvisibleAndDirectionCharacters(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "cat notes")
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly"},
		agent.ToolOutput{ID: "c1", Chunk: "family 👨\u200d👩\u200d👧 done\n\u202eevil\u202c tail\nsoft\u00adhyphen\n"},
		agent.ToolFinished{ID: "c1", Result: tools.Result{ExitCode: exit(0)}})
	s := m.View().Content
	// A right-to-left override would make a bidi terminal draw the rest of the line, border included,
	// backwards; a zero-width joiner makes the terminal's width of the line differ from the one measured
	// (one emoji to the measure, three to most terminals), pushing the panel's border off the line.
	for _, r := range []rune{'\u202e', '\u202c', '\u200d', '\u00ad'} {
		if strings.ContainsRune(s, r) {
			t.Errorf("the panel passes %U through to the terminal", r)
		}
	}
	if p := ansi.Strip(s); !strings.Contains(p, "evil tail") || !strings.Contains(p, "👨👩👧 done") {
		t.Errorf("the output's visible text is lost:\n%s", p)
	}
}

func TestHistoryFilterWithoutMatchesSaysSo(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	send(m, conversationEvents()...)
	press(m, "ctrl+t", "/")
	typeText(m, "zzz")
	s := plain(m)
	if strings.Contains(s, "No tool calls yet") || !strings.Contains(s, `No call matches "zzz"`) {
		t.Errorf("a filter without matches reads as an empty history:\n%s", s)
	}
}

func TestDenialReasonTheyTypedIsShown(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "")
	m.Update(msg)
	clock.t = clock.t.Add(time.Second)
	press(m, "d")
	typeText(m, "use a temp dir")
	press(m, "enter")
	answered(t, reply)
	// The agent reports the denial without the person's words; they went to the model.
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Deny, By: "user", Reason: "denied by the user"},
		agent.ToolFinished{ID: "c1", Result: tools.Result{IsError: true}})
	if s := plain(m); !strings.Contains(s, "use a temp dir") {
		t.Errorf("the panel does not show what the person told the model:\n%s", s)
	}
	press(m, "ctrl+t", "enter")
	if s := plain(m); !strings.Contains(s, "use a temp dir") {
		t.Errorf("the history's pager does not show what the person told the model:\n%s", s)
	}
}

func TestModalExplainsKeysItIgnores(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "Bash(touch:*)")
	m.Update(msg)
	clock.t = clock.t.Add(time.Second)
	press(m, "shift+tab")
	if len(reply) != 0 || m.opts.Engine.Mode() != permissions.ModeDefault {
		t.Fatal("shift+tab answered the modal or changed the mode behind it")
	}
	if s := plain(m); !strings.Contains(s, "shift+tab does nothing here") {
		t.Errorf("a key the modal ignores gives no hint:\n%s", s)
	}
}

func TestHugePasteIsKeptWholeOutsideTheEditor(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	var sb strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&sb, "paste line %d\r\n", i)
	}
	m.Update(tea.PasteMsg{Content: sb.String()})
	// The editor redraws and rewraps every line on every key: with the paste in it, each key took half a
	// second, and it kept only its first 10,000 lines.
	if n := m.input.LineCount(); n > 1 {
		t.Fatalf("the paste went into the editor: %d lines", n)
	}
	if s := plain(m); !strings.Contains(s, "[pasted 20000 lines]") {
		t.Errorf("the input does not show the paste's placeholder:\n%s", s)
	}
	typeText(m, " summarise it")
	got := m.expandPastes(m.input.Value())
	if !strings.HasPrefix(got, "paste line 1\npaste line 2\n") || !strings.Contains(got, "paste line 20000\n summarise it") {
		t.Errorf("the prompt sent is not the whole paste followed by the typed text: %q…%q", got[:40], got[len(got)-40:])
	}
	// A short paste is text to edit, as before.
	m.input.Reset()
	m.Update(tea.PasteMsg{Content: "one\ntwo"})
	if v := m.input.Value(); v != "one\ntwo" {
		t.Errorf("a short paste reads %q", v)
	}
	// A short paste with tabs is kept whole too, and says why: it is not long.
	m.input.Reset()
	m.Update(tea.PasteMsg{Content: "all:\n\tgo build\n"})
	if s := plain(m); !strings.Contains(s, "[pasted 2 lines, tabs kept]") || strings.Contains(s, "Long paste") {
		t.Errorf("a short paste with tabs:\n%s", s)
	}
}

func TestInterruptSaysQueuedPromptsWereDropped(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: m.now()}
	m.prompts, m.promptIdx = []string{"first", "then this"}, 2
	m.queued = []request{{text: "then this"}}
	press(m, "esc")
	if len(m.queued) != 0 {
		t.Fatal("the queued prompt survived the interrupt")
	}
	if s := plain(m); !strings.Contains(s, "1 queued prompt not sent") {
		t.Errorf("the interrupt dropped a queued prompt without a word:\n%s", s)
	}
}

func TestStatusLineFollowsTheModelName(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	plain(m) // fills the status line's cache
	send(m, agent.SessionStarted{ID: "s2", Model: "other-model"})
	if s := plain(m); !strings.Contains(s, "other-model") {
		t.Errorf("the status line kept the old model name:\n%s", s)
	}
}

func TestCtrlCHintLastsAsLongAsTheQuitWindow(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	press(m, "ctrl+c")
	clock.t = clock.t.Add(quitWindow + 500*time.Millisecond)
	if strings.Contains(plain(m), "Press Ctrl+C again") {
		// Past the window a second Ctrl+C only arms again: the hint must be gone by then.
		t.Errorf("%s after one Ctrl+C the screen still says to press it again to quit, which would not quit:\n%s", quitWindow+500*time.Millisecond, plain(m))
	}
}

func TestHelpShowsEveryBindingAtTheSmallestSize(t *testing.T) {
	m, _ := newTestModel(t, 60, 15)
	press(m, "?")
	seen := plain(m)
	for range 60 {
		press(m, "down")
		seen += plain(m)
	}
	for _, g := range m.keys.FullHelp() {
		for _, b := range g {
			if !strings.Contains(seen, b.Help().Desc) {
				t.Errorf("at 60×15 the help never shows %q", b.Help().Desc)
			}
		}
	}
	if len(m.overlays) != 1 {
		t.Fatal("scrolling closed the help")
	}
}

func TestSmallModalKeepsItsWarningsAndKeys(t *testing.T) {
	for _, stage := range []string{"", "d"} {
		m, clock := newTestModel(t, 60, 15)
		startCall(m, "c1", "x")
		msg, _ := touchRequest("c1", "Bash(rm:*)")
		msg.req.Access.Command = "rm -rf ~/projects/" + strings.Repeat("long/", 30)
		msg.req.Verdict.Part = "rm -rf"
		msg.req.Verdict.Dangerous = true
		msg.req.Access.Unsandboxed = true
		msg.req.Verdict.Reason = "`rm -rf` deletes files recursively and cannot be undone, outside the workspace"
		m.Update(msg)
		clock.t = clock.t.Add(time.Second)
		if stage != "" {
			press(m, stage)
		}
		s := plain(m)
		for _, want := range []string{"DANGEROUS", "OUTSIDE THE SANDBOX", "Allow bash?", "$ rm -rf", "esc"} {
			if !strings.Contains(s, want) {
				t.Errorf("stage %q: a modal cut to fit 60×15 lost %q:\n%s", stage, want, s)
			}
		}
		if n := len(strings.Split(s, "\n")); n != 15 {
			t.Errorf("stage %q: the screen has %d lines", stage, n)
		}
	}
}

// Whatever its length, everything a person approves can be read in the modal before they answer.
func TestLongCommandScrollsInTheModal(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	var script []string
	for i := 1; i <= 60; i++ {
		script = append(script, fmt.Sprintf("echo step-%02d >> log", i))
	}
	script = append(script, "rm -rf build-output")
	cmd := strings.Join(script, "\n")
	startCall(m, "c1", cmd)
	msg, reply := touchRequest("c1", "")
	msg.req.Access.Command = cmd
	m.Update(msg)
	// Reading works while the keys are still paused against type-ahead.
	s := plain(m)
	if !strings.Contains(s, "step-01") || strings.Contains(s, "rm -rf build-output") ||
		!strings.Contains(s, "lines 1–") || !strings.Contains(s, "of 62") {
		t.Fatalf("the top of a long command, with where it is:\n%s", s)
	}
	press(m, "end")
	if s = plain(m); !strings.Contains(s, "rm -rf build-output") || !strings.Contains(s, "–62 of 62") {
		t.Fatalf("End shows the last lines:\n%s", s)
	}
	press(m, "pgup")
	if s = plain(m); !strings.Contains(s, "step-5") || strings.Contains(s, "rm -rf build-output") {
		t.Fatalf("PgUp goes back a page, keeping none of the last one but its first line:\n%s", s)
	}
	press(m, "home")
	if s = plain(m); !strings.Contains(s, "step-01") {
		t.Fatalf("Home goes back to the top:\n%s", s)
	}
	press(m, "down", "down")
	s = plain(m)
	if modal := s[strings.Index(s, "Allow bash?"):]; strings.Contains(modal, "step-02") || !strings.Contains(modal, "step-03") {
		t.Errorf("down moves one line at a time:\n%s", s)
	}
	if n := len(strings.Split(s, "\n")); n != 24 {
		t.Errorf("the screen has %d lines", n)
	}
	select {
	case ap := <-reply:
		t.Fatalf("scrolling answered the request: %+v", ap)
	default:
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if ap := answered(t, reply); !ap.Allow {
		t.Errorf("y after scrolling: %+v", ap)
	}
}

func TestLongDiffScrollsInTheModal(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "x")
	var diff strings.Builder
	diff.WriteString("--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,300 @@\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&diff, "+line %03d %s\n", i, strings.Repeat("x", 100)) // wider than the modal
	}
	msg, _ := touchRequest("c1", "")
	msg.req.Tool = "write_file"
	msg.req.Access = tools.Access{Kind: tools.AccessWrite, Path: "/work/project/big.txt", Summary: "big.txt", Diff: diff.String()}
	m.Update(msg)
	press(m, "end")
	s := plain(m)
	if !strings.Contains(s, "+line 300") || !strings.Contains(s, "xxxx") {
		t.Fatalf("the end of the diff:\n%s", s)
	}
	// A long line is wrapped, not cut: all its 100 x's are on screen.
	if n := strings.Count(s[strings.Index(s, "+line 300"):], "x"); n < 100 {
		t.Errorf("the last diff line shows %d of its 100 x's:\n%s", n, s)
	}
}

func TestResumeKeepsAChildsCallApartFromItsParentsOfTheSameID(t *testing.T) {
	out := func(s string) *string { return &s }
	l := &agent.Loaded{ID: "s", Records: []agent.Record{
		{Type: agent.RecToolCall, CallID: "call_1", Name: "task", Summary: "look"},
		{Type: agent.RecPermission, CallID: "call_1", Decision: "allow", By: "policy"},
		{Type: agent.RecToolCall, CallID: "call_1", Name: "bash", Summary: "ls", Parent: "call_1", Agent: "look"},
		{Type: agent.RecPermission, CallID: "call_1", Decision: "allow", By: "readonly", Parent: "call_1", Agent: "look"},
		{Type: agent.RecToolResult, CallID: "call_1", Name: "bash", Output: out("a.txt"), ExitCode: exit(0), Parent: "call_1"},
		{Type: agent.RecToolResult, CallID: "call_1", Name: "task", Output: out("found a.txt")},
	}}
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Resumed: l}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	var task, child *panel
	for _, p := range m.calls {
		switch p.tool {
		case "task":
			task = p
		case "bash":
			child = p
		}
	}
	if task == nil || child == nil || child.parent != task {
		t.Fatalf("task %v child %v", task, child)
	}
	if task.active() || child.active() {
		t.Errorf("a restored call is still running: task %v child %v", task.state, child.state)
	}
	if child.result.ExitCode == nil || task.result.Output != "found a.txt" {
		t.Errorf("results mixed up: child %+v task %+v", child.result, task.result)
	}
}

func TestTooSmallScreenIgnoresKeys(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	cancelled := false
	m.run = &run{cancel: func() { cancelled = true }, done: make(chan struct{}), started: m.now()}
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "Bash(touch:*)")
	m.Update(msg)
	clock.t = clock.t.Add(time.Second)
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	press(m, "y", "a", "enter", "p", "ctrl+t", "?")
	m.Update(tea.PasteMsg{Content: "y"})
	if len(reply) != 0 {
		t.Fatalf("a key on the too-small screen answered the hidden modal: %+v", <-reply)
	}
	if len(m.overlays) != 1 || m.input.Value() != "" {
		t.Fatalf("keys acted on the too-small screen: overlays=%d input=%q", len(m.overlays), m.input.Value())
	}
	s := plain(m)
	for i, l := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide: %q", i, w, l)
		}
	}
	if !strings.Contains(strings.ReplaceAll(s, "\n", " "), "this terminal is 40×10") || strings.Contains(s, "…") {
		t.Errorf("the warning is cut instead of wrapped:\n%s", s)
	}
	// Back to a usable size, the modal waits a moment before keys count, so that a key typed blind does
	// not answer it as it reappears.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "y")
	if len(reply) != 0 {
		t.Fatal("a key right after the screen grew back answered the modal")
	}
	// Esc interrupts even on the small screen; that withdraws the modal without allowing anything.
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	press(m, "esc")
	if !cancelled || len(m.overlays) != 0 || len(reply) != 0 {
		t.Errorf("esc on the small screen: cancelled=%v overlays=%d replies=%d", cancelled, len(m.overlays), len(reply))
	}
}

func TestTooSmallScreenStillQuitsWithCtrlCTwice(t *testing.T) {
	m, clock := newTestModel(t, 30, 5)
	m.Update(keyMsg("ctrl+c"))
	clock.t = clock.t.Add(time.Second)
	if _, cmd := m.Update(keyMsg("ctrl+c")); cmd == nil || !isQuit(cmd) {
		t.Fatal("ctrl+c twice did not quit on the too-small screen")
	}
}

// convLines is the conversation part of the screen: everything above the rule line.
func convLines(m *Model) []string {
	lines := strings.Split(plain(m), "\n")
	return lines[:m.convHeight()]
}

func TestScrolledUpViewStaysOnWhatIsRead(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	for i := range 60 {
		m.conv.add(&item{kind: itemInfo, text: fmt.Sprintf("earlier line %d", i)})
	}
	send(m, agent.TextDelta{Text: "streaming starts\n\n"})
	plain(m)
	press(m, "pgup")
	before := convLines(m)
	if strings.Contains(plain(m), "new line") {
		t.Fatalf("no new line arrived yet:\n%s", plain(m))
	}
	for i := range 5 {
		clock.t = clock.t.Add(time.Second)
		send(m, agent.TextDelta{Text: fmt.Sprintf("new paragraph %d\n\n", i)})
		if got := convLines(m); strings.Join(got, "\n") != strings.Join(before, "\n") {
			t.Fatalf("new output moved the scrolled-up view:\n--- before\n%s\n--- after\n%s", strings.Join(before, "\n"), strings.Join(got, "\n"))
		}
	}
	s := plain(m)
	if !strings.Contains(s, "↓ 10 new lines") || !strings.Contains(s, "pgdn/end to follow") {
		t.Errorf("the view does not say what arrived below:\n%s", s)
	}
	// PgUp again keeps counting what is new since the view left the end.
	press(m, "pgup", "pgdown")
	if s := plain(m); !strings.Contains(s, "↓ 10 new lines") {
		t.Errorf("the count of new lines was lost by scrolling:\n%s", s)
	}
	press(m, "end")
	s = plain(m)
	if !strings.Contains(s, "new paragraph 4") || strings.Contains(s, "new line") {
		t.Errorf("end did not go back to the newest output:\n%s", s)
	}
	// Back at the end, the view follows new output again.
	clock.t = clock.t.Add(time.Second)
	send(m, agent.TextDelta{Text: "newest paragraph"})
	if s := plain(m); !strings.Contains(s, "newest paragraph") {
		t.Errorf("the view does not follow at the end:\n%s", s)
	}
	// End with the view at the end moves the prompt's cursor, as it always did.
	typeText(m, "abc")
	press(m, "home", "end")
	if m.input.Column() != 3 {
		t.Errorf("end at the end of the conversation did not reach the prompt: column %d", m.input.Column())
	}
}

func TestExpandedPanelSaysWhatItDoesNotShow(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	startCall(m, "big", "seq 1 200000")
	send(m, agent.PermissionDecided{ID: "big", Decision: permissions.Allow, By: "readonly"})
	var b strings.Builder
	for i := 196001; i <= 200000; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	send(m, agent.ToolOutput{ID: "big", Chunk: b.String()})
	send(m, agent.ToolFinished{ID: "big", Name: "bash", Result: tools.Result{ExitCode: exit(0), Lines: 200000,
		Truncated: true, OutputPath: "/state/sessions/s/bash-1.log"}})
	press(m, "ctrl+o")
	press(m, "pgup", "pgup", "pgup", "pgup", "pgup", "pgup", "pgup", "pgup")
	for range 400 {
		press(m, "pgup")
	}
	s := plain(m)
	if !strings.Contains(s, "196,000 earlier lines not shown here") || !strings.Contains(s, "/state/sessions/s/bash-1.log") {
		t.Errorf("the expanded panel does not say what it leaves out above 196001:\n%s", s)
	}
	if i, j := strings.Index(s, "not shown here"), strings.Index(s, "196001"); i < 0 || j < i {
		t.Errorf("the mark is not above the first line shown:\n%s", s)
	}
}

func TestPagerMarksWhatALongLineLeavesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.log")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 5<<20)+"END"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := newTestModel(t, 120, 30)
	startCall(m, "one", "cat blob")
	send(m, agent.PermissionDecided{ID: "one", Decision: permissions.Allow, By: "readonly"})
	send(m, agent.ToolOutput{ID: "one", Chunk: strings.Repeat("x", 3000)})
	send(m, agent.ToolFinished{ID: "one", Name: "bash", Result: tools.Result{ExitCode: exit(0), Lines: 1,
		Truncated: true, OutputPath: path}})
	press(m, "ctrl+t", "enter")
	s := plain(m)
	if strings.Contains(s, "100%") {
		t.Errorf("the pager says it shows all of a 5 MB line:\n%s", s)
	}
	var seen strings.Builder
	for range 200 {
		seen.WriteString(plain(m))
		press(m, "pgdown")
	}
	all := strings.Join(strings.Fields(seen.String()), " ") // rows wrap
	for _, want := range []string{"not shown here; the whole output is in the file", "more characters, not shown; the whole output is in " + path} {
		if !strings.Contains(all, want) {
			t.Errorf("paging through a 5 MB line never shows %q", want)
		}
	}
}

func TestRuleLineSaysItWaitsForTheAnswer(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: m.now()}
	clock.t = clock.t.Add(3 * time.Second)
	if s := plain(m); !strings.Contains(s, "working 3.0s") {
		t.Fatalf("a run does not say it works:\n%s", s)
	}
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "")
	m.Update(msg)
	s := plain(m)
	if !strings.Contains(s, "waiting for your answer") || strings.Contains(s, "working") {
		t.Errorf("the rule line does not say it waits for the person:\n%s", s)
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	answered(t, reply)
	if s := plain(m); !strings.Contains(s, "working 4.0s") {
		t.Errorf("once answered, the rule line does not say it works again:\n%s", s)
	}
}

// With nothing moving on screen, the program schedules no wake-ups of its own.
func TestNoTicksWhileIdleOrWaitingForTheAnswer(t *testing.T) {
	m, clock := newTestModel(t, 80, 24)
	if _, cmd := m.Update(tickMsg{}); cmd != nil {
		t.Error("an idle program keeps ticking")
	}
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: m.now()}
	if _, cmd := m.Update(tickMsg{}); cmd == nil {
		t.Fatal("a working program does not tick: its spinner would stand still")
	}
	startCall(m, "c1", "touch x")
	msg, reply := touchRequest("c1", "")
	m.Update(msg)
	if _, cmd := m.Update(tickMsg{}); cmd != nil {
		t.Error("the program ticks while it only waits for the person's answer")
	}
	clock.t = clock.t.Add(time.Second)
	if cmd := m.key(keyMsg("y")); cmd == nil || !m.ticking {
		t.Error("answering does not start the spinner again")
	}
	answered(t, reply)
	r := m.run
	m.Update(runEndedMsg{r})
	m.ticking = false
	if _, cmd := m.Update(tickMsg{}); cmd != nil {
		t.Error("the program keeps ticking after the request ended")
	}
}

func TestPagerFooterKeepsItsKeysAndTitleSaysExit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "warden", "sessions", "20261122-000812-24788e", "bash")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "call-call_2_0-4115151404.log")
	if err := os.WriteFile(path, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "ls")
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly"},
		agent.ToolOutput{ID: "c1", Chunk: "a\n"},
		agent.ToolFinished{ID: "c1", Name: "bash", Result: tools.Result{ExitCode: exit(0), OutputPath: path}})
	press(m, "ctrl+t", "enter")
	lines := strings.Split(plain(m), "\n")
	if !strings.Contains(lines[0], "· exit 0") {
		t.Errorf("the pager's title does not say exit 0: %q", lines[0])
	}
	footer := lines[len(lines)-2]
	if !strings.HasSuffix(strings.TrimSpace(footer), "g/G top/bottom · esc back") || !strings.Contains(footer, "full output: …") ||
		!strings.Contains(footer, "4115151404.log") {
		t.Errorf("the footer cuts its keys instead of the path: %q", footer)
	}
}

func TestHelpListsThePagerKeys(t *testing.T) {
	m, _ := newTestModel(t, 100, 40)
	press(m, "?")
	s := plain(m)
	for _, want := range []string{"g/home", "G/end", "page down", "esc/q"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks the pager's %q:\n%s", want, s)
		}
	}
}

func TestOneHiddenLineIsShownNotHinted(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	startCall(m, "c1", "seq 5")
	send(m, agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly"},
		agent.ToolOutput{ID: "c1", Chunk: "1\n2\n3\n4\n5\n"},
		agent.ToolFinished{ID: "c1", Name: "bash", Result: tools.Result{ExitCode: exit(0), Lines: 5}})
	s := plain(m)
	if strings.Contains(s, "+1 line") || !strings.Contains(s, "│ 1 ") {
		t.Errorf("one hidden line is hinted instead of shown:\n%s", s)
	}
	startCall(m, "c2", "seq 6")
	send(m, agent.PermissionDecided{ID: "c2", Decision: permissions.Allow, By: "readonly"},
		agent.ToolOutput{ID: "c2", Chunk: "1\n2\n3\n4\n5\n6\n"},
		agent.ToolFinished{ID: "c2", Name: "bash", Result: tools.Result{ExitCode: exit(0), Lines: 6}})
	if s := plain(m); !strings.Contains(s, "+2 lines (ctrl+o to expand)") {
		t.Errorf("two hidden lines are not hinted:\n%s", s)
	}
}

func TestOnlyTheFirstInputRowHasThePromptMark(t *testing.T) {
	m, _ := newTestModel(t, 60, 24)
	typeText(m, "first line")
	press(m, "ctrl+j")
	typeText(m, strings.Repeat("word ", 20))
	in := strings.Split(ansi.Strip(m.inputView()), "\n")
	if len(in) < 3 {
		t.Fatalf("the input did not wrap: %q", in)
	}
	for i, l := range in {
		if has := strings.HasPrefix(l, "❯"); has != (i == 0) {
			t.Errorf("row %d: %q", i, l)
		}
	}
}
