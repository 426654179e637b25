package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/tools"
)

// harness runs the real bash tools against a temporary workspace.
type harness struct {
	t                  testing.TB
	tasks              *Tasks
	env                *tools.Env
	bash, output, kill tools.Tool
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	tasks := NewTasks()
	tasks.Grace = 500 * time.Millisecond
	tasks.Helper = testHelper(t)
	t.Cleanup(tasks.KillAll)
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bashTools := NewTools(tasks)
	return &harness{t: t, tasks: tasks, env: tools.NewEnv(ws, t.TempDir()), bash: bashTools[0], output: bashTools[1],
		kill: bashTools[2]}
}

// testPrograms finds the programs the tests' probes run on the machine's PATH; no test workspace is on it.
var testPrograms = hostexec.NewFinder(os.Getenv("PATH"), nil)

// testHelper is this test binary, which serves as the supervisor the way Warden's executable does (TestMain).
func testHelper(t testing.TB) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

func (h *harness) call(ctx context.Context, tool tools.Tool, id string, params map[string]any, live func(string)) tools.Result {
	h.t.Helper()
	in, err := json.Marshal(params)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := tool.Access(h.env, in); err != nil {
		return tools.Errorf("access: %v", err)
	}
	return tool.Run(ctx, h.env, tools.Call{ID: id, Input: in, Output: live})
}

func (h *harness) run(command string) tools.Result {
	h.t.Helper()
	return h.call(context.Background(), h.bash, "t", map[string]any{"command": command}, nil)
}

// liveWaiter collects live output and lets a test wait for a piece of it.
type liveWaiter struct {
	mu      sync.Mutex
	text    strings.Builder
	changed chan struct{}
}

func newLiveWaiter() *liveWaiter { return &liveWaiter{changed: make(chan struct{}, 1)} }

func (l *liveWaiter) add(s string) {
	l.mu.Lock()
	l.text.WriteString(s)
	l.mu.Unlock()
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

func (l *liveWaiter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// waitFor waits until the live output contains s.
func (l *liveWaiter) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(l.String(), s) {
		select {
		case <-l.changed:
		case <-deadline:
			t.Fatalf("live output never showed %q; got %q", s, l.String())
		}
	}
}

// eventually waits until cond holds, checking often, and fails the test after the deadline.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// procStat reads a process's state and process group from /proc; ok is false once it is gone.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	pgrp, _ = strconv.Atoi(f[2])
	return f[0][0], pgrp, true
}

// alive reports whether pid is a process that is not a zombie.
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != 'Z' && state != 'X'
}

// livePids lists the live processes that match.
func livePids(match func(pid int) bool) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !alive(pid) {
			continue
		}
		if match(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func groupMembers(pgid int) []int {
	return livePids(func(pid int) bool {
		_, pg, ok := procStat(pid)
		return ok && pg == pgid
	})
}

func TestOutputAndExitStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.run("echo out; echo err >&2; echo out2; exit 3")
	if r.Output != "out\nerr\nout2\n[exit status 3]" {
		t.Errorf("output %q", r.Output)
	}
	if r.ExitCode == nil || *r.ExitCode != 3 || !r.IsError {
		t.Errorf("exit code %v, is error %v", r.ExitCode, r.IsError)
	}
	r = h.run("true")
	if r.Output != "(no output)" || r.IsError || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("true: %+v", r)
	}
	r = h.run("kill -KILL $$")
	if r.Signal != "SIGKILL" || r.ExitCode != nil || !strings.Contains(r.Output, "killed by SIGKILL") {
		t.Errorf("killed: %+v", r)
	}
}

func TestBackgroundChildDoesNotHoldTheCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := time.Now()
	r := h.run("sleep 30 & echo started $!")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
	var pid int
	if _, err := fmt.Sscanf(r.Output, "started %d", &pid); err != nil {
		t.Fatalf("output %q", r.Output)
	}
	eventually(t, 10*time.Second, "the leftover sleep is still running", func() bool { return !alive(pid) })
}

// A process that leaves the group keeps the output pipe open for good; the call must not wait for it.
func TestEscapedChildHoldingThePipeDoesNotHoldTheCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := time.Now()
	r := h.run("setsid -f sleep 30; echo started")
	if d := time.Since(start); d > 10*time.Second || r.Output != "started" {
		t.Fatalf("after %s: %q", d, r.Output)
	}
}

func TestZeroTasksIsUsable(t *testing.T) {
	t.Parallel()
	var tasks Tasks
	defer tasks.KillAll()
	env := tools.NewEnv(t.TempDir(), t.TempDir())
	r := NewTools(&tasks)[0].Run(context.Background(), env, tools.Call{ID: "t", Input: json.RawMessage(`{"command":"echo ok"}`)})
	if r.Output != "ok" || tasks.Running() != 0 {
		t.Errorf("%+v", r)
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := time.Now()
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "echo $$; sleep 100 & sleep 100", "timeout": 1000}, nil)
	d := time.Since(start)
	if d < 900*time.Millisecond || d > 8*time.Second {
		t.Errorf("returned after %s, want about 1s", d)
	}
	if !r.TimedOut || !r.IsError || !strings.Contains(r.Output, "timed out after 1s") {
		t.Errorf("result %+v", r)
	}
	pgid, err := strconv.Atoi(strings.SplitN(r.Output, "\n", 2)[0])
	if err != nil {
		t.Fatalf("no pid in %q", r.Output)
	}
	eventually(t, 10*time.Second, "the group is still alive", func() bool { return len(groupMembers(pgid)) == 0 })
}

func TestTimeoutKillsWhatIgnoresTerm(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.call(context.Background(), h.bash, "t", map[string]any{
		"command": "trap '' TERM; echo $$; echo partial; sleep 100", "timeout": 300}, nil)
	if !r.TimedOut || !strings.Contains(r.Output, "partial") {
		t.Fatalf("result %+v", r)
	}
	pgid, _ := strconv.Atoi(strings.SplitN(r.Output, "\n", 2)[0])
	eventually(t, 10*time.Second, "the group is still alive", func() bool { return len(groupMembers(pgid)) == 0 })
}

func TestCatWithoutInputReturns(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	start := time.Now()
	r := h.run("cat; read x; echo read=$?")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
	if r.Output != "read=1" {
		t.Errorf("output %q", r.Output)
	}
}

func TestGitCommitWithoutMessageFailsFast(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		needOrSkip(t, "git not installed")
	}
	h := newHarness(t)
	if r := h.run("git init -q && git config user.email t@example.com && git config user.name T && " +
		"echo x > f && git add f"); r.IsError {
		t.Fatalf("setup: %s", r.Output)
	}
	start := time.Now()
	r := h.run("git commit")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	if !r.IsError || !strings.Contains(r.Output, "no interactive editor") {
		t.Errorf("result %+v", r)
	}
	if r := h.run("git commit -q -m msg && git log --oneline | wc -l"); strings.TrimSpace(r.Output) != "1" {
		t.Errorf("commit with -m: %q", r.Output)
	}
}

func TestInterruptKillsNestedShells(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	live := newLiveWaiter()
	done := make(chan tools.Result)
	go func() {
		done <- h.call(ctx, h.bash, "t", map[string]any{"command": `echo L1 $$; bash -c 'echo L2 $$; bash -c "echo L3 \$\$; sleep 100"'`}, live.add)
	}()
	live.waitFor(t, "L3")
	cancel()
	var r tools.Result
	select {
	case r = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("cancellation did not end the call")
	}
	if !r.Interrupted || !strings.Contains(r.Output, "interrupted") {
		t.Errorf("result %+v", r)
	}
	pids := regexp.MustCompile(`L\d (\d+)`).FindAllStringSubmatch(r.Output, -1)
	if len(pids) != 3 {
		t.Fatalf("want three shells in %q", r.Output)
	}
	for _, m := range pids {
		pid, _ := strconv.Atoi(m[1])
		eventually(t, 10*time.Second, "shell "+m[1]+" is still alive", func() bool { return !alive(pid) })
	}
}

func TestHugeOutputKeepsHeadAndTailWithBoundedMemory(t *testing.T) { // not parallel: it measures the whole process's heap
	h := newHarness(t)
	const n = 5_000_000
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := sampleHeapPeak()
	var liveBytes int
	var liveMu sync.Mutex
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": fmt.Sprintf("seq 1 %d", n)}, func(s string) {
		liveMu.Lock()
		liveBytes += len(s)
		liveMu.Unlock()
	})
	peakHeap := peak()
	runtime.ReadMemStats(&after)

	if !r.Truncated || r.OutputPath == "" {
		t.Fatalf("not truncated: %q", r.Output[:min(200, len(r.Output))])
	}
	if r.Lines != n {
		t.Errorf("the result counts %d lines, the command printed %d", r.Lines, n)
	}
	if len(r.Output) > defaultMaxOutput {
		t.Errorf("model output is %d bytes, limit %d", len(r.Output), defaultMaxOutput)
	}
	head, rest, _ := strings.Cut(r.Output, "[… ")
	marker, tail, _ := strings.Cut(rest, " …]\n")
	headNums, tailNums := strings.Fields(head), strings.Fields(tail)
	last, _ := strconv.Atoi(headNums[len(headNums)-1])
	first, _ := strconv.Atoi(tailNums[0])
	if headNums[0] != "1" || tailNums[len(tailNums)-1] != strconv.Itoa(n) {
		t.Errorf("head starts %s, tail ends %s", headNums[0], tailNums[len(tailNums)-1])
	}
	omitted := first - last - 1
	var omittedBytes int
	for i := last + 1; i < first; i++ {
		omittedBytes += len(strconv.Itoa(i)) + 1
	}
	want := fmt.Sprintf("%s lines (%s) omitted: lines %s–%s of the full output in %s", tools.Commas(int64(omitted)),
		tools.HumanBytes(int64(omittedBytes)), tools.Commas(int64(last+1)), tools.Commas(int64(first-1)), r.OutputPath)
	if marker != want {
		t.Errorf("marker\n%q, want\n%q", marker, want)
	}
	var total int64
	for i := 1; i <= n; i++ {
		total += int64(len(strconv.Itoa(i)) + 1)
	}
	if fi, err := os.Stat(r.OutputPath); err != nil || fi.Size() != total {
		t.Errorf("full output file: %v, size %d, want %d", err, fi.Size(), total)
	}

	t.Logf("output %d MB; heap peak grew %.1f MB; allocated %.1f MB; live display got %d KB",
		total>>20, float64(peakHeap-int64(before.HeapAlloc))/1e6, float64(after.TotalAlloc-before.TotalAlloc)/1e6, liveBytes>>10)
	if grew := peakHeap - int64(before.HeapAlloc); grew > 16<<20 {
		t.Errorf("heap grew by %d MB for %d MB of output", grew>>20, total>>20)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(total/4) {
		t.Errorf("allocated %d MB for %d MB of output", alloc>>20, total>>20)
	}
	if liveBytes > 4<<20 {
		t.Errorf("the display was sent %d MB", liveBytes>>20)
	}
}

// sampleHeapPeak samples the live heap until the returned function is called, which returns the peak.
func sampleHeapPeak() func() int64 {
	stop := make(chan struct{})
	result := make(chan int64)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak int64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, int64(s[0].Value.Uint64()))
			select {
			case <-stop:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 { close(stop); return <-result }
}

func TestProgressBarCollapsesAndColoursGo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.run(`for i in 10 50 100; do printf '\rprogress %3d%%' $i; done; printf '\n\033[1;32mok\033[0m\n'`)
	if r.Output != "progress 100%\nok" {
		t.Errorf("output %q", r.Output)
	}
}

func TestBinaryOutputIsSummarised(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Fixed bytes, not /dev/urandom: now and then random bytes hold a run that reads as a line of text.
	r := h.run(`perl -e 'srand(7); print map { chr(int(rand(256))) } 1..4096'`)
	if r.Output != "[binary output, 4,096 bytes, not shown]" {
		t.Fatalf("output %q", r.Output)
	}
	// Text after binary data is text again: a test's verdict after a burst of Latin-1 or control bytes
	// reaches the model.
	r = h.run(`echo compiling; sleep .1; printf 'partial caf\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\n'; sleep .1; echo 'FAIL: test_foo'; exit 1`)
	if !strings.Contains(r.Output, "compiling\n[binary output, ") || !strings.Contains(r.Output, "not shown]\nFAIL: test_foo\n") {
		t.Errorf("output %q", r.Output)
	}
	// Text in the same write as binary data: before it, and after it on the same line.
	r = h.run(`perl -e 'print "FAIL: TestFoo expected 3 got 4\n"; print "\0" x 3000; print "VERDICT: all 12 tests passed\n"'`)
	if r.Output != "FAIL: TestFoo expected 3 got 4\n[binary output, 3,000 bytes, not shown]\nVERDICT: all 12 tests passed" {
		t.Errorf("output %q", r.Output)
	}
	r = h.run(`head -c 300000 /dev/urandom; echo; echo VERDICT ok`)
	// Random bytes may hold a line that reads as text; what matters is that the verdict is there.
	if !strings.HasPrefix(r.Output, "[binary output, ") || !strings.HasSuffix(r.Output, "not shown]\nVERDICT ok") {
		t.Errorf("output %q", r.Output)
	}
	r = h.run(`printf 'half a line '; sleep .1; head -c 3000 /dev/urandom; sleep .1; echo after`)
	if !strings.HasPrefix(r.Output, "half a line \n[binary output, 3,000 bytes, not shown]\nafter") {
		t.Errorf("output %q", r.Output)
	}
}

// Commands get the allow-list of Warden's environment and what bash.env passes: an unknown variable
// (a password manager's session, a webhook under an ordinary name) never reaches them.
func TestSecretsDoNotReachCommands(t *testing.T) {
	h := newHarness(t)
	t.Setenv("FOO_API_KEY", "planted-secret-1")
	t.Setenv("BW_SESSION", "planted-bw-session")
	t.Setenv("WARDEN_TEST_PLAIN", "planted-unlisted")
	t.Setenv("NOTIFY_URL", "https://hooks.slack.com/services/T0/B0/planted")
	t.Setenv("LANG", "the-api-key-value")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("WARDEN_TEST_PASSED", "visible")
	h.env.Bash.Secrets = []string{"the-api-key-value"}
	h.env.Bash.Env = []string{"WARDEN_TEST_PASSED"}
	r := h.run("env")
	for _, leaked := range []string{"FOO_API_KEY", "planted-", "the-api-key-value"} {
		if strings.Contains(r.Output, leaked) {
			t.Errorf("env shows %s", leaked)
		}
	}
	for _, set := range []string{"WARDEN_TEST_PASSED=visible", "GOFLAGS=-mod=mod", "WARDEN=1", "GIT_TERMINAL_PROMPT=0", "PAGER=cat"} {
		if !strings.Contains(r.Output, set+"\n") {
			t.Errorf("env lacks %s", set)
		}
	}
}

func TestCdPersists(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := os.Mkdir(filepath.Join(h.env.Workspace, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.run("cd sub")
	if r := h.run("pwd"); r.Output != filepath.Join(h.env.Workspace, "sub") {
		t.Errorf("pwd = %q", r.Output)
	}
	if r := h.run("cd .. && exit 4"); h.env.Cwd() != h.env.Workspace {
		t.Errorf("cwd after failing command = %q (%s)", h.env.Cwd(), r.Output)
	}
	r := h.run("cd /")
	if h.env.Cwd() != "/" || !strings.Contains(r.Output, "outside the workspace") {
		t.Errorf("cd /: cwd %q, output %q", h.env.Cwd(), r.Output)
	}
	gone := filepath.Join(h.env.Workspace, "gone")
	os.Mkdir(gone, 0o755)
	h.env.SetCwd(gone)
	os.Remove(gone)
	r = h.run("pwd")
	if !strings.Contains(r.Output, "no longer exists") || !strings.HasPrefix(r.Output, h.env.Workspace+"\n") {
		t.Errorf("removed cwd: %q", r.Output)
	}
}

// A command can keep its directory from being read back; it is said, not silently dropped.
func TestCdThatCannotBeReadBackIsReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := os.Mkdir(filepath.Join(h.env.Workspace, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"trap 'echo bye' EXIT; cd sub", "cd sub; exec true"} {
		r := h.run(cmd)
		if !strings.Contains(r.Output, "the final directory could not be read back") ||
			!strings.Contains(r.Output, "runs in "+h.env.Workspace) || h.env.Cwd() != h.env.Workspace {
			t.Errorf("%s: %q (cwd %s)", cmd, r.Output, h.env.Cwd())
		}
	}
	if r := h.run("exec echo hi"); strings.Contains(r.Output, "read back") {
		t.Errorf("a command that does not cd: %q", r.Output)
	}
	if r := h.run("cd sub"); r.Output != "(no output)" || h.env.Cwd() != filepath.Join(h.env.Workspace, "sub") {
		t.Errorf("a plain cd: %q (cwd %s)", r.Output, h.env.Cwd())
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tc := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"command": ""}, "empty"},
		{map[string]any{"command": "  \n "}, "empty"},
		{map[string]any{"command": "echo \u0000"}, "NUL"},
		{map[string]any{"command": "sleep 1", "timeout": -5}, "out of range"},
		{map[string]any{"command": "sleep 1", "timeout": 600001}, "out of range"},
		{map[string]any{"command": "vim x"}, "edit_file"},
		{map[string]any{"command": "echo " + strings.Repeat("x", maxCommandBytes)}, "Write the script to a file"},
		{map[string]any{}, "missing required argument"},
	} {
		r := h.call(context.Background(), h.bash, "t", tc.params, nil)
		if !r.IsError || !strings.Contains(r.Output, tc.want) {
			t.Errorf("%v: %+v", tc.params, r)
		}
	}
	// Just under the limit runs: the limit is bash's, not a guess.
	if r := h.run(": " + strings.Repeat("x", maxCommandBytes-11) + "\necho ran"); r.IsError || r.Output != "ran" {
		t.Errorf("a command at the limit: %.200s", r.Output)
	}
	if _, err := checkBash(h.env, &bashParams{Command: "echo \xff"}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	noBash := NewTasks()
	noBash.Shell = "/nonexistent/bash"
	r := NewTools(noBash)[0].Run(context.Background(), h.env, tools.Call{ID: "t", Input: json.RawMessage(`{"command":"true"}`)})
	if !r.IsError || !strings.Contains(r.Output, "bash was not found") {
		t.Errorf("missing bash: %+v", r)
	}
}

func TestLiveOutputStreams(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	live := newLiveWaiter()
	done := make(chan tools.Result)
	dir := t.TempDir()
	go func() {
		// The command waits for the test to see its first line before it finishes.
		done <- h.call(context.Background(), h.bash, "t", map[string]any{"command": fmt.Sprintf(
			"echo first; printf 'partial...'; while [ ! -e %s/go ]; do sleep 0.01; done; echo ' done'", dir)}, live.add)
	}()
	live.waitFor(t, "first\npartial...")
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o644)
	r := <-done
	if got := live.String(); got != "first\npartial... done\n" {
		t.Errorf("live %q", got)
	}
	if r.Output != "first\npartial... done" {
		t.Errorf("output %q", r.Output)
	}
}

func TestLongOutputLimitFromSettings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.MaxOutputChars = 2000
	r := h.run("seq 1 2000")
	if !r.Truncated || len(r.Output) > 2000 || !strings.Contains(r.Output, "omitted") {
		t.Errorf("%d bytes, truncated %v", len(r.Output), r.Truncated)
	}
	content, err := os.ReadFile(r.OutputPath)
	if err != nil || strings.Count(string(content), "\n") != 2000 {
		t.Errorf("full output: %v", err)
	}
}

// A cd through a symbolic link that points out of the workspace leaves it, and the model is told so.
func TestCdThroughSymlinkOutOfTheWorkspaceIsReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(h.env.Workspace, "link")); err != nil {
		t.Fatal(err)
	}
	r := h.run("cd link")
	if !strings.Contains(r.Output, "outside the workspace") {
		t.Errorf("cd link (to %s): cwd %q, output %q", outside, h.env.Cwd(), r.Output)
	}
	// A symbolic link to a directory inside the workspace stays inside.
	if err := os.Mkdir(filepath.Join(h.env.Workspace, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.env.Workspace, "sub"), filepath.Join(h.env.Workspace, "in")); err != nil {
		t.Fatal(err)
	}
	h.env.SetCwd(h.env.Workspace)
	if r := h.run("cd in"); strings.Contains(r.Output, "outside") {
		t.Errorf("cd in: %q", r.Output)
	}
}

// A display that is slow to take live output (the agent's event sink waits on a session write, say) must
// neither lose the end of the output nor stall the command: what the command printed before it exited is
// all in the result.
func TestSlowDisplayLosesNoOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	slow := func(string) { time.Sleep(300 * time.Millisecond) }
	// The live flush of the first lines is under way when the rest, which fits in the pipe, is written and
	// the shell exits.
	r := h.call(context.Background(), h.bash, "t", map[string]any{
		"command": "mkdir d && cd d && seq 1 1000; sleep 0.06; seq 1 100000"}, slow)
	if r.Lines != 101_000 || !strings.HasSuffix(r.Output, "\n99999\n100000") {
		t.Errorf("%d lines; output ends %q", r.Lines, r.Output[max(0, len(r.Output)-100):])
	}
	if want := filepath.Join(h.env.Workspace, "d"); h.env.Cwd() != want {
		t.Errorf("the cd was lost: cwd %q, want %q", h.env.Cwd(), want)
	}
}

// The display gets what it can take; a display that is busy does not stall the command's output pipe.
func TestBusyDisplayDoesNotHoldUpTheCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // runs before the harness's KillAll
	live := func(string) { <-release }
	res := make(chan tools.Result, 1)
	go func() {
		// Far more than the pipe holds, printed after the first live delivery has begun.
		res <- h.call(context.Background(), h.bash, "t", map[string]any{
			"command": "echo start; sleep 0.2; seq 1 1000000; touch done"}, live)
	}()
	eventually(t, 10*time.Second, "the command never got past its output while the display was busy", func() bool {
		_, err := os.Stat(filepath.Join(h.env.Workspace, "done"))
		return err == nil
	})
	free()
	r := <-res
	if r.Lines != 1_000_001 || !strings.HasSuffix(r.Output, "\n1000000") {
		t.Errorf("%d lines; output ends %q", r.Lines, r.Output[max(0, len(r.Output)-100):])
	}
}

// fd 3 is the first a script opens for itself (exec 3>log); Warden's report of the final directory must
// neither land in the script's file nor be lost.
func TestCommandsHaveFd3ToThemselves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := os.Mkdir(filepath.Join(h.env.Workspace, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.run("exec 3>out.txt; echo data >&3; cd sub")
	if b, err := os.ReadFile(filepath.Join(h.env.Workspace, "out.txt")); err != nil || string(b) != "data\n" {
		t.Errorf("out.txt = %q (%v), want the script's line only", b, err)
	}
	if want := filepath.Join(h.env.Workspace, "sub"); h.env.Cwd() != want {
		t.Errorf("cwd %q, want %q", h.env.Cwd(), want)
	}
	if r := h.run("exec 3<&-; cd ..; echo ok"); r.Output != "ok" || h.env.Cwd() != h.env.Workspace {
		t.Errorf("closing fd 3: %q, cwd %q", r.Output, h.env.Cwd())
	}
}
