package ui

import (
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// appScript is what the fake model does for each prompt: call bash once, then report the result.
// A prompt with "delegate" starts a sub-agent whose prompt says "investigate": the fake server answers a
// child's requests by the child's own prompt, so the child follows the second rule.
const appScript = `{
  "rules": [
    {"match": "delegate", "steps": [
      {"text": "I'll hand this to a sub-agent.", "tool_calls": [{"name": "task", "arguments": {"description": "look around", "prompt": "investigate the workspace", "tools": ["bash"]}}]},
      {"text": "Parent done."}]},
    {"match": "investigate", "steps": [
      {"text": "Child: listing first.", "tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]},
      {"text": "Child: now the write.", "tool_calls": [{"name": "bash", "arguments": {"command": "touch y"}}]},
      {"text": "Child report: the workspace holds hello.txt."}]},
    {"match": "list files", "steps": [
      {"text": "Looking.", "tool_calls": [{"name": "bash", "arguments": {"command": "ls", "description": "List the files"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "make x", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "touch x", "description": "Create x"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "make y", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "touch y"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "make z", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "touch z"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "count", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "for i in 1 2 3 4 5 6 7 8; do echo tick$i; sleep 0.2; done"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "wait", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 30"}}]},
      {"text": "Finished: {{result}}"}]},
    {"match": "fail", "steps": [
      {"tool_calls": [{"name": "bash", "arguments": {"command": "exit 3"}}]},
      {"text": "Finished: {{result}}"}]}
  ]
}`

// app is the real program (model, agent, bash engine, fake provider) in a virtual terminal.
type app struct {
	t   *testing.T
	tm  *teatest.TestModel
	emu *vt.SafeEmulator
	srv *fakeapi.Server
	dir string

	// mu orders writes to the emulator and reads of its screen: SafeEmulator does not lock String.
	mu sync.Mutex
	// raw is everything the program wrote, for sequences the emulator does not show (OSC 52).
	raw  strings.Builder
	stop chan struct{}
	wg   sync.WaitGroup
}

// setup is the real agent's world: a workspace with hello.txt, the fake server running appScript, the bash
// engine and a permission engine.
type setup struct {
	dir   string
	srv   *fakeapi.Server
	eng   *permissions.Engine
	tasks *bash.Tasks
	reg   *tools.Registry
	env   *tools.Env
}

func newSetup(t *testing.T) *setup {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := fakeapi.New()
	t.Cleanup(srv.Close)
	sc, err := fakeapi.ParseScript([]byte(appScript))
	if err != nil {
		t.Fatal(err)
	}
	sc.Install(srv)
	// sleep and echo are allowed by rule so that the streaming and interrupt tests never wait on a modal.
	eng, err := permissions.NewEngine(permissions.Policy{Workspace: dir, Home: t.TempDir(),
		Allow: []string{"Bash(sleep:*)", "Bash(echo:*)", "Bash(exit:*)"}})
	if err != nil {
		t.Fatal(err)
	}
	tasks := bash.NewTasks()
	t.Cleanup(tasks.KillAll)
	return &setup{dir: dir, srv: srv, eng: eng, tasks: tasks, reg: tools.NewRegistry(bash.NewTools(tasks)...),
		env: tools.NewEnv(dir, t.TempDir())}
}

// agentOptions are the agent's options with sub-agents on and quick retries.
func (s *setup) agentOptions(sink agent.Sink, ap agent.Approver) agent.Options {
	return agent.Options{Provider: agent.NewProvider(s.srv.URL(), "", "fake-model"), Tools: s.reg,
		Env: s.env, Engine: s.eng, Approver: ap, Sink: sink, MaxSteps: 5, SubAgents: true,
		Retry: agent.RetryPolicy{Attempts: 3, Base: 20 * time.Millisecond, Max: 100 * time.Millisecond, MaxRetryAfter: 2 * time.Second}}
}

func startApp(t *testing.T) *app { return startAppWith(t, newSetup(t), nil, nil) }

// startAppWith runs the program on s; uiOpts and agentOpts, when not nil, adjust the options.
func startAppWith(t *testing.T, s *setup, uiOpts func(*Options), agentOpts func(*agent.Options)) *app {
	t.Helper()
	const w, h = 100, 32
	dir, srv := s.dir, s.srv
	opts := Options{Model: "fake-model", Workspace: dir, Engine: s.eng, Tasks: s.tasks, ContextWindow: 32000}
	opts.NewAgent = func(sink agent.Sink, ap agent.Approver) (*agent.Agent, error) {
		ao := s.agentOptions(sink, ap)
		if agentOpts != nil {
			agentOpts(&ao)
		}
		return agent.New(ao)
	}
	if uiOpts != nil {
		uiOpts(&opts)
	}
	m := newModel(opts, time.Now)
	if err := m.connect(); err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	m.send.set(tm.GetProgram().Send)
	a := &app{t: t, tm: tm, emu: vt.NewSafeEmulator(w, h), srv: srv, dir: dir, stop: make(chan struct{})}
	go func() { _, _ = io.Copy(io.Discard, a.emu) }()
	a.wg.Add(1)
	go a.pump()
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		m.shutdown(5 * time.Second)
		close(a.stop)
		a.wg.Wait()
	})
	return a
}

// pump feeds the program's output to the terminal emulator.
func (a *app) pump() {
	defer a.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, _ := a.tm.Output().Read(buf)
		if n > 0 {
			a.mu.Lock()
			_, _ = a.emu.Write([]byte(strings.ReplaceAll(string(buf[:n]), "\n", "\r\n")))
			a.raw.Write(buf[:n])
			a.mu.Unlock()
			continue
		}
		select {
		case <-a.stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (a *app) screen() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.emu.String()
}

// waitFor waits until the screen contains every one of want.
func (a *app) waitFor(want ...string) string {
	a.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := a.screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// idle waits until no request is in progress: an answer is on the screen a moment before its request
// ends, and a command that needs the agent free (/clear, /resume) typed in that moment is refused.
func (a *app) idle() {
	a.t.Helper()
	a.waitUntil("no request in progress", func(s string) bool { return !strings.Contains(s, "esc to interrupt") })
}

func (a *app) prompt(text string) {
	a.tm.Type(text)
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
}

func (a *app) key(k tea.KeyPressMsg) { a.tm.Send(k) }

func (a *app) typeKey(r rune) { a.key(tea.KeyPressMsg{Code: r, Text: string(r)}) }

func (a *app) exists(name string) bool {
	_, err := os.Stat(filepath.Join(a.dir, name))
	return err == nil
}

// lastToolResult is what the model was told about the latest call.
func (a *app) lastToolResult() string {
	reqs := a.srv.Requests()
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

func TestAppReadOnlyCommandRunsWithoutAsking(t *testing.T) {
	a := startApp(t)
	a.prompt("list files")
	s := a.waitFor("Finished:", "✓ exit 0")
	if strings.Contains(s, "Allow bash?") {
		t.Errorf("a read-only command asked:\n%s", s)
	}
	if !strings.Contains(s, "hello.txt") {
		t.Errorf("the panel does not show the output:\n%s", s)
	}
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	a.waitFor("Tool history · 1 call", "allow · readonly")
}

func TestAppTouchAsksAndObeys(t *testing.T) {
	a := startApp(t)
	a.prompt("make x")
	a.waitFor("Allow bash?", "touch x", "y allow once")
	a.typeKey('n')
	a.waitFor("Finished:", "denied")
	if a.exists("x") {
		t.Fatal("x exists after n")
	}
	if r := a.lastToolResult(); !strings.Contains(r, "denied") {
		t.Errorf("the model was not told of the denial: %q", r)
	}

	a.prompt("make x")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('y')
	a.waitFor("✓ exit 0")
	if !a.exists("x") {
		t.Fatal("x does not exist after y")
	}

	a.prompt("fail now")
	a.waitFor("✗ exit 3")
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	s := a.waitFor("Tool history · 3 calls", "deny · user", "allow · user", "$ exit 3")
	for _, exit := range []string{" 0 ", " 3 "} {
		if !strings.Contains(s, exit) {
			t.Errorf("the history lacks exit code %q:\n%s", exit, s)
		}
	}
}

func TestAppAlwaysAllowSavesTheShownRule(t *testing.T) {
	a := startApp(t)
	a.prompt("make y")
	a.waitFor("Allow bash?", "y allow once")
	a.typeKey('a')
	a.waitFor("Bash(touch:*)", "for this session")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("✓ exit 0")
	if !a.exists("y") {
		t.Fatal("y was not created")
	}
	a.prompt("make z")
	deadline := time.Now().Add(15 * time.Second)
	for !a.exists("z") {
		if strings.Contains(a.screen(), "Allow bash?") {
			t.Fatalf("the saved rule did not cover touch z:\n%s", a.screen())
		}
		if time.Now().After(deadline) {
			t.Fatalf("z never appeared:\n%s", a.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	a.waitFor("$ touch z", "allow · rule")
}

func TestAppShowsOutputWhileItRuns(t *testing.T) {
	a := startApp(t)
	a.prompt("count")
	s := a.waitFor("tick2", "running")
	if strings.Contains(s, "tick8") {
		t.Fatalf("all output arrived at once:\n%s", s)
	}
	a.waitFor("tick8", "✓ exit 0")
}

func TestAppEscInterrupts(t *testing.T) {
	a := startApp(t)
	a.prompt("wait")
	a.waitFor("$ sleep 30", "running")
	start := time.Now()
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.waitFor("⏹ interrupted")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("interrupt took %s", d)
	}
}

func TestAppSubAgentRunsNestedAndAsksLabelled(t *testing.T) {
	a := startApp(t)
	a.prompt("delegate the look around")
	s := a.waitFor("Allow bash? — sub-agent: look around", "touch y", "y allow once")
	for _, want := range []string{"task · look around", "↳ bash $ ls", "✓ exit 0", "↳ bash $ touch y", "? waiting for approval"} {
		if !strings.Contains(s, want) {
			t.Errorf("the task panel lacks %q while the child asks:\n%s", want, s)
		}
	}
	a.typeKey('y')
	s = a.waitFor("Parent done.", "▸ 2 tool calls", "Child report: the workspace holds hello.txt.")
	if !a.exists("y") {
		t.Error("the child's touch y did not run after y")
	}
	for _, leak := range []string{"Child: listing first.", "Child: now the write."} {
		if strings.Contains(s, leak) {
			t.Errorf("the child's text %q streamed into the main conversation:\n%s", leak, s)
		}
	}
	if strings.Contains(s, "$ touch y") {
		t.Errorf("the finished task did not fold its calls:\n%s", s)
	}
	// The parent's conversation got the child's report, not the child's tool output.
	reported := false
	for _, req := range a.srv.Requests() {
		// The test agent has no system prompt: the first message is the request.
		if !strings.Contains(req.Messages[0].Content, "delegate") {
			continue // a request of the child
		}
		for _, msg := range req.Messages {
			if msg.Role == "tool" {
				reported = reported || strings.Contains(msg.Content, "Child report")
				if strings.HasPrefix(msg.Content, "hello.txt") {
					t.Errorf("the child's ls output reached the parent's conversation")
				}
			}
		}
	}
	if !reported {
		t.Error("the parent was never given the child's report")
	}

	a.key(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	a.waitFor("↳ bash $ ls", "↳ bash $ touch y", "hello.txt")

	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	s = a.waitFor("Tool history · 3 calls")
	var rows []string
	for _, l := range strings.Split(s, "\n")[2:5] {
		r := []rune(l)
		rows = append(rows, strings.TrimSpace(string(r[9:23]))+" "+strings.TrimSpace(string(r[24:60])))
	}
	want := []string{"task look around", "└ bash $ ls", "└ bash $ touch y"}
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Errorf("history rows %q, want %q (the child's calls indented under the task):\n%s", rows, want, s)
	}
	if !strings.Contains(s, "$ ls") || !strings.Contains(s, "$ touch y") || !strings.Contains(s, "allow · user") {
		t.Errorf("the history lacks the child's calls or decisions:\n%s", s)
	}
}

func TestAppRetryShowsTheAnswerOnce(t *testing.T) {
	s := newSetup(t)
	const answer = "The answer is forty-two, as computed by the deep thought machine."
	s.srv.Reply(
		fakeapi.Text(answer).Chunk(5).Delay(5*time.Millisecond).CutAfter(6),
		fakeapi.RateLimited(time.Second),
		fakeapi.Text(answer).Chunk(5),
	)
	a := startAppWith(t, s, nil, nil)
	a.prompt("what is the answer")
	a.waitFor("retrying in 1s (attempt 3 of 3)")
	scr := a.waitFor(answer)
	if n := strings.Count(scr, "The answer is"); n != 1 {
		t.Errorf("the answer shows %d times; the cut attempt's partial text must be dropped:\n%s", n, scr)
	}
	// The notice goes once the answer streams again.
	deadline := time.Now().Add(5 * time.Second)
	for strings.Contains(a.screen(), "retrying") {
		if time.Now().After(deadline) {
			t.Fatalf("the retry notice stayed after the answer arrived:\n%s", a.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAppResumedSessionShowsEarlierTurns(t *testing.T) {
	s := newSetup(t)
	sessions := t.TempDir()
	st, err := agent.CreateStore(sessions, "s1", s.dir, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	// The earlier run: a plain request, then one whose sub-agent's write is refused by the headless policy.
	ao := s.agentOptions(func(agent.Event) {}, agent.HeadlessApprover{})
	ao.Store = st
	earlier, err := agent.New(ao)
	if err != nil {
		t.Fatal(err)
	}
	earlier.Run(t.Context(), "list files")
	earlier.Run(t.Context(), "delegate the look around")
	st.Close()

	l, msgs, st2, err := agent.ResumeSession(agent.SessionPath(sessions, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st2.Close() })
	l.Warnings = append(l.Warnings, "s1.jsonl: line 9 is damaged and was skipped")
	a := startAppWith(t, s, func(o *Options) { o.Resumed = l }, func(o *agent.Options) { o.History, o.Store = msgs, st2 })
	scr := a.waitFor("Finished: hello.txt", "delegate the look around", "task · look around",
		"▸ 2 tool calls · 1 denied", "Child report: the workspace holds hello.txt.", "Parent done.", "resumed session s1", "line 9 is damaged")
	if n := strings.Count(scr, "line 9 is damaged"); n != 1 {
		t.Errorf("the warning shows %d times:\n%s", n, scr)
	}
	if strings.Contains(scr, "Tools the sub-agent ran") {
		t.Errorf("the resumed task panel shows the record meant for the model, not the child's report:\n%s", scr)
	}
	a.key(tea.KeyPressMsg{Code: tea.KeyPgUp})
	a.waitFor("❯ list files", "bash · List the files", "$ ls")
	a.key(tea.KeyPressMsg{Code: tea.KeyPgDown})
	a.key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	a.waitFor("Tool history · 4 calls", "└ bash", "deny · policy")
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	// The conversation goes on from there.
	a.prompt("make z")
	a.waitFor("Allow bash?", "touch z")
}

func TestAppCtrlBSendsTheRealCommandToTheBackground(t *testing.T) {
	a := startApp(t)
	a.prompt("wait")
	a.waitFor("$ sleep 30", "running")
	start := time.Now()
	a.key(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	a.waitFor("Finished:", "background")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call took %s to return after ctrl+b", d)
	}
	if r := a.lastToolResult(); !strings.Contains(r, "b1") {
		t.Errorf("the model was not given the task id: %q", r)
	}
	// The command goes on: it is a running background task in the status line.
	a.waitFor("1 background task")
}

func TestAppCtrlYCopiesTheFocusedOutput(t *testing.T) {
	a := startApp(t)
	a.prompt("list files")
	a.waitFor("Finished:", "✓ exit 0")
	a.key(tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl})
	a.waitFor("Copied the output of bash")
	// The sequence may follow the frame that says so: the frame is drawn as soon as the key is handled.
	var after string
	deadline := time.Now().Add(5 * time.Second)
	for {
		a.mu.Lock()
		raw := a.raw.String()
		a.mu.Unlock()
		var ok bool
		if _, after, ok = strings.Cut(raw, "\x1b]52;c;"); ok && strings.ContainsAny(after, "\x07\x1b") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no OSC 52 sequence was written")
		}
		time.Sleep(20 * time.Millisecond)
	}
	enc, _, _ := strings.Cut(after, "\x07")
	enc, _, _ = strings.Cut(enc, "\x1b\\")
	got, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || !strings.Contains(string(got), "hello.txt") {
		t.Errorf("the clipboard got %q (%v), want the listing", got, err)
	}
}

func TestAppHugePasteIsSentWhole(t *testing.T) {
	a := startApp(t)
	var sb strings.Builder
	for i := 1; i <= 12000; i++ {
		sb.WriteString("pasted row ")
		sb.WriteString(strconv.Itoa(i))
		sb.WriteByte('\n')
	}
	a.tm.Send(tea.PasteMsg{Content: sb.String()})
	a.waitFor("[pasted 12000 lines]")
	a.prompt(" list files")
	a.waitFor("Finished:")
	msgs := a.srv.Requests()[0].Messages
	got := msgs[len(msgs)-1].Content
	if !strings.HasPrefix(got, "pasted row 1\n") || !strings.HasSuffix(got, "pasted row 12000\n list files") {
		t.Errorf("the request did not carry the whole paste: %d bytes, ends %q", len(got), got[max(len(got)-60, 0):])
	}
}
