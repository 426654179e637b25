package supervisor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the supervisor, the way Warden's executable does.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "supervisor-test-serve" {
		os.Exit(Serve(3))
	}
	os.Exit(m.Run())
}

// launch starts a supervisor (this test binary) and returns its client, closed when the test ends.
func launch(t *testing.T) *Client {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	local, remote, err := Socketpair()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "supervisor-test-serve")
	cmd.Env = []string{}
	cmd.ExtraFiles = []*os.File{remote}
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	remote.Close()
	cl, err := NewClient(local, cmd.Process)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(10 * time.Second) })
	select {
	case <-cl.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the supervisor did not start")
	}
	if err := cl.Err(); err != nil {
		t.Fatal(err)
	}
	return cl
}

// run starts script in bash under the supervisor with stdin empty and stdout and stderr into a pipe; it
// returns the child and the pipe's read end.
func run(t *testing.T, cl *Client, script string, env ...string) (*Child, *os.File) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	t.Cleanup(func() { r.Close() })
	ch, err := cl.Start(bash, []string{"bash", "-c", script}, append([]string{"PATH=" + os.Getenv("PATH")}, env...),
		t.TempDir(), []*os.File{null, w, w})
	if err != nil {
		t.Fatal(err)
	}
	return ch, r
}

func waitExit(t *testing.T, ch *Child) {
	t.Helper()
	select {
	case <-ch.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not exit")
	}
}

func TestStartReportsOutputAndStatus(t *testing.T) {
	cl := launch(t)
	ch, out := run(t, cl, "echo hello; exit 3")
	waitExit(t, ch)
	b, _ := io.ReadAll(out)
	if string(b) != "hello\n" {
		t.Errorf("output = %q", b)
	}
	ws, known := ch.Reap("")
	if !known || !ws.Exited() || ws.ExitStatus() != 3 {
		t.Errorf("status = %v (known %v), want exit 3", ws, known)
	}
	ch, _ = run(t, cl, "kill -TERM $$")
	waitExit(t, ch)
	if ws, _ := ch.Reap(""); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("status = %v, want killed by SIGTERM", ws)
	}
}

// The command's pid is Warden's view of it, it leads its own session and group, and it stays a zombie
// until Reap, so its group id cannot be reused before.
func TestCommandLeadsItsGroupAndStaysUnreaped(t *testing.T) {
	cl := launch(t)
	ch, _ := run(t, cl, "exit 0")
	waitExit(t, ch)
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", ch.Pid))
	if err != nil {
		t.Fatalf("the exited command is gone before Reap: %v", err)
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if f[0] != "Z" || f[2] != strconv.Itoa(ch.Pid) || f[3] != strconv.Itoa(ch.Pid) {
		t.Errorf("state, pgid, sid = %s %s %s; want Z and the pid %d", f[0], f[2], f[3], ch.Pid)
	}
	ch.Reap("")
	eventually(t, "the command is reaped", func() bool { return !alive(ch.Pid) })
}

func TestCommandGetsOnlyItsDescriptors(t *testing.T) {
	// A descriptor the supervisor inherited without close-on-exec must not reach the command either.
	leak, err := syscall.Open(os.DevNull, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	cl := launch(t)
	syscall.Close(leak)
	ch, out := run(t, cl, `for f in /proc/self/fd/*; do :; done; ls /proc/self/fd | tr '\n' ' '`)
	waitExit(t, ch)
	ch.Reap("")
	b, _ := io.ReadAll(out)
	// ls has the directory it lists open as 3.
	if got := strings.TrimSpace(string(b)); got != "0 1 2 3" {
		t.Errorf("descriptors = %q, want 0 1 2 (and ls's own 3)", got)
	}
}

func TestStartErrorsAreReported(t *testing.T) {
	cl := launch(t)
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	_, err := cl.Start("/nonexistent/prog", []string{"prog"}, nil, "/", []*os.File{null, null, null})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/prog") {
		t.Errorf("err = %v", err)
	}
	_, err = cl.Start("/bin/sh", []string{"sh"}, nil, "/nonexistent-dir", []*os.File{null, null, null})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent-dir") {
		t.Errorf("err = %v", err)
	}
	// The supervisor still serves.
	ch, _ := run(t, cl, "exit 0")
	waitExit(t, ch)
	ch.Reap("")
}

// A process that left the command's group (setsid) and outlived it is found by its mark and killed when
// the command is reaped, even with its output sent elsewhere; one with another mark is left alone.
func TestReapKillsTheCommandsEscapedProcesses(t *testing.T) {
	cl := launch(t)
	ch, out := run(t, cl, "setsid sleep 1000 >/dev/null 2>&1 </dev/null & echo $!", "MARK=a")
	other, otherOut := run(t, cl, "setsid sleep 1000 >/dev/null 2>&1 </dev/null & echo $!", "MARK=b")
	waitExit(t, ch)
	waitExit(t, other)
	pid := readPid(t, out)
	otherPid := readPid(t, otherOut)
	ch.Reap("MARK=a")
	eventually(t, "the escaped sleep is killed", func() bool { return !alive(pid) })
	if !alive(otherPid) {
		t.Error("another command's process was killed")
	}
	other.Reap("MARK=b")
	eventually(t, "the other escaped sleep is killed", func() bool { return !alive(otherPid) })
}

// When Warden's end of the socket closes, every command and everything it started is killed: groups,
// double-forked daemons, processes in a session of their own.
func TestClosingStopsEverything(t *testing.T) {
	cl := launch(t)
	ch, out := run(t, cl, `sleep 1000 & echo $!; setsid bash -c 'sleep 1000 & echo $!; (setsid sleep 1000 & echo $!) ' ; exec sleep 1000`)
	pids := []int{ch.Pid}
	sc := bufio.NewScanner(out)
	for len(pids) < 4 && sc.Scan() {
		pid, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 4 {
		t.Fatalf("pids = %v", pids)
	}
	cl.Close(10 * time.Second)
	for _, pid := range pids {
		eventually(t, fmt.Sprintf("process %d is gone", pid), func() bool { return !alive(pid) })
	}
	select {
	case <-ch.Exited():
	default:
		t.Error("a command of a closed supervisor is not reported as exited")
	}
}

func readPid(t *testing.T, r io.Reader) int {
	t.Helper()
	b, _ := io.ReadAll(r)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("no pid in %q", b)
	}
	return pid
}

// alive reports whether pid runs (a zombie does not count).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// When Warden cannot watch a command or read its status itself, the supervisor does and says.
func TestSupervisorWatchesAndReportsWhenAsked(t *testing.T) {
	cl := launch(t)
	ch, _ := run(t, cl, "read -t 0.2 x </dev/zero; exit 7")
	reported := make(chan struct{})
	other := &Child{id: ch.id, cl: cl, exited: make(chan struct{}), reported: reported}
	cl.mu.Lock()
	cl.running[ch.id] = other // the supervisor's word goes to this stand-in, which has no pidfd
	cl.mu.Unlock()
	if err := cl.send(&message{op: opWatch, id: ch.id}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-other.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the supervisor did not say the command exited")
	}
	if !other.known || other.status.ExitStatus() != 7 {
		t.Errorf("watched status = %v (known %v), want exit 7", other.status, other.known)
	}
	ch2, _ := run(t, cl, "exit 5")
	waitExit(t, ch2)
	if ws, known := ch2.reapAsking(""); !known || ws.ExitStatus() != 5 {
		t.Errorf("asked status = %v (known %v), want exit 5", ws, known)
	}
	eventually(t, "the asked command is reaped", func() bool { return !alive(ch2.Pid) })
}
