package ui

import (
	"io"
	"os"
	"path/filepath"
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
)

// appScript is what the fake model does for each prompt: call bash once, then report the result.
const appScript = `{
  "rules": [
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
	mu   sync.Mutex
	stop chan struct{}
	wg   sync.WaitGroup
}

func startApp(t *testing.T) *app {
	t.Helper()
	const w, h = 100, 32
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
	tasks := tools.NewTasks()
	t.Cleanup(tasks.KillAll)
	reg := tools.NewRegistry(tools.NewBash(tasks)...)
	env := tools.NewEnv(dir, t.TempDir())
	opts := Options{
		Model: "fake-model", Workspace: dir, Engine: eng, Tasks: tasks, ContextWindow: 32000,
		NewAgent: func(sink agent.Sink, ap agent.Approver) (*agent.Agent, error) {
			return agent.New(agent.Options{Provider: agent.NewProvider(srv.URL(), "", "fake-model"), Tools: reg,
				Env: env, Engine: eng, Approver: ap, Sink: sink, MaxSteps: 5,
				Retry: agent.RetryPolicy{Attempts: 1}})
		},
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
