package bash

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

func TestBackgroundTaskOutputAndKill(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// The TERM must be what stops the task: a grace longer than the harness's half second, which a loaded
	// machine running the race detector can spend before bash and sleep are scheduled to die, and then
	// the KILL that follows is what the result reports.
	h.tasks.Grace = 10 * time.Second
	dir := t.TempDir()
	start := time.Now()
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": fmt.Sprintf(
		"echo one; echo two; while [ ! -e %s/go ]; do sleep 0.01; done; echo three; sleep 100", dir),
		"run_in_background": true}, nil)
	if d := time.Since(start); d > 10*time.Second || r.BackgroundID != "b1" || r.IsError {
		t.Fatalf("after %s: %+v", d, r)
	}
	if h.tasks.Running() != 1 {
		t.Errorf("Running = %d", h.tasks.Running())
	}
	read := func() tools.Result {
		return h.call(context.Background(), h.output, "o", map[string]any{"id": "b1"}, nil)
	}
	var got strings.Builder
	eventually(t, 5*time.Second, "bash_output never showed two", func() bool {
		got.WriteString(read().Output)
		return strings.Contains(got.String(), "two")
	})
	// The two lines may arrive in separate reads, each followed by a status line.
	one, two := strings.Index(got.String(), "one\n"), strings.Index(got.String(), "two\n")
	if one < 0 || two < one || strings.Count(got.String(), "one\n") != 1 ||
		!strings.Contains(got.String(), "task b1 is running") {
		t.Errorf("first reads: %q", got.String())
	}
	os.WriteFile(dir+"/go", nil, 0o644)
	got.Reset()
	eventually(t, 5*time.Second, "bash_output never showed three", func() bool {
		got.WriteString(read().Output)
		return strings.Contains(got.String(), "three")
	})
	if strings.Contains(got.String(), "one") {
		t.Errorf("output was returned twice: %q", got.String())
	}
	r = h.call(context.Background(), h.kill, "k", map[string]any{"id": "b1"}, nil)
	if !strings.Contains(r.Output, "stopped by kill_bash") || r.Signal != "SIGTERM" {
		t.Errorf("kill_bash: %+v", r)
	}
	if h.tasks.Running() != 0 {
		t.Errorf("Running after kill = %d", h.tasks.Running())
	}
	if r := read(); !strings.Contains(r.Output, "(no new output)") || !strings.Contains(r.Output, "stopped by kill_bash") {
		t.Errorf("read after kill: %q", r.Output)
	}
	if r := h.call(context.Background(), h.output, "o", map[string]any{"id": "b9"}, nil); !r.IsError ||
		!strings.Contains(r.Output, "b1 (finished)") {
		t.Errorf("unknown id: %q", r.Output)
	}
}

func TestBackgroundTaskFinishes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "echo done; exit 2", "run_in_background": true}, nil)
	var out tools.Result
	eventually(t, 5*time.Second, "the task never finished", func() bool {
		out = h.call(context.Background(), h.output, "o", map[string]any{"id": r.BackgroundID}, nil)
		return out.ExitCode != nil
	})
	if *out.ExitCode != 2 || !strings.Contains(out.Output, "exited with status 2") {
		t.Errorf("%+v", out)
	}
}

func TestBackgroundLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.tasks.MaxBackground = 2
	for i := range 2 {
		if r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100", "run_in_background": true}, nil); r.IsError {
			t.Fatalf("task %d: %s", i, r.Output)
		}
	}
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100", "run_in_background": true}, nil)
	if !r.IsError || !strings.Contains(r.Output, "already running") {
		t.Errorf("third task: %+v", r)
	}
}

func TestSendRunningCommandToBackground(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	live := newLiveWaiter()
	done := make(chan tools.Result)
	go func() {
		done <- h.call(context.Background(), h.bash, "call-7", map[string]any{"command": "echo first; sleep 100"}, live.add)
	}()
	live.waitFor(t, "first")
	if h.tasks.Background("no-such-call") {
		t.Error("Background of an unknown call succeeded")
	}
	if !h.tasks.Background("call-7") {
		t.Fatal("Background failed")
	}
	r := <-done
	if r.BackgroundID == "" || !strings.HasPrefix(r.Output, "first\n") || !strings.Contains(r.Output, "sent to the background by the user") {
		t.Fatalf("result %+v", r)
	}
	if h.tasks.Running() != 1 {
		t.Errorf("Running = %d", h.tasks.Running())
	}
	h.tasks.KillAll()
	if h.tasks.Running() != 0 {
		t.Errorf("Running after KillAll = %d", h.tasks.Running())
	}
	if r := h.run("echo late"); !r.IsError || !strings.Contains(r.Output, "shutting down") {
		t.Errorf("command after KillAll: %+v", r)
	}
}

func TestAutoBackground(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.AutoBackgroundAfterMS = 200
	r := h.run("echo early; sleep 100")
	if r.BackgroundID == "" || !strings.Contains(r.Output, "early") || !strings.Contains(r.Output, "moved to the background") {
		t.Fatalf("result %+v", r)
	}
	if r := h.run("echo quick"); r.BackgroundID != "" || r.Output != "quick" {
		t.Errorf("quick command: %+v", r)
	}
}

func TestKillAllStopsForegroundCalls(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	live := newLiveWaiter()
	done := make(chan tools.Result)
	go func() {
		done <- h.call(context.Background(), h.bash, "t", map[string]any{"command": "echo up; sleep 100"}, live.add)
	}()
	live.waitFor(t, "up")
	h.tasks.KillAll()
	if r := <-done; !r.Interrupted || !strings.Contains(r.Output, "Warden is exiting") {
		t.Errorf("result %+v", r)
	}
}

// TestNoProcessOutlivesWarden starts and interrupts many commands of every shape, leaves some running in
// the background, calls KillAll as Warden does on exit, and then finds none of their processes alive.
func TestNoProcessOutlivesWarden(t *testing.T) {
	marker := fmt.Sprintf("WARDEN_LEAK_TEST=%d", time.Now().UnixNano())
	name, value, _ := strings.Cut(marker, "=")
	t.Setenv(name, value)
	h := newHarness(t)
	shapes := []string{
		"sleep 100",
		"sleep 100 & sleep 100",
		"(sleep 100 &); sleep 100",
		"bash -c 'sleep 100 & wait'",
		"trap '' TERM; sleep 100",
		"sleep 100 | cat",
		"sleep 100 & echo finished", // ends on its own, leaving a child behind
		"for i in 1 2 3; do sleep 100 & done; wait",
		"setsid sleep 100 & sleep 100", // leaves the group: only the exit sweep finds it
	}
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			live := newLiveWaiter()
			done := make(chan tools.Result, 1)
			go func() {
				done <- h.call(ctx, h.bash, fmt.Sprint("c", i), map[string]any{"command": "echo ready; " + shapes[i%len(shapes)]}, live.add)
			}()
			live.waitFor(t, "ready")
			cancel()
			<-done
		}()
	}
	for range 3 {
		h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100 & sleep 100", "run_in_background": true}, nil)
	}
	wg.Wait()
	h.tasks.KillAll()
	ours := func(pid int) bool {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		return err == nil && bytes.Contains(env, []byte(marker))
	}
	eventually(t, 3*time.Second, "processes left running", func() bool { return len(livePids(ours)) == 0 })
}

func TestSweepOrphansKillsWhatADeadWardenLeft(t *testing.T) {
	t.Parallel()
	// A pid that surely belongs to no process: one that just exited.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	orphan := exec.Command("sleep", "300")
	orphan.Env = append(os.Environ(), fmt.Sprintf("%s=%d-abc", instanceVar, dead.Process.Pid))
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	defer orphan.Process.Kill()
	ours := exec.Command("sleep", "300")
	ours.Env = append(os.Environ(), fmt.Sprintf("%s=%d-abc", instanceVar, os.Getpid()))
	if err := ours.Start(); err != nil {
		t.Fatal(err)
	}
	defer ours.Process.Kill()

	// Another warden started by a test elsewhere may sweep the orphan first; either way it must go.
	SweepOrphans()
	done := make(chan error, 1)
	go func() { done <- orphan.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the orphan is still running")
	}
	if err := ours.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a process of a live Warden was killed: %v", err)
	}
}

// Calls made at the same moment cannot together pass the limit.
func TestBackgroundLimitHoldsForConcurrentStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.tasks.MaxBackground = 3
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ids []string
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100", "run_in_background": true}, nil)
			if !r.IsError {
				mu.Lock()
				ids = append(ids, r.BackgroundID)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(ids) != 3 || h.tasks.Running() != 3 {
		t.Errorf("started %v, running %d; want 3", ids, h.tasks.Running())
	}
}

// Ctrl+B can come between the call's start on screen and its process's: it is honoured once the process
// runs. A call that is not starting is refused.
func TestBackgroundRequestedWhileTheCommandStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if h.tasks.Background("nope") {
		t.Error("a call that is neither running nor starting was accepted")
	}
	h.tasks.mu.Lock()
	h.tasks.initLocked()
	h.tasks.startingFg["c1"] = true // as run sets it just before the process starts
	h.tasks.mu.Unlock()
	if !h.tasks.Background("c1") {
		t.Fatal("a starting call was refused")
	}
	start := time.Now()
	r := h.call(context.Background(), h.bash, "c1", map[string]any{"command": "sleep 30"}, nil)
	if r.BackgroundID == "" || time.Since(start) > 10*time.Second {
		t.Errorf("the call was not sent to the background: %+v after %s", r, time.Since(start))
	}
}

// A supervisor still starting when Warden exits is stopped, not waited for: Warden would otherwise wait up
// to supervisorWait for a process that has started nothing. The helper here never answers; it tells the
// test its pid through a named pipe once it runs.
func TestKillAllStopsASupervisorStillStarting(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/pid"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	helper := dir + "/helper"
	script := "#!/bin/sh\necho $$ > " + fifo + "\nexec sleep 60\n"
	if err := os.WriteFile(helper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	tasks := NewTasks()
	tasks.Helper = helper
	launched := make(chan error, 1)
	go func() {
		_, err := tasks.spawner()
		launched <- err
	}()
	b, err := os.ReadFile(fifo) // returns once the helper has written its pid and closed the pipe
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("helper wrote %q", b)
	}
	tasks.KillAll()
	select {
	case err := <-launched:
		if err == nil || !strings.Contains(err.Error(), "shutting down") {
			t.Errorf("the launch ended with %v, not as Warden shutting down", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the launch never ended")
	}
	// Killed and waited for: the pid no longer names a process (not even a zombie).
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Errorf("the helper (pid %d) is still there after KillAll: %v", pid, err)
	}
}
