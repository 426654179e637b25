package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/files"
)

// realAgent is an agent with the real bash and file tools in a workspace, against the fake server.
type realAgent struct {
	server *fakeapi.Server
	rec    *recorder
	agent  *Agent
	ws     string
	store  string
}

// askRecorder approves or denies every question and keeps the requests.
type askRecorder struct {
	allow bool
	asked []ApprovalRequest
}

func (a *askRecorder) Approve(ctx context.Context, req ApprovalRequest) (Approval, error) {
	a.asked = append(a.asked, req)
	return Approval{Allow: a.allow}, nil
}

func newRealAgent(t *testing.T, approver Approver) *realAgent {
	t.Helper()
	r := &realAgent{server: fakeapi.New(), rec: &recorder{}, ws: t.TempDir()}
	t.Cleanup(r.server.Close)
	home := t.TempDir()
	engine, err := permissions.NewEngine(permissions.Policy{Workspace: r.ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	env := tools.NewEnv(r.ws, t.TempDir())
	env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, home) }
	env.Secret = func(p string) bool { return permissions.IsSecretPath(p, home) }
	tasks := bash.NewTasks()
	t.Cleanup(tasks.KillAll)
	dir := t.TempDir()
	st, err := CreateStore(dir, "s1", r.ws, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = SessionPath(dir, "s1")
	if approver == nil {
		approver = HeadlessApprover{}
	}
	a, err := New(Options{
		Provider: NewProvider(r.server.URL(), "", "fake-model"),
		Tools:    tools.NewRegistry(append(bash.NewTools(tasks), files.NewTools()...)...),
		Env:      env, Engine: engine, Approver: approver, Sink: r.rec.sink, System: "system prompt",
		MaxSteps: 5, Store: st,
		Retry: RetryPolicy{Attempts: 2, Base: 10 * time.Millisecond, Max: 20 * time.Millisecond, MaxRetryAfter: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.agent = a
	return r
}

func (r *realAgent) write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.ws, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ctx10(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// A mentioned file reaches the model as a read_file result before it answers, and counts as read, so
// that an edit of it goes through without a read of its own.
func TestMentionAttachesTheFileAndCountsAsARead(t *testing.T) {
	r := newRealAgent(t, &askRecorder{allow: true})
	r.write(t, "notes.txt", "alpha\nbeta\n")
	r.server.Reply(
		fakeapi.ToolCall("c1", "edit_file", `{"path":"notes.txt","old_string":"beta","new_string":"gamma"}`),
		fakeapi.Text("Edited."),
	)
	done := r.agent.RunWith(ctx10(t), "change beta in @notes.txt", []string{"notes.txt"})
	if done.IsError {
		t.Fatalf("run failed: %s", done.Text)
	}
	reqs := r.server.Requests()
	msgs := reqs[0].Messages
	var sawCall, sawResult bool
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			sawCall = sawCall || (tc.Function.Name == "read_file" && strings.Contains(tc.Function.Arguments, "notes.txt"))
		}
		if m.Role == "tool" && strings.Contains(m.Content, "alpha") && strings.Contains(m.Content, "beta") {
			sawResult = true
		}
	}
	if !sawCall || !sawResult {
		t.Fatalf("the first request lacks the attached file: %+v", msgs)
	}
	data, _ := os.ReadFile(filepath.Join(r.ws, "notes.txt"))
	if string(data) != "alpha\ngamma\n" {
		t.Errorf("the edit did not go through on the mention's read: %q; model was told %q", data, lastToolContent(reqs))
	}
}

// A mentioned secret asks like read_file would; refused, the model reads why and the file stays unread.
func TestMentionOfASecretAsksAndADenialIsNoted(t *testing.T) {
	ask := &askRecorder{allow: false}
	r := newRealAgent(t, ask)
	r.write(t, ".env", "API_KEY=hunter2\n")
	r.server.Reply(fakeapi.Text("Understood."))
	r.agent.RunWith(ctx10(t), "what is in @.env", []string{".env"})
	if len(ask.asked) != 1 || ask.asked[0].Tool != "read_file" {
		t.Fatalf("asked %+v", ask.asked)
	}
	reqs := r.server.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if strings.Contains(string(reqs[0].Raw), "hunter2") {
		t.Fatal("the secret reached the model")
	}
	if got := lastToolContent(reqs); !strings.Contains(got, "denied") {
		t.Errorf("the model was told %q", got)
	}
}

// A mention outside the workspace is refused headless (it would ask) with a note to the model.
func TestMentionOutsideTheWorkspaceIsRefusedHeadless(t *testing.T) {
	r := newRealAgent(t, nil)
	outside := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(outside, []byte("elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.server.Reply(fakeapi.Text("Understood."))
	r.agent.RunWith(ctx10(t), "read @"+outside, []string{outside})
	reqs := r.server.Requests()
	if strings.Contains(string(reqs[0].Raw), "elsewhere") {
		t.Fatal("the file outside the workspace was read")
	}
	if got := lastToolContent(reqs); !strings.Contains(got, "Permission denied") {
		t.Errorf("the model was told %q", got)
	}
}

func lastToolContent(reqs []fakeapi.Request) string {
	for i := len(reqs) - 1; i >= 0; i-- {
		msgs := reqs[i].Messages
		for j := len(msgs) - 1; j >= 0; j-- {
			if msgs[j].Role == "tool" {
				return msgs[j].Content
			}
		}
	}
	return ""
}

// A command the person runs in shell mode runs without asking, is reported as the user's, and the model
// hears of it, output included, in the next request, in the same message as the prompt.
func TestShellRunsUnaskedAndIsNotedForTheNextTurn(t *testing.T) {
	r := newRealAgent(t, nil)
	res := r.agent.Shell(ctx10(t), "echo from-the-shell > made.txt; cat made.txt")
	if res.IsError || !strings.Contains(res.Output, "from-the-shell") {
		t.Fatalf("shell result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(r.ws, "made.txt")); err != nil {
		t.Fatal("the command did not run in the workspace")
	}
	var decided *PermissionDecided
	for _, ev := range r.rec.all() {
		if d, ok := ev.(PermissionDecided); ok {
			decided = &d
		}
	}
	if decided == nil || decided.By != "user" || decided.Reason != ShellReason {
		t.Errorf("decision %+v", decided)
	}
	r.server.Reply(fakeapi.Text("Seen."))
	r.agent.Run(ctx10(t), "what did I just do?")
	msgs := r.server.Requests()[0].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "from-the-shell") || !strings.HasSuffix(last.Content, "what did I just do?") {
		t.Errorf("the prompt message is %q", last.Content)
	}
	notes, prompt := SplitNotes(last.Content)
	if !strings.Contains(notes, "$ echo from-the-shell") || prompt != "what did I just do?" {
		t.Errorf("SplitNotes = %q, %q", notes, prompt)
	}
	// Once told, the model is not told again.
	r.server.Reply(fakeapi.Text("Again."))
	r.agent.Run(ctx10(t), "and now?")
	msgs = r.server.Requests()[1].Messages
	if c := msgs[len(msgs)-1].Content; c != "and now?" {
		t.Errorf("the note came twice: %q", c)
	}
}

// A note that arrives while the model works reaches it after the tool results of that turn.
func TestNoteDuringARunFollowsTheToolResults(t *testing.T) {
	r := newRealAgent(t, nil)
	r.server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"echo one"}`), fakeapi.Text("Done."))
	r.server.Fallback(nil)
	go func() {
		// The note is queued once the first request has arrived, before the second.
		if _, err := r.server.WaitRequests(1, 5*time.Second); err == nil {
			r.agent.Note("background task b1 ended: exit 0")
		}
	}()
	r.agent.Run(ctx10(t), "go")
	reqs := r.server.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "background task b1 ended") {
		t.Errorf("the second request ends with %s %q", last.Role, last.Content)
	}
	if prev := msgs[len(msgs)-2]; prev.Role != "tool" {
		t.Errorf("the note does not follow the tool result: %s", prev.Role)
	}
}

// /model changes the model of the next request and is recorded, so that a resumed session keeps it.
func TestSetModelSwitchesAndIsRemembered(t *testing.T) {
	r := newRealAgent(t, nil)
	r.server.Reply(fakeapi.Text("one"), fakeapi.Text("two"))
	r.agent.Run(ctx10(t), "first")
	if err := r.agent.SetModel("other-model"); err != nil {
		t.Fatal(err)
	}
	r.agent.Run(ctx10(t), "second")
	reqs := r.server.Requests()
	if reqs[0].Model != "fake-model" || reqs[1].Model != "other-model" {
		t.Errorf("models %q then %q", reqs[0].Model, reqs[1].Model)
	}
	l, err := ReadSession(r.store)
	if err != nil {
		t.Fatal(err)
	}
	if l.Model != "other-model" {
		t.Errorf("the session reads back model %q", l.Model)
	}
}

// /compact summarises the conversation with the person's focus, and reports it.
func TestCompactSummarisesWithTheFocus(t *testing.T) {
	r := newRealAgent(t, nil)
	r.server.Reply(fakeapi.Text("answer one"), fakeapi.Text("answer two"), fakeapi.Text("- the summary"))
	r.agent.Run(ctx10(t), "first question")
	r.agent.Run(ctx10(t), "second question")
	ev, err := r.agent.Compact(ctx10(t), "the failing test")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Summarized != 4 {
		t.Errorf("summarised %d messages, want 4", ev.Summarized)
	}
	reqs := r.server.Requests()
	sys := reqs[2].Messages[0].Content
	if !strings.Contains(sys, "the failing test") {
		t.Errorf("the summary request lacks the focus: %q", sys)
	}
	msgs := r.agent.Messages()
	if len(msgs) != 2 || !strings.Contains(msgs[1].Content, "- the summary") {
		t.Errorf("after compaction: %+v", msgs)
	}
	var reported bool
	for _, e := range r.rec.all() {
		_, ok := e.(ContextCompacted)
		reported = reported || ok
	}
	if !reported {
		t.Error("no ContextCompacted event")
	}
}

// The end of a background task the model did not stop itself is told at the next turn.
func TestNoteTaskEnd(t *testing.T) {
	r := newRealAgent(t, nil)
	code := 2
	r.agent.NoteTaskEnd(bash.TaskEnd{ID: "b1", Command: "make   test", How: "exited with status 2", ExitCode: &code,
		Took: 1500 * time.Millisecond, Output: "ok 1\nFAIL 2\n"})
	r.agent.NoteTaskEnd(bash.TaskEnd{ID: "b2", Command: "sleep 100", How: "was stopped by kill_bash", ByModel: true})
	r.server.Reply(fakeapi.Text("Seen."))
	r.agent.Run(ctx10(t), "status?")
	msgs := r.server.Requests()[0].Messages
	notes, prompt := SplitNotes(msgs[len(msgs)-1].Content)
	if !strings.Contains(notes, "Background task b1 (`make test`) exited with status 2 after 1.5s. Its last lines:\nok 1\nFAIL 2") ||
		strings.Contains(notes, "b2") || prompt != "status?" {
		t.Errorf("notes %q, prompt %q", notes, prompt)
	}
}
