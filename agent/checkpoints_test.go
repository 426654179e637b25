package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/files"
)

// cpHarness is an agent with the real bash and file tools, a session file and checkpoints, in yolo mode
// so that no call waits on a person.
type cpHarness struct {
	t        *testing.T
	ws       string
	server   *fakeapi.Server
	rec      *recorder
	agent    *Agent
	store    *Store
	cp       *checkpoint.Checkpoints
	sessions string
	cpDir    string
	events   chan Event
}

func newCPHarness(t *testing.T) *cpHarness {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := &cpHarness{t: t, ws: ws, server: fakeapi.New(), sessions: t.TempDir(), cpDir: t.TempDir()}
	t.Cleanup(h.server.Close)
	st, err := CreateStore(h.sessions, "s1", ws, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	h.start(st, nil)
	return h
}

// start makes the agent (again, for a resumed session) on store with history.
func (h *cpHarness) start(st *Store, history []openai.ChatCompletionMessage) {
	h.t.Helper()
	cp, err := checkpoint.Open(checkpoint.Options{Dir: h.cpDir, Workspace: h.ws, Session: "s1"})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cp.Close() })
	engine, err := permissions.NewEngine(permissions.Policy{Mode: permissions.ModeYolo, Workspace: h.ws, Home: h.t.TempDir()})
	if err != nil {
		h.t.Fatal(err)
	}
	tasks := bash.NewTasks()
	h.t.Cleanup(tasks.KillAll)
	tasks.OnEnd(func(e bash.TaskEnd) { cp.EndTask(e.ID) })
	env := tools.NewEnv(h.ws, h.t.TempDir())
	env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, h.t.TempDir()) }
	h.rec = &recorder{}
	h.events = make(chan Event, 1024)
	sink := func(ev Event) {
		h.rec.sink(ev)
		h.events <- ev
	}
	a, err := New(Options{
		Provider: NewProvider(h.server.URL(), "sk-test", "fake-model"),
		Tools:    tools.NewRegistry(append(bash.NewTools(tasks), files.NewTools()...)...),
		Env:      env, Engine: engine, Approver: HeadlessApprover{}, Sink: sink, System: "system prompt",
		MaxSteps: 8, Store: st, Checkpoints: cp, SubAgents: true, History: history,
		Retry: RetryPolicy{Attempts: 2, Base: 10 * time.Millisecond, Max: 50 * time.Millisecond},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.agent, h.store, h.cp = a, st, cp
}

func (h *cpHarness) run(prompt string, replies ...*fakeapi.Response) {
	h.t.Helper()
	h.server.Reply(replies...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if done := h.agent.Run(ctx, prompt); done.IsError {
		h.t.Fatalf("run %q: %s", prompt, done.Text)
	}
}

func bashCall(id, command string) *fakeapi.Response {
	b, _ := json.Marshal(map[string]string{"command": command})
	return fakeapi.ToolCall(id, "bash", string(b))
}

// changesOf is the changes each finished call carried, by call id.
func (h *cpHarness) changesOf() map[string]string {
	out := map[string]string{}
	for _, ev := range h.rec.all() {
		ev0 := ev
		if c, ok := ev.(ChildEvent); ok {
			ev0 = c.Event
		}
		if f, ok := ev0.(ToolFinished); ok {
			var lines []string
			for _, c := range f.Changes {
				lines = append(lines, c.String())
			}
			out[f.ID] = strings.Join(lines, "; ")
		}
	}
	return out
}

func (h *cpHarness) read(name string) string {
	b, err := os.ReadFile(filepath.Join(h.ws, name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestCallsCarryWhatTheyChanged(t *testing.T) {
	h := newCPHarness(t)
	h.run("make things",
		bashCall("c1", "mkdir src && printf 'a\\nb\\n' > src/a.txt"),
		bashCall("c2", "ls src"),
		fakeapi.ToolCall("c3", "write_file", `{"path":"notes.md","content":"one\ntwo\nthree\n"}`),
		fakeapi.Text("done"))
	got := h.changesOf()
	if got["c1"] != "A src/; A src/a.txt (+2 −0)" {
		t.Errorf("c1 changed %q", got["c1"])
	}
	if got["c2"] != "" {
		t.Errorf("the read-only ls was checkpointed: %q", got["c2"])
	}
	if got["c3"] != "A notes.md (+3 −0)" {
		t.Errorf("c3 changed %q", got["c3"])
	}
	// The history, as `warden history --json` gives it, carries the same.
	l, err := ReadSession(h.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	hist := History(l)
	b, _ := json.Marshal(hist[0].Changes)
	if string(b) != `[{"path":"src/a.txt","status":"added","added_lines":2,"removed_lines":0}]` {
		t.Errorf("history changes of c1: %s", b)
	}
	if b, _ := json.Marshal(hist[1].Changes); string(b) != "[]" {
		t.Errorf("history changes of the ls: %s", b)
	}
}

func TestUndoTheLastTurnAndTellTheModel(t *testing.T) {
	h := newCPHarness(t)
	if err := os.WriteFile(filepath.Join(h.ws, "keep.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.run("first", bashCall("c1", "echo first > one.txt && echo changed > keep.txt"), fakeapi.Text("ok"))
	// The person edits a file between the turns.
	if err := os.WriteFile(filepath.Join(h.ws, "mine.txt"), []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.run("second", bashCall("c2", "echo second > two.txt && rm one.txt"), fakeapi.Text("ok"))

	var outside []FilesChanged
	for _, ev := range h.rec.all() {
		if f, ok := ev.(FilesChanged); ok && f.By == ByOutside {
			outside = append(outside, f)
		}
	}
	// Found as the second request starts, so before it: undoing that request leaves it alone.
	if len(outside) != 1 || len(outside[0].Changes) != 1 || outside[0].Changes[0].Path != "mine.txt" || outside[0].BeforeCall != "" {
		t.Fatalf("changes outside Warden: %+v", outside)
	}
	if got := h.changesOf()["c2"]; got != "D one.txt (+0 −1); A two.txt (+1 −0)" {
		t.Errorf("c2 changed %q (the change made outside must not be folded in)", got)
	}

	u, err := h.agent.PlanUndo("")
	if err != nil {
		t.Fatal(err)
	}
	if u.Point.Kind != PointTurn || u.Point.Turn != 2 {
		t.Errorf("undo goes back to %+v", u.Point)
	}
	var steps []string
	for _, s := range u.Plan.Warden() {
		steps = append(steps, s.String())
	}
	if strings.Join(steps, ", ") != "recreate one.txt, remove two.txt" {
		t.Errorf("steps: %q", steps)
	}
	if len(u.Plan.Outside()) != 0 {
		t.Errorf("steps changed outside: %+v", u.Plan.Outside())
	}
	if _, err := h.agent.Restore(u, false); err != nil {
		t.Fatal(err)
	}
	if h.read("one.txt") != "first\n" || !strings.HasPrefix(h.read("two.txt"), "<") || h.read("mine.txt") != "by hand\n" {
		t.Errorf("after undo: one %q two %q mine %q", h.read("one.txt"), h.read("two.txt"), h.read("mine.txt"))
	}

	// The model hears of it with the next request.
	h.run("third", fakeapi.Text("noted"))
	reqs := h.server.Requests()
	last := reqs[len(reqs)-1].Messages
	if m := last[len(last)-1].Content; !strings.Contains(m, "restored the workspace's files") || !strings.Contains(m, "remove two.txt") {
		t.Errorf("the model was not told: %q", m)
	}

	// A second undo goes back another turn: keep.txt and one.txt as they were before the first.
	u, err = h.agent.PlanUndo("")
	if err != nil {
		t.Fatal(err)
	}
	if u.Point.Turn != 1 {
		t.Fatalf("the second undo goes back to %+v", u.Point)
	}
	if _, err := h.agent.Restore(u, false); err != nil {
		t.Fatal(err)
	}
	if h.read("keep.txt") != "original\n" || !strings.HasPrefix(h.read("one.txt"), "<") {
		t.Errorf("after the second undo: keep %q one %q", h.read("keep.txt"), h.read("one.txt"))
	}
	if _, err := h.agent.PlanUndo(""); err != ErrNothingToUndo {
		t.Errorf("a third undo: %v", err)
	}
}

func TestRewindTheConversation(t *testing.T) {
	h := newCPHarness(t)
	h.run("first", fakeapi.Text("one"))
	h.run("second", bashCall("c1", "echo x > x.txt"), fakeapi.Text("two"))
	points, err := h.agent.Points()
	if err != nil {
		t.Fatal(err)
	}
	var second Point
	for _, p := range points {
		if p.Kind == PointTurn && p.Turn == 2 {
			second = p
		}
	}
	if err := h.agent.RewindConversation(second); err != nil {
		t.Fatal(err)
	}
	h.run("again", fakeapi.Text("three"))
	reqs := h.server.Requests()
	var contents []string
	for _, m := range reqs[len(reqs)-1].Messages {
		contents = append(contents, m.Role+":"+m.Content)
	}
	if got := strings.Join(contents, " | "); got != "system:system prompt | user:first | assistant:one | user:again" {
		t.Errorf("the request after the rewind: %s", got)
	}
	// A resumed session sees the same conversation.
	l, err := ReadSession(h.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := l.Conversation()
	if len(msgs) != 4 || msgs[2].Content != "again" {
		t.Errorf("resumed conversation: %+v", msgs)
	}
}

func TestUndoAfterResume(t *testing.T) {
	h := newCPHarness(t)
	h.run("write", bashCall("c1", "printf 'v1\\n' > f.txt"), fakeapi.Text("ok"))
	h.run("change", bashCall("c2", "printf 'v2\\n' > f.txt && chmod 700 f.txt && ln -s f.txt l"), fakeapi.Text("ok"))
	h.store.Close()
	h.cp.Close()

	l, history, st, err := ResumeSession(SessionPath(h.sessions, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	_ = l
	h.start(st, history)
	u, err := h.agent.PlanUndo("c2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.agent.Restore(u, false); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(h.ws, "f.txt"))
	if err != nil || info.Mode().Perm() != 0o644 || h.read("f.txt") != "v1\n" {
		t.Errorf("f.txt after undo: %v %v %q", info, err, h.read("f.txt"))
	}
	if _, err := os.Lstat(filepath.Join(h.ws, "l")); !os.IsNotExist(err) {
		t.Errorf("the link made by the undone call is still there")
	}
}

// A sub-agent's calls are checkpointed like the main agent's.
func TestSubAgentCallsAreCheckpointed(t *testing.T) {
	h := newCPHarness(t)
	h.run("delegate",
		fakeapi.ToolCall("t1", "task", `{"description":"make a file","prompt":"create sub.txt","tools":["bash"]}`),
		bashCall("s1", "echo sub > sub.txt"),
		fakeapi.Text("made it"),
		fakeapi.Text("the sub-agent made it"))
	if got := h.changesOf()["s1"]; got != "A sub.txt (+1 −0)" {
		t.Errorf("the sub-agent's call changed %q", got)
	}
	u, err := h.agent.PlanUndo("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.agent.Restore(u, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(h.ws, "sub.txt")); !os.IsNotExist(err) {
		t.Errorf("sub.txt survived the undo")
	}
}

// waitFor waits, up to a generous deadline, for an event that ok accepts.
func (h *cpHarness) waitFor(ok func(Event) bool) Event {
	h.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case ev := <-h.events:
			if ok(ev) {
				return ev
			}
		case <-deadline:
			h.t.Fatal("the event did not come")
		}
	}
}

// A background task's file is given to the call that started it when the task ends, and undone with it.
func TestBackgroundTaskChangesAreGivenToItsCall(t *testing.T) {
	h := newCPHarness(t)
	fifo := filepath.Join(t.TempDir(), "go")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"command": "echo early > early.txt; read _ < " + fifo + "; echo late > late.txt", "run_in_background": true})
	h.run("start it", fakeapi.ToolCall("bg", "bash", string(b)), fakeapi.Text("started"))
	if got := h.changesOf()["bg"]; got != "A early.txt (+1 −0)" && got != "" {
		t.Errorf("the call's changes when it went to the background: %q", got)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := h.waitFor(func(ev Event) bool { f, ok := ev.(FilesChanged); return ok && f.By == ByTask }).(FilesChanged)
	var lines []string
	for _, c := range ev.Changes {
		lines = append(lines, c.String())
	}
	if ev.CallID != "bg" || strings.Join(lines, "; ") != "A early.txt (+1 −0); A late.txt (+1 −0)" {
		t.Errorf("the task's changes: %s %q", ev.CallID, lines)
	}
	l, err := ReadSession(h.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	if hist := History(l); len(hist) != 1 || len(hist[0].Changes) != 2 {
		t.Errorf("history: %+v", hist)
	}
	u, err := h.agent.PlanUndo("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.agent.Restore(u, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"early.txt", "late.txt"} {
		if _, err := os.Lstat(filepath.Join(h.ws, f)); !os.IsNotExist(err) {
			t.Errorf("%s survived the undo", f)
		}
	}
}

// A panic between the snapshots around a call, recovered by the loop, does not leave the call's window
// open: the next request's calls are checkpointed instead of waiting for ever, and so is Warden's quit.
func TestAPanicAroundACallDoesNotHoldTheNextCall(t *testing.T) {
	h := newCPHarness(t)
	if err := h.cp.Off(); err != nil {
		t.Fatal(err)
	}
	sink := h.agent.opts.Sink
	failed := false
	h.agent.opts.Sink = func(ev Event) {
		switch ev := ev.(type) {
		case ToolCallStarted:
			if ev.ID == "c1" {
				// The person edits a file while the model works: the snapshot before c1 finds it.
				if err := os.WriteFile(filepath.Join(h.ws, "edited.txt"), []byte("x\n"), 0o644); err != nil {
					panic(err)
				}
			}
		case FilesChanged:
			if ev.By == ByOutside && !failed {
				failed = true
				panic("the sink failed")
			}
		}
		sink(ev)
	}
	h.server.Reply(bashCall("c1", "echo one > one.txt"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if done := h.agent.Run(ctx, "first"); !done.IsError || !failed {
		t.Fatalf("the first request: %+v", done)
	}
	h.server.Reply(bashCall("c2", "echo two > two.txt"), fakeapi.Text("done"))
	finished := make(chan TurnDone, 1)
	go func() { finished <- h.agent.Run(ctx, "again") }()
	select {
	case done := <-finished:
		if done.IsError || done.Interrupted {
			t.Fatalf("the second request: %+v", done)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the next call waited for the window the panic left open")
	}
	if got := h.changesOf()["c2"]; got != "A two.txt (+1 −0)" {
		t.Errorf("the next call's changes: %q", got)
	}
}
