package agent

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hooks"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// withHooks gives the agent a runner of real bash hooks, started as the session starts them.
func withHooks(t *testing.T, hs ...config.Hook) func(o *Options, ws string) {
	return func(o *Options, ws string) {
		sh, err := exec.LookPath("bash")
		if err != nil {
			t.Fatal(err)
		}
		tasks := bash.NewTasks()
		t.Cleanup(tasks.KillAll)
		for i := range hs {
			hs[i].File = "settings.json"
		}
		r := hooks.New(hooks.Options{Hooks: hs, Shell: sh, ProjectDir: ws,
			Start: func(name string, args, env []string, dir string, files []*os.File) (hooks.Proc, error) {
				p, err := tasks.StartProgram(name, args, env, dir, files)
				if err != nil {
					return nil, err
				}
				return p, nil
			},
			Env: func(dir string) []string { return tools.ChildEnv(tools.BashSettings{}, dir) },
		})
		t.Cleanup(r.Close)
		o.Hooks = r
	}
}

func hookOf(event, matcher, command string) config.Hook {
	return config.Hook{Event: event, Matcher: matcher, Command: command}
}

func TestAStopHookKeepsTheModelWorkingWithItsWords(t *testing.T) {
	// Blocks the first stop only, as Claude Code's documentation tells Stop hooks to do.
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("Stop", "",
		`case "$(cat)" in *'"stop_hook_active":false'*) echo "the tests were not run" >&2; exit 2;; esac`)))
	h.server.Reply(fakeapi.Text("All done."), fakeapi.Text("Ran them; all pass."))
	done := h.run("fix it")
	if done.IsError || done.Text != "Ran them; all pass." || done.Turns != 2 {
		t.Fatalf("done = %+v", done)
	}
	reqs := h.server.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUser(), "the tests were not run") {
		t.Fatalf("the model was not told the hook's words: %d requests, last user %q", len(reqs), reqs[len(reqs)-1].LastUser())
	}
}

func TestAPromptAHookBlocksIsNotSent(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("UserPromptSubmit", "",
		`grep -q password && { echo "no passwords in prompts" >&2; exit 2; }; exit 0`)))
	done := h.run("my password is hunter2")
	if !done.IsError || !strings.Contains(done.Text, "no passwords in prompts") {
		t.Fatalf("done = %+v", done)
	}
	if n := len(h.server.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	for _, m := range h.agent.Messages() {
		if strings.Contains(m.Content, "hunter2") {
			t.Errorf("the blocked prompt joined the conversation: %q", m.Content)
		}
	}
	h.server.Reply(fakeapi.Text("hello"))
	if done := h.run("hi"); done.IsError || len(h.server.Requests()) != 1 {
		t.Errorf("a prompt the hook lets through: %+v", done)
	}
}

func TestSessionStartAndPromptOutputJoinTheContext(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, func(o *Options, ws string) {
		withHooks(t, hookOf("SessionStart", "startup", "echo 'branch: feature-x'"),
			hookOf("UserPromptSubmit", "", "echo 'ticket ABC-123'"))(o, ws)
		o.SessionStart = "startup"
	})
	h.server.Reply(fakeapi.Text("ok"))
	h.run("what now?")
	got := h.server.Requests()[0].LastUser()
	for _, want := range []string{"branch: feature-x", "ticket ABC-123", "what now?"} {
		if !strings.Contains(got, want) {
			t.Errorf("the first request's prompt lacks %q: %q", want, got)
		}
	}
}

func TestPostToolUseFeedbackReachesTheModelWithTheResult(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("PostToolUse", "echo",
		`cat > /dev/null; printf '{"decision":"block","reason":"echo is deprecated here"}'`)))
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("noted"))
	h.run("echo hi")
	if got := h.toolResults(1)["c1"]; !strings.HasPrefix(got, "echo: hi") || !strings.Contains(got, "echo is deprecated here") {
		t.Errorf("tool result = %q", got)
	}
}

func TestAHooksAskIsAskedEvenWhatTheEngineAllows(t *testing.T) {
	asked := 0
	approver := ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Approval, error) {
		asked++
		if req.Verdict.By != "hook" || !strings.Contains(req.Verdict.Reason, "check with a human") {
			t.Errorf("the question = %+v", req.Verdict)
		}
		return Approval{Allow: false}, nil
	})
	h := newHarness(t, permissions.ModeDefault, approver, withHooks(t, hookOf("PreToolUse", "echo",
		`printf '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check with a human"}}'`)))
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("ok"))
	h.run("echo hi")
	if asked != 1 {
		t.Errorf("asked %d times", asked)
	}
	if got := h.toolResults(1)["c1"]; strings.Contains(got, "echo: hi") {
		t.Errorf("the call ran though the person said no: %q", got)
	}
}

func TestAHooksContinueFalseEndsTheRequest(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("PostToolUse", "",
		`printf '{"continue":false,"stopReason":"the build is broken"}'`)))
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("never asked"))
	done := h.run("echo hi")
	if !strings.Contains(done.Text, "the build is broken") || len(h.server.Requests()) != 1 {
		t.Errorf("done = %+v after %d requests", done, len(h.server.Requests()))
	}
}

func TestAHookThatBlocksACallIsInTheHistory(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("PreToolUse", "echo", `echo "not today" >&2; exit 2`)))
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("ok"))
	h.run("echo hi")
	var decided *PermissionDecided
	for _, ev := range h.rec.all() {
		if d, ok := ev.(PermissionDecided); ok {
			decided = &d
		}
	}
	if decided == nil || decided.Decision != permissions.Deny || decided.By != "hook" || !strings.Contains(decided.Reason, "not today") {
		t.Errorf("decision = %+v", decided)
	}
	if got := h.toolResults(1)["c1"]; !strings.Contains(got, "not today") {
		t.Errorf("the model read %q", got)
	}
}

func TestAHooksAskIsDeniedHeadlessWithWhy(t *testing.T) {
	h := newHarness(t, permissions.ModeDefault, nil, withHooks(t, hookOf("PreToolUse", "", `printf '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`)))
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("ok"))
	h.run("echo hi")
	if got := h.toolResults(1)["c1"]; !strings.Contains(got, "a PreToolUse hook asks about it") || strings.Contains(got, "echo: hi") {
		t.Errorf("the model read %q", got)
	}
}
