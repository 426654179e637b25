package app

import (
	"context"
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

func TestAQuestionFiresTheNotificationHooksWithoutWaitingForThem(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "notified.json")
	// The hook finishes only once the question has been answered: the question must not wait for it.
	s := hookSession(t, config.Hook{Event: "Notification", Matcher: "permission_prompt",
		Command: "cat > " + got + ".part && mv " + got + ".part " + got + "; while [ ! -e " + filepath.Join(dir, "answered") + " ]; do sleep 0.05; done"})
	asked := make(chan agent.ApprovalRequest, 1)
	inner := agent.ApproverFunc(func(ctx context.Context, req agent.ApprovalRequest) (agent.Approval, error) {
		asked <- req
		return agent.Approval{Allow: true}, nil
	})
	ap := notifying{inner: inner, s: s, sink: func(agent.Event) {}}
	go ap.Approve(context.Background(), agent.ApprovalRequest{Tool: "edit_file"})
	select {
	case req := <-asked:
		if req.Tool != "edit_file" {
			t.Errorf("the person was asked about %+v", req)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the question waited for the Notification hook")
	}
	must(t, os.WriteFile(filepath.Join(dir, "answered"), nil, 0o644))
	var in map[string]any
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(got); err == nil {
			must(t, json.Unmarshal(b, &in))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Notification hook did not run")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
		!strings.Contains(in["message"].(string), "permission to use Edit") || in["session_id"] != "s1" {
		t.Errorf("the hook was told %v", in)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
