package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// deadline bounds every wait in these tests: generous, since CI is a loaded 2-core machine.
const deadline = 20 * time.Second

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx
}

func newEnv(t *testing.T) *tools.Env {
	dir := t.TempDir()
	return tools.NewEnv(dir, filepath.Join(dir, "session"))
}

// inProcess returns a manager whose servers are the test server in this process; each connection gets a
// fresh server, as a restarted process would.
func inProcess(t *testing.T, entries ...config.MCPServerEntry) *Manager {
	t.Helper()
	return inProcessWith(t, newTestServer, entries...)
}

// inProcessWith is inProcess with servers that build makes; crash, given to build, ends the connection.
func inProcessWith(t *testing.T, build func(crash func()) *sdk.Server, entries ...config.MCPServerEntry) *Manager {
	t.Helper()
	m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline})
	m.dialHook = func(e config.MCPServerEntry) (*conn, error) {
		// Two pipes stand for the server's stdin and stdout; closing them is the server dying.
		clientIn, serverOut := io.Pipe()
		serverIn, clientOut := io.Pipe()
		srv := build(func() {
			serverOut.Close()
			serverIn.Close()
		})
		_, err := srv.Connect(context.Background(), &sdk.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
		return &conn{transport: &sdk.IOTransport{Reader: clientIn, Writer: clientOut}}, err
	}
	t.Cleanup(m.Close)
	if len(entries) == 0 {
		entries = []config.MCPServerEntry{{Name: "test", MCPServer: config.MCPServer{Command: "in-process"}}}
	}
	m.Add(entries)
	return m
}

func toolByName(t *testing.T, list []tools.Tool, name string) tools.Tool {
	t.Helper()
	for _, tl := range list {
		if tl.Name() == name {
			return tl
		}
	}
	var names []string
	for _, tl := range list {
		names = append(names, tl.Name())
	}
	t.Fatalf("no tool %s among %v", name, names)
	return nil
}

func call(t *testing.T, ctx context.Context, tl tools.Tool, env *tools.Env, input string) tools.Result {
	t.Helper()
	return tl.Run(ctx, env, tools.Call{ID: "call_1", Input: json.RawMessage(input)})
}

func TestToolsAreListedWithSchemasAndHints(t *testing.T) {
	m := inProcess(t)
	list := m.Tools(ctxT(t))
	if len(list) != 8 {
		t.Fatalf("%d tools", len(list))
	}
	echo := toolByName(t, list, "mcp__test__echo")
	var schema struct {
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(echo.Schema(), &schema); err != nil || schema.Type != "object" || schema.Properties["text"]["type"] != "string" {
		t.Errorf("schema %s (%v)", echo.Schema(), err)
	}
	if !strings.Contains(echo.Description(), "Echoes its text.") || !strings.Contains(echo.Description(), `"test"`) {
		t.Errorf("description %q", echo.Description())
	}
	env := newEnv(t)
	ac, err := echo.Access(env, json.RawMessage(`{"text": "hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ac.Kind != tools.AccessMCP || ac.MCP == nil || ac.MCP.Server != "test" || ac.MCP.Tool != "echo" || !ac.MCP.ReadOnlyHint || ac.MCP.HintTrusted {
		t.Errorf("access %+v %+v", ac, ac.MCP)
	}
	if ac.Summary != `test · echo {"text":"hi"}` {
		t.Errorf("summary %q", ac.Summary)
	}
	// A name the model APIs would refuse is made safe, and the call still reaches the tool by its own name.
	note := toolByName(t, list, "mcp__test__write_note")
	if res := call(t, ctxT(t), note, env, `{"text":"x"}`); res.Output != "written" {
		t.Errorf("write.note: %+v", res)
	}
	if _, err := echo.Access(env, json.RawMessage(`["x"]`)); err == nil {
		t.Error("a list was accepted as arguments")
	}
	if ready, total := m.Counts(); ready != 1 || total != 1 {
		t.Errorf("counts %d/%d", ready, total)
	}
}

func TestTrustReadOnlyMarksTheAccess(t *testing.T) {
	trust := true
	m := inProcess(t, config.MCPServerEntry{Name: "t", MCPServer: config.MCPServer{Command: "x", TrustReadOnly: &trust}})
	ac, err := toolByName(t, m.Tools(ctxT(t)), "mcp__t__echo").Access(newEnv(t), nil)
	if err != nil || !ac.MCP.HintTrusted || !ac.MCP.ReadOnlyHint {
		t.Errorf("access %+v %v", ac.MCP, err)
	}
}

func TestResultsAreFormattedAndBounded(t *testing.T) {
	m := inProcess(t)
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	ctx := ctxT(t)

	res := call(t, ctx, toolByName(t, list, "mcp__test__echo"), env, `{"text":"hello"}`)
	if res.IsError || res.Output != "echo: hello" {
		t.Errorf("echo: %+v", res)
	}
	res = call(t, ctx, toolByName(t, list, "mcp__test__fail"), env, `{}`)
	if !res.IsError || !strings.Contains(res.Output, "the record does not exist") {
		t.Errorf("fail: %+v", res)
	}
	res = call(t, ctx, toolByName(t, list, "mcp__test__picture"), env, `{}`)
	if !strings.Contains(res.Output, "[image, image/png, 9 bytes, saved to ") || !strings.Contains(res.Output, "[resource file:///notes.txt (text/plain)]\nthe notes") ||
		!strings.Contains(res.Output, "[resource link: file:///big.bin (big)]") {
		t.Errorf("picture: %q", res.Output)
	}
	saved := res.Output[strings.Index(res.Output, "saved to ")+len("saved to "):]
	saved = saved[:strings.Index(saved, "]")]
	if data, err := os.ReadFile(saved); err != nil || string(data) != "\x89PNG fake" {
		t.Errorf("saved image %q: %q %v", saved, data, err)
	}

	// A flood: 50,000 lines reach the model as head and tail within the budget, and whole in a file.
	res = call(t, ctx, toolByName(t, list, "mcp__test__flood"), env, `{"lines": 50000}`)
	if !res.Truncated || len(res.Output) > config.DefaultMaxOutputChars || res.OutputPath == "" {
		t.Fatalf("flood: truncated %v, %d bytes, path %q", res.Truncated, len(res.Output), res.OutputPath)
	}
	if !strings.Contains(res.Output, "line 1 of the flood") || !strings.Contains(res.Output, "line 50000 of the flood") || !strings.Contains(res.Output, "omitted") {
		t.Errorf("flood output lacks its head, tail or marker")
	}
	full, err := os.ReadFile(res.OutputPath)
	if err != nil || strings.Count(string(full), "\n") != 50000 {
		t.Errorf("spilled file: %d lines, %v", strings.Count(string(full), "\n"), err)
	}
}

func TestAHangingCallTimesOutAndEscStopsIt(t *testing.T) {
	ms := 300
	m := inProcess(t, config.MCPServerEntry{Name: "test", MCPServer: config.MCPServer{Command: "x", TimeoutMS: &ms}})
	list := m.Tools(ctxT(t))
	hang := toolByName(t, list, "mcp__test__hang")
	env := newEnv(t)
	res := call(t, ctxT(t), hang, env, `{}`)
	if !res.TimedOut || !res.IsError || !strings.Contains(res.Output, "did not answer within 300ms") {
		t.Errorf("timeout: %+v", res)
	}
	// The server is still usable.
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__test__echo"), env, `{"text":"x"}`); res.Output != "echo: x" {
		t.Errorf("after the timeout: %+v", res)
	}
	// Esc: the call's context ends; the result says interrupted, not timed out.
	long := 60_000
	m2 := inProcess(t, config.MCPServerEntry{Name: "test", MCPServer: config.MCPServer{Command: "x", TimeoutMS: &long}})
	hang = toolByName(t, m2.Tools(ctxT(t)), "mcp__test__hang")
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan tools.Result)
	go func() { done <- call(t, ctx, hang, env, `{}`) }()
	cancel()
	select {
	case res := <-done:
		if !res.Interrupted || res.TimedOut {
			t.Errorf("interrupted: %+v", res)
		}
	case <-time.After(deadline):
		t.Fatal("the call did not stop when its context ended")
	}
}

func TestACrashedServerIsReportedAndStartedAgainOnNextUse(t *testing.T) {
	m := inProcess(t)
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	changed := make(chan struct{}, 100)
	m.SetOnChange(func() { changed <- struct{}{} })
	res := call(t, ctxT(t), toolByName(t, list, "mcp__test__crash"), env, `{}`)
	if !res.IsError || !strings.Contains(res.Output, `the MCP server "test" stopped during the call`) {
		t.Errorf("crash: %+v", res)
	}
	st := m.Status()[0]
	if st.State != Exited {
		t.Errorf("state after the crash: %s", st.State)
	}
	// Its tools stay offered; the next call starts it again.
	list = m.Tools(ctxT(t))
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__test__echo"), env, `{"text":"back"}`); res.Output != "echo: back" {
		t.Errorf("after the restart: %+v", res)
	}
	if st := m.Status()[0]; st.State != Ready || st.Error != "" {
		t.Errorf("state after the restart: %s %q", st.State, st.Error)
	}
	select {
	case <-changed:
	default:
		t.Error("no change was reported")
	}
}

func TestPromptsAreOfferedAndFetched(t *testing.T) {
	m := inProcess(t)
	m.Tools(ctxT(t))
	ps := m.Prompts()
	if len(ps) != 1 || ps[0].Command != "mcp__test__review" || len(ps[0].Args) != 2 || !ps[0].Args[0].Required {
		t.Fatalf("prompts %+v", ps)
	}
	for _, tc := range []struct{ args, want string }{
		{"main.go the error handling", "Review main.go, looking at the error handling."},
		{"focus=tests path=a.go", "Review a.go, looking at tests."},
	} {
		got, err := m.Prompt(ctxT(t), "mcp__test__review", tc.args)
		if err != nil || got != tc.want {
			t.Errorf("%q: %q %v", tc.args, got, err)
		}
	}
	if _, err := m.Prompt(ctxT(t), "mcp__test__review", ""); err == nil || !strings.Contains(err.Error(), "needs path") {
		t.Errorf("missing argument: %v", err)
	}
	if _, err := m.Prompt(ctxT(t), "mcp__test__nope", ""); err == nil {
		t.Error("an unknown prompt was fetched")
	}
}

// stdioEntry is the test server started as a child process.
func stdioEntry(name, mode string) config.MCPServerEntry {
	return config.MCPServerEntry{Name: name, File: "test", MCPServer: config.MCPServer{
		Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: map[string]string{serverEnv: mode, "GREETING": "${WARDEN_TEST_GREETING:-hi}"}}}
}

// newStdio starts the servers as Warden's own children, or, given tasks, as a session does.
func newStdio(t *testing.T, tasks *bash.Tasks, entries ...config.MCPServerEntry) *Manager {
	opts := Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline,
		Getenv: func(k string) string { return map[string]string{"WARDEN_TEST_GREETING": "hello"}[k] }}
	if tasks != nil {
		opts.ChildEnv = func(dir string) []string { return tasks.ChildEnv(tools.BashSettings{}, dir) }
		opts.Start = startWith(tasks)
	}
	m := New(opts)
	t.Cleanup(m.Close)
	m.Add(entries)
	return m
}

func TestAStdioServerGetsAScrubbedEnvironmentAndItsOwn(t *testing.T) {
	t.Setenv("MY_SECRET_TOKEN", "s3cret")
	t.Setenv("PLAIN_VALUE", "plain")
	t.Setenv("GOFLAGS", "-mod=mod")
	tasks := bash.NewTasks()
	m := newStdio(t, tasks, stdioEntry("child", "run"))
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	get := func(name string) string {
		return call(t, ctxT(t), toolByName(t, list, "mcp__child__env"), env, `{"text":"`+name+`"}`).Output
	}
	if got := get("MY_SECRET_TOKEN"); got != "(unset)" {
		t.Errorf("a secret reached the server: %q", got)
	}
	if got := get("PLAIN_VALUE"); got != "(unset)" {
		t.Errorf("a variable the allow-list leaves out reached the server: %q", got)
	}
	if got := get("GOFLAGS"); got != "-mod=mod" {
		t.Errorf("a variable of the allow-list: %q", got)
	}
	if got := get("GREETING"); got != "hello" {
		t.Errorf("configured env with ${VAR}: %q", got)
	}
	if got := get("WARDEN_INSTANCE"); !strings.HasPrefix(got, strings.Split(got, "-")[0]) || got == "(unset)" {
		t.Errorf("the server is not marked as the session's: %q", got)
	}
}

// Without a session's ChildEnv (warden mcp list), a server still gets the allow-list, never all of
// Warden's environment.
func TestAStdioServerWithoutASessionGetsTheAllowListToo(t *testing.T) {
	t.Setenv("BW_SESSION", "planted-session")
	t.Setenv("PLAIN_VALUE", "plain")
	m := newStdio(t, nil, stdioEntry("child", "run"))
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	for _, name := range []string{"BW_SESSION", "PLAIN_VALUE"} {
		if got := call(t, ctxT(t), toolByName(t, list, "mcp__child__env"), env, `{"text":"`+name+`"}`).Output; got != "(unset)" {
			t.Errorf("%s reached the server: %q", name, got)
		}
	}
}

func TestAStdioServerThatFailsIsReportedWithItsStderr(t *testing.T) {
	m := newStdio(t, nil, stdioEntry("db", "fail"))
	if list := m.Tools(ctxT(t)); len(list) != 0 {
		t.Errorf("a failed server offered %d tools", len(list))
	}
	st := m.Status()[0]
	if st.State != Failed || !strings.Contains(st.Error, "could not start") || !strings.Contains(st.Error, "fatal: cannot open the database at /nonexistent") {
		t.Errorf("status %s: %q", st.State, st.Error)
	}
	log, err := os.ReadFile(st.Log)
	if err != nil || !strings.Contains(string(log), "fatal: cannot open the database") {
		t.Errorf("log %s: %q %v", st.Log, log, err)
	}
	text := Format(m.Status())
	if !strings.Contains(text, "db  failed  (stdio)") || !strings.Contains(text, "fatal: cannot open") {
		t.Errorf("format:\n%s", text)
	}
}

func TestAStdioServerCrashIsReportedAndRecovered(t *testing.T) {
	m := newStdio(t, nil, stdioEntry("child", "run"))
	list := m.Tools(ctxT(t))
	env := newEnv(t)
	pid := serverPID(t, m, "child")
	res := call(t, ctxT(t), toolByName(t, list, "mcp__child__crash"), env, `{}`)
	if !res.IsError || !strings.Contains(res.Output, "panic: the crash tool was called") || !strings.Contains(res.Output, "exit status 3") {
		t.Errorf("crash result: %q", res.Output)
	}
	if st := m.Status()[0]; st.State != Exited || !strings.Contains(st.Error, "panic: the crash tool was called") {
		t.Errorf("status %s %q", st.State, st.Error)
	}
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__child__echo"), env, `{"text":"again"}`); res.Output != "echo: again" {
		t.Errorf("after the crash: %+v", res)
	}
	if pid2 := serverPID(t, m, "child"); pid2 == pid {
		t.Error("the server was not started again")
	}
}

func TestStdioServersAreStoppedWithTheManager(t *testing.T) {
	m := newStdio(t, nil, stdioEntry("child", "run"))
	m.Tools(ctxT(t))
	pid := serverPID(t, m, "child")
	m.Close()
	if err := syscall.Kill(pid, 0); err == nil {
		// Close waits for the process; a zombie would already be reaped by the SDK's Wait.
		t.Errorf("server %d still running after Close", pid)
	}
	if st := m.Status()[0]; st.State != Stopped {
		t.Errorf("state %s", st.State)
	}
}

func serverPID(t *testing.T, m *Manager, name string) int {
	t.Helper()
	for _, s := range m.list() {
		s.mu.Lock()
		c := s.conn
		s.mu.Unlock()
		if s.entry.Name == name && c != nil && c.proc != nil {
			return c.proc.proc.Pid()
		}
	}
	t.Fatalf("no running process for %s", name)
	return 0
}

func TestServersStartConcurrentlyAndInTheBackground(t *testing.T) {
	start := time.Now()
	m := newStdio(t, nil, stdioEntry("a", "run"), stdioEntry("b", "run"), stdioEntry("c", "fail"))
	if ready, total := m.Counts(); total != 3 || ready != 0 && time.Since(start) < time.Millisecond {
		t.Errorf("counts right after Add: %d/%d", ready, total)
	}
	list := m.Tools(ctxT(t))
	var names []string
	for _, tl := range list {
		names = append(names, tl.Name())
	}
	if !slices.Contains(names, "mcp__a__echo") || !slices.Contains(names, "mcp__b__echo") {
		t.Errorf("tools %v", names)
	}
	if ready, total := m.Counts(); ready != 2 || total != 3 {
		t.Errorf("counts %d/%d", ready, total)
	}
}

func syscallKillGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// A Warden killed with SIGKILL cannot stop its servers; the kernel does, since each server is started to
// die with it.
func TestAServerDoesNotOutliveAKilledWarden(t *testing.T) {
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), serverEnv+"=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("pid %q: %v", line, err)
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for end := time.Now().Add(deadline); alive(pid); {
		if time.Now().After(end) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d still running %s after its Warden was killed", pid, deadline)
		}
		runtime.Gosched()
	}
}

// alive reports whether pid is a running process (a zombie waiting to be reaped is not).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(data), ") ")
	return !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}

// A server that floods its stderr costs a bounded log file and a fixed buffer, and still works.
func TestAStderrFloodIsBounded(t *testing.T) {
	m := newStdio(t, nil, stdioEntry("noisy", "noisy"))
	list := m.Tools(ctxT(t))
	if res := call(t, ctxT(t), toolByName(t, list, "mcp__noisy__echo"), newEnv(t), `{"text":"still here"}`); res.Output != "echo: still here" {
		t.Fatalf("echo: %+v", res)
	}
	st := m.Status()[0]
	info, err := os.Stat(st.Log)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > logCap+1024 || info.Size() < logCap {
		t.Errorf("log of %d bytes, want about %d", info.Size(), logCap)
	}
	s := m.list()[0]
	if tail := s.stderr.Tail(); len(tail) > tailSize || !strings.HasSuffix(tail, "the last noisy line") {
		t.Errorf("tail of %d bytes ends %q", len(tail), tail[max(len(tail)-40, 0):])
	}
}

// startWith starts servers as a session does, through the bash engine's task manager.
func startWith(tasks *bash.Tasks) StartFunc {
	return func(name string, args, env []string, dir string, files []*os.File) (Proc, error) {
		p, err := tasks.StartProgram(name, args, env, dir, files)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}
