package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// fixture is a runner over real bash processes, started the way the session starts them.
type fixture struct {
	ws     string
	runner *Runner
}

func newFixture(t *testing.T, hs ...config.Hook) *fixture { return newBenchFixture(t, hs...) }

func newBenchFixture(t testing.TB, hs ...config.Hook) *fixture {
	t.Helper()
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	tasks := bash.NewTasks()
	t.Cleanup(tasks.KillAll)
	ws := t.TempDir()
	for i := range hs {
		if hs[i].File == "" {
			hs[i].File = filepath.Join(ws, "settings.json")
		}
	}
	r := New(Options{
		Hooks: hs,
		Start: func(name string, args, env []string, dir string, files []*os.File) (Proc, error) {
			p, err := tasks.StartProgram(name, args, env, dir, files)
			if err != nil {
				return nil, err
			}
			return p, nil
		},
		Shell:      sh,
		Env:        tools.NewEnv(ws, t.TempDir()).ChildEnv,
		ProjectDir: ws,
	})
	t.Cleanup(r.Close)
	return &fixture{ws: ws, runner: r}
}

func (f *fixture) run(t *testing.T, ev Event) Outcome {
	t.Helper()
	if ev.Cwd == "" {
		ev.Cwd = f.ws
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return f.runner.Run(ctx, ev)
}

func hook(event, matcher, command string) config.Hook {
	return config.Hook{Event: event, Matcher: matcher, Command: command}
}

// readJSON reads a file a hook wrote its input to.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("the hook's input is not JSON: %v\n%s", err, b)
	}
	return m
}

func TestAHookIsToldOfItsEventInClaudeCodesShape(t *testing.T) {
	f := newFixture(t)
	got := filepath.Join(f.ws, "input.json")
	f.runner.SetHooks([]config.Hook{{Event: PreToolUse, Matcher: "Read", Command: "cat > " + got, File: "x"}}, nil)
	f.runner.opts.Mode = func() string { return "accept-edits" }
	out := f.run(t, Event{Name: PreToolUse, SessionID: "s1", Transcript: "/state/s1.jsonl", Tool: "read_file", ToolUseID: "call_1",
		ToolInput: ToolInput("read_file", json.RawMessage(`{"path":"a.txt","offset":3}`), filepath.Join(f.ws, "a.txt"))})
	if out.Block || out.Permission != "" || len(out.Notices) > 0 {
		t.Fatalf("a hook that says nothing decided something: %+v", out)
	}
	in := readJSON(t, got)
	for k, want := range map[string]any{
		"session_id": "s1", "transcript_path": "/state/s1.jsonl", "cwd": f.ws, "hook_event_name": "PreToolUse",
		"permission_mode": "acceptEdits", "tool_name": "Read", "tool_use_id": "call_1",
	} {
		if in[k] != want {
			t.Errorf("%s = %v, want %v", k, in[k], want)
		}
	}
	ti, _ := in["tool_input"].(map[string]any)
	if ti["file_path"] != filepath.Join(f.ws, "a.txt") || ti["offset"] != float64(3) || ti["path"] != nil {
		t.Errorf("tool_input = %v, want Claude Code's field names with an absolute file_path", ti)
	}
}

func TestEachEventTellsItsOwnFields(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want map[string]any
	}{
		{Event{Name: PostToolUse, Tool: "bash", ToolInput: map[string]any{"command": "ls"},
			ToolResponse: map[string]any{"stdout": "a\n"}}, map[string]any{"tool_name": "Bash"}},
		{Event{Name: UserPromptSubmit, Prompt: "fix it"}, map[string]any{"prompt": "fix it"}},
		{Event{Name: Stop}, map[string]any{"stop_hook_active": false}},
		{Event{Name: SubagentStop, StopHookActive: true}, map[string]any{"stop_hook_active": true}},
		{Event{Name: SessionStart, Source: "resume"}, map[string]any{"source": "resume"}},
		{Event{Name: SessionEnd, Reason: "clear"}, map[string]any{"reason": "clear"}},
		{Event{Name: PreCompact, Trigger: "manual", CustomInstructions: "keep the plan"},
			map[string]any{"trigger": "manual", "custom_instructions": "keep the plan"}},
		{Event{Name: Notification, Message: "Warden needs your permission to use Bash", NotificationType: "permission_prompt"},
			map[string]any{"message": "Warden needs your permission to use Bash", "notification_type": "permission_prompt"}},
	} {
		t.Run(tc.ev.Name, func(t *testing.T) {
			f := newFixture(t)
			got := filepath.Join(f.ws, "input.json")
			f.runner.SetHooks([]config.Hook{hook(tc.ev.Name, "", "cat > "+got)}, nil)
			f.run(t, tc.ev)
			in := readJSON(t, got)
			for k, want := range tc.want {
				if in[k] != want {
					t.Errorf("%s = %v, want %v", k, in[k], want)
				}
			}
			if in["hook_event_name"] != tc.ev.Name || in["permission_mode"] != "default" {
				t.Errorf("common fields = %v", in)
			}
			if tc.ev.Name == PostToolUse {
				if r, _ := in["tool_response"].(map[string]any); r["stdout"] != "a\n" {
					t.Errorf("tool_response = %v", in["tool_response"])
				}
			}
		})
	}
}

func TestExitTwoBlocksAndItsStderrGoesWhereTheEventSays(t *testing.T) {
	const script = `echo "use rg instead" >&2; exit 2`
	for _, tc := range []struct {
		event        string
		block        bool
		permission   string
		noticeToUser bool
	}{
		{PreToolUse, true, "deny", false},
		{PostToolUse, true, "", false},
		{UserPromptSubmit, true, "", false},
		{Stop, true, "", false},
		{SubagentStop, true, "", false},
		{SessionStart, false, "", true},
		{SessionEnd, false, "", true},
		{Notification, false, "", true},
		{PreCompact, false, "", true},
	} {
		t.Run(tc.event, func(t *testing.T) {
			f := newFixture(t, hook(tc.event, "", script))
			out := f.run(t, Event{Name: tc.event, Tool: "bash"})
			if out.Block != tc.block || out.Permission != tc.permission {
				t.Fatalf("block %v permission %q, want %v %q: %+v", out.Block, out.Permission, tc.block, tc.permission, out)
			}
			if tc.block && out.Reason != "use rg instead" {
				t.Errorf("reason = %q, want the hook's stderr", out.Reason)
			}
			if tc.block && !strings.Contains(out.By, script) {
				t.Errorf("by = %q, want the hook named", out.By)
			}
			told := len(out.Notices) == 1 && strings.Contains(out.Notices[0], "use rg instead")
			if told != tc.noticeToUser {
				t.Errorf("notices = %q", out.Notices)
			}
		})
	}
}

func TestAFailingHookBlocksNothingAndIsToldOnce(t *testing.T) {
	f := newFixture(t, hook(PreToolUse, "Bash", `echo "config missing" >&2; exit 1`))
	out := f.run(t, Event{Name: PreToolUse, Tool: "bash"})
	if out.Block || out.Permission != "" {
		t.Fatalf("exit 1 blocked: %+v", out)
	}
	if len(out.Notices) != 1 || !strings.Contains(out.Notices[0], "exited with status 1: config missing") {
		t.Fatalf("notices = %q", out.Notices)
	}
	if again := f.run(t, Event{Name: PreToolUse, Tool: "bash"}); len(again.Notices) != 0 {
		t.Errorf("the same hook's failure was told again: %q", again.Notices)
	}
	list := f.runner.List()
	if len(list) != 1 || list[0].Runs != 2 || list[0].Failures != 2 || !strings.Contains(list[0].State(), "failed 2×") {
		t.Errorf("list = %+v", list)
	}
}

func TestJSONAnswersAreHonoured(t *testing.T) {
	for name, tc := range map[string]struct {
		event, json string
		check       func(Outcome) bool
	}{
		"allow": {PreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"known safe"}}`,
			func(o Outcome) bool { return o.Permission == "allow" && o.PermissionReason == "known safe" && !o.Block }},
		"ask": {PreToolUse, `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"touches prod"}}`,
			func(o Outcome) bool { return o.Permission == "ask" && o.PermissionReason == "touches prod" && !o.Block }},
		"deny": {PreToolUse, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}`,
			func(o Outcome) bool { return o.Permission == "deny" && o.Block && o.Reason == "no" }},
		"older approve": {PreToolUse, `{"decision":"approve","reason":"fine"}`,
			func(o Outcome) bool { return o.Permission == "allow" && o.PermissionReason == "fine" }},
		"older block": {PreToolUse, `{"decision":"block","reason":"not that"}`,
			func(o Outcome) bool { return o.Permission == "deny" && o.Reason == "not that" }},
		"a changed input is refused": {PreToolUse, `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}`,
			func(o Outcome) bool { return o.Permission == "deny" && strings.Contains(o.Reason, "updatedInput") }},
		"continue false": {PostToolUse, `{"continue":false,"stopReason":"tests are red"}`,
			func(o Outcome) bool { return o.Stop && o.StopReason == "tests are red" && !o.Block }},
		"post block": {PostToolUse, `{"decision":"block","reason":"lint failed"}`,
			func(o Outcome) bool { return o.Block && o.Reason == "lint failed" }},
		"additional context": {PostToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 files changed"}}`,
			func(o Outcome) bool { return o.Context == "3 files changed" && !o.Block }},
		"system message": {Stop, `{"systemMessage":"remember the changelog"}`,
			func(o Outcome) bool {
				return len(o.Notices) == 1 && strings.Contains(o.Notices[0], "remember the changelog")
			}},
		"stop block": {Stop, `{"decision":"block","reason":"the tests were not run"}`,
			func(o Outcome) bool { return o.Block && o.Reason == "the tests were not run" }},
		"prompt block": {UserPromptSubmit, `{"decision":"block","reason":"no secrets in prompts"}`,
			func(o Outcome) bool { return o.Block && o.Reason == "no secrets in prompts" && o.Context == "" }},
		"prompt context": {UserPromptSubmit, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch: main"}}`,
			func(o Outcome) bool { return o.Context == "branch: main" && !o.Block }},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, hook(tc.event, "", "cat > /dev/null; printf '%s' '"+tc.json+"'"))
			if out := f.run(t, Event{Name: tc.event, Tool: "bash"}); !tc.check(out) {
				t.Errorf("outcome = %+v", out)
			}
		})
	}
}

func TestDenyOutweighsAskOutweighsAllow(t *testing.T) {
	answer := func(d string) string {
		return `printf '{"hookSpecificOutput":{"permissionDecision":"` + d + `","permissionDecisionReason":"` + d + ` says so"}}'`
	}
	f := newFixture(t, hook(PreToolUse, "", answer("allow")), hook(PreToolUse, "", answer("ask")))
	if out := f.run(t, Event{Name: PreToolUse, Tool: "bash"}); out.Permission != "ask" || out.PermissionReason != "ask says so" {
		t.Errorf("allow and ask = %+v, want ask", out)
	}
	f = newFixture(t, hook(PreToolUse, "", answer("allow")), hook(PreToolUse, "", answer("deny")), hook(PreToolUse, "", answer("ask")))
	if out := f.run(t, Event{Name: PreToolUse, Tool: "bash"}); out.Permission != "deny" || out.Reason != "deny says so" {
		t.Errorf("allow, deny and ask = %+v, want deny", out)
	}
}

func TestPlainOutputJoinsTheContextOnlyForPromptsAndSessionStart(t *testing.T) {
	for _, tc := range []struct {
		event string
		joins bool
	}{{UserPromptSubmit, true}, {SessionStart, true}, {PreToolUse, false}, {PostToolUse, false}, {Stop, false}} {
		f := newFixture(t, hook(tc.event, "", "echo 'ticket ABC-123 is open'"))
		out := f.run(t, Event{Name: tc.event, Tool: "bash"})
		if (out.Context == "ticket ABC-123 is open") != tc.joins {
			t.Errorf("%s: context = %q, joins %v", tc.event, out.Context, tc.joins)
		}
	}
}

func TestMatchersMatchClaudeCodesNames(t *testing.T) {
	for _, tc := range []struct {
		matcher, tool string
		runs          bool
	}{
		{"Bash", "bash", true}, {"bash", "bash", true}, {"Bash", "bash_output", false}, {"Edit|Write", "write_file", true},
		{"Edit|Write", "read_file", false}, {"Read", "read_file", true}, {"mcp__github__.*", "mcp__github__get_issue", true},
		{"mcp__github__.*", "mcp__gitlab__get_issue", false}, {"", "glob", true}, {"*", "grep", true}, {"Task", "task", true},
		{"^Web", "web_fetch", true}, {"Grep", "glob", false},
	} {
		f := newFixture(t, hook(PreToolUse, tc.matcher, "echo ran > ran"))
		f.run(t, Event{Name: PreToolUse, Tool: tc.tool})
		_, err := os.Stat(filepath.Join(f.ws, "ran"))
		if (err == nil) != tc.runs {
			t.Errorf("matcher %q on %s: ran %v, want %v", tc.matcher, tc.tool, err == nil, tc.runs)
		}
	}
	f := newFixture(t, hook(SessionStart, "resume", "echo ran > ran"))
	f.run(t, Event{Name: SessionStart, Source: "startup"})
	if _, err := os.Stat(filepath.Join(f.ws, "ran")); err == nil {
		t.Error("a SessionStart hook matched on resume ran at startup")
	}
	f.run(t, Event{Name: SessionStart, Source: "resume"})
	if _, err := os.Stat(filepath.Join(f.ws, "ran")); err != nil {
		t.Error("a SessionStart hook matched on resume did not run on resume")
	}
}

func TestACommandConfiguredTwiceForAnEventRunsOnce(t *testing.T) {
	f := newFixture(t, hook(Stop, "", "echo x >> count"), hook(Stop, "", "echo x >> count"))
	f.run(t, Event{Name: Stop})
	b, _ := os.ReadFile(filepath.Join(f.ws, "count"))
	if got := strings.Count(string(b), "x"); got != 1 {
		t.Errorf("ran %d times", got)
	}
}

// gone reports whether process pid has ended (a zombie has), waiting for it until a deadline.
func gone(t *testing.T, pid int) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i+1:]), " Z") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestAHookPastItsTimeoutIsKilledWithWhatItStarted(t *testing.T) {
	h := hook(PreToolUse, "", `echo $$ > hook.pid; sleep 300 & echo $! > child.pid; wait`)
	h.TimeoutSec = 1
	f := newFixture(t, h)
	out := f.run(t, Event{Name: PreToolUse, Tool: "bash"})
	if out.Block || out.Permission != "" {
		t.Fatalf("a hook that timed out blocked: %+v", out)
	}
	if len(out.Notices) != 1 || !strings.Contains(out.Notices[0], "did not finish within 1s") {
		t.Fatalf("notices = %q", out.Notices)
	}
	for _, name := range []string{"hook.pid", "child.pid"} {
		if pid := readPid(t, filepath.Join(f.ws, name)); !gone(t, pid) {
			t.Errorf("%s (%d) still runs after the hook's timeout", name, pid)
		}
	}
}

func TestWhatAHookLeavesRunningEndsWithIt(t *testing.T) {
	f := newFixture(t, hook(Notification, "", `sleep 300 & echo $! > child.pid`))
	if out := f.run(t, Event{Name: Notification}); len(out.Notices) != 0 {
		t.Fatalf("notices = %q", out.Notices)
	}
	if pid := readPid(t, filepath.Join(f.ws, "child.pid")); !gone(t, pid) {
		t.Errorf("the hook's background process (%d) outlived it", pid)
	}
}

func TestCloseStopsTheHooksThatRun(t *testing.T) {
	f := newFixture(t, hook(SessionEnd, "", `echo $$ > hook.pid; exec sleep 300`))
	done := make(chan Outcome, 1)
	go func() { done <- f.runner.Run(context.Background(), Event{Name: SessionEnd, Cwd: f.ws}) }()
	pidFile := filepath.Join(f.ws, "hook.pid")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hook did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.runner.Close()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after Close")
	}
	if pid := readPid(t, pidFile); !gone(t, pid) {
		t.Errorf("the hook (%d) runs on after Close", pid)
	}
	if out := f.run(t, Event{Name: SessionEnd}); len(out.Notices) != 0 || f.runner.List()[0].Runs != 1 {
		t.Errorf("a hook started after Close: %+v", out)
	}
}

func TestAHookGetsTheAllowListedEnvironmentAndTheProjectDir(t *testing.T) {
	t.Setenv("WARDEN_TEST_PLANTED_KEY", "sk-planted-secret-value")
	t.Setenv("OPENAI_API_KEY", "sk-planted-secret-value")
	f := newFixture(t, hook(SessionStart, "", "env > env.txt"))
	f.run(t, Event{Name: SessionStart, Source: "startup"})
	b, err := os.ReadFile(filepath.Join(f.ws, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	env := string(b)
	if !strings.Contains(env, "CLAUDE_PROJECT_DIR="+f.ws+"\n") {
		t.Errorf("CLAUDE_PROJECT_DIR missing:\n%s", env)
	}
	if strings.Contains(env, "sk-planted-secret-value") {
		t.Errorf("a hook got a secret of Warden's environment:\n%s", env)
	}
}

func TestAHookThatNeitherReadsNorStopsWritingIsBounded(t *testing.T) {
	f := newFixture(t, hook(UserPromptSubmit, "", `head -c 3000000 /dev/zero | tr '\0' x`))
	out := f.run(t, Event{Name: UserPromptSubmit, Prompt: strings.Repeat("p", 1<<20)})
	if len(out.Context) > maxContext+100 || !strings.Contains(out.Context, "[cut:") {
		t.Errorf("context of %d characters", len(out.Context))
	}
}

func TestAnEventNoHookMatchesStartsNothing(t *testing.T) {
	var r *Runner
	if out := r.Run(context.Background(), Event{Name: Stop}); out.Block || r.Has(Stop) {
		t.Error("a nil runner did something")
	}
	f := newFixture(t, hook(PreToolUse, "Edit", "echo ran > ran"))
	if f.runner.Has(Stop) || !f.runner.Has(PreToolUse) {
		t.Error("Has is wrong")
	}
	f.run(t, Event{Name: PreToolUse, Tool: "bash"})
	if _, err := os.Stat(filepath.Join(f.ws, "ran")); err == nil {
		t.Error("a hook matched on Edit ran for Bash")
	}
}

// A project that configures the person's own guard again, with a timeout too short for it, does not get
// it killed: the command runs once, as the person configured it. Before, the copy listed first ran, and a
// project's listed before the person's ~/.claude one ended the guard at its own timeout, blocking nothing.
func TestAProjectsCopyOfThePersonsHookDoesNotReplaceIt(t *testing.T) {
	guard := `sleep 1.5; echo "touch is not allowed here" >&2; exit 2`
	f := newFixture(t,
		config.Hook{Event: PreToolUse, Matcher: "Bash", Command: guard, TimeoutSec: 1, Project: true, File: ".warden/settings.json"},
		config.Hook{Event: PreToolUse, Matcher: "Bash", Command: guard, TimeoutSec: 30, File: "/home/p/.claude/settings.json"},
	)
	out := f.run(t, Event{Name: PreToolUse, SessionID: "s1", Tool: "bash", ToolUseID: "c1",
		ToolInput: ToolInput("bash", json.RawMessage(`{"command":"touch M"}`), "")})
	if !out.Block || !strings.Contains(out.Reason, "touch is not allowed here") {
		t.Fatalf("the person's guard did not decide: %+v", out)
	}
}

// A project's hook runs in the workspace's top folder even when the session has moved to a folder below
// it, where the repository could plant another script of the name the approved command runs; the person's
// own hooks run where the session is, and both are told the session's cwd. Before, a project hook `sh
// .claude/hooks/x.sh` ran sub/.claude/hooks/x.sh once the session was in sub, which its approval did not
// cover.
func TestAProjectsHookRunsInTheWorkspaceWhereverTheSessionIs(t *testing.T) {
	project := hook(UserPromptSubmit, "", "pwd > \"$CLAUDE_PROJECT_DIR/project-ran-in\"")
	project.Project = true
	f := newFixture(t, project, hook(UserPromptSubmit, "", "pwd > \"$CLAUDE_PROJECT_DIR/mine-ran-in\""))
	sub := filepath.Join(f.ws, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	f.run(t, Event{Name: UserPromptSubmit, Prompt: "hi", Cwd: sub})
	for name, want := range map[string]string{"project-ran-in": f.ws, "mine-ran-in": sub} {
		b, err := os.ReadFile(filepath.Join(f.ws, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(b)); got != want {
			t.Errorf("%s: ran in %s, want %s", name, got, want)
		}
	}
}
