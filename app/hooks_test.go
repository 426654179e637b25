package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/ui"
)

// hookSession is a session with the given hooks, as newSession makes one, without a model server.
func hookSession(t *testing.T, hs ...config.Hook) *session {
	t.Helper()
	ws := t.TempDir()
	for i := range hs {
		hs[i].File = "settings.json"
	}
	e, err := permissions.NewEngine(permissions.Policy{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	store, err := agent.CreateStore(t.TempDir(), "s1", ws, "m")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	tasks := bash.NewTasks()
	t.Cleanup(tasks.KillAll)
	s := &session{cfg: &config.Config{Workspace: ws, Hooks: hs}, id: "s1", store: store, engine: e, tasks: tasks,
		env: tools.NewEnv(ws, t.TempDir()), programs: hostexec.NewFinder(os.Getenv("PATH"), []string{ws})}
	s.newHooks()
	if s.hooks == nil {
		t.Fatal("no hook runner for a session with hooks")
	}
	t.Cleanup(s.hooks.Close)
	return s
}

func TestANoticeOfTheTUIRunsTheNotificationHooks(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "notified.json")
	s := hookSession(t, config.Hook{Event: "Notification", Matcher: "permission_prompt",
		Command: "cat > " + got + ".part && mv " + got + ".part " + got + "; echo 'seen by the hook' >&2; exit 1"})
	n := &hookNotifier{s: s}
	told := make(chan string, 4)
	n.to(func(e agent.Event) {
		if nt, ok := e.(agent.Notice); ok {
			told <- nt.Message
		}
	})
	n.Notify(ui.Notice{Kind: ui.NoticePermission, Message: "Warden needs your permission to use edit_file", SessionID: "s1"})
	b, err := os.ReadFile(got)
	must(t, err)
	var in map[string]any
	must(t, json.Unmarshal(b, &in))
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
		in["message"] != "Warden needs your permission to use edit_file" || in["session_id"] != "s1" {
		t.Errorf("the hook was told %v", in)
	}
	select {
	case m := <-told:
		if !strings.Contains(m, "seen by the hook") {
			t.Errorf("the person was told %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("what the failing hook said never reached the person")
	}
	// A notice of another kind does not match the hook's matcher.
	must(t, os.Remove(got))
	n.Notify(ui.Notice{Kind: ui.NoticeIdle, Message: "done"})
	if _, err := os.Stat(got); err == nil {
		t.Error("an idle notice ran the hook matched on permission_prompt")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
