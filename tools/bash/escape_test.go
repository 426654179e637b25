package bash

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

// sleepers lists the live `sleep <arg>` processes.
func sleepers(arg string) []int {
	want := "sleep\x00" + arg + "\x00"
	return livePids(func(pid int) bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		return err == nil && string(b) == want
	})
}

// uniqueSleep is a sleep duration no other test or process uses.
func uniqueSleep(t *testing.T) string {
	return fmt.Sprintf("%d.%06d", 300+os.Getpid()%100, time.Now().Nanosecond()/1000)
}

// Processes that leave the command's process group die with it too. As root the pids cgroup would catch
// them, so the test turns it off to exercise what every other user relies on: the command's mark.
func TestProcessesOutsideTheGroupDieWithTheCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Limits = tools.Limits{Processes: -1}
	d := uniqueSleep(t)
	r := h.run(fmt.Sprintf("setsid sleep %[1]s & (set -m; sleep %[1]s &) ; timeout 1000 sleep %[1]s & sleep 0.2; echo started", d))
	if !strings.Contains(r.Output, "started") {
		t.Fatalf("output %q", r.Output)
	}
	eventually(t, 10*time.Second, "a process that left the group outlived its command", func() bool {
		return len(sleepers(d)) == 0
	})
}

func TestTimeoutStopsProcessesOutsideTheGroup(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Limits = tools.Limits{Processes: -1}
	d := uniqueSleep(t)
	r := h.call(context.Background(), h.bash, "t", map[string]any{
		"command": fmt.Sprintf("timeout 1000 sleep %s", d), "timeout": 700}, nil)
	if !r.TimedOut {
		t.Fatalf("result %+v", r)
	}
	eventually(t, 10*time.Second, "timeout's sleep outlived the timed-out command", func() bool {
		return len(sleepers(d)) == 0
	})
}

// An interrupt that comes while a timed-out command is still being given its grace period kills at once.
func TestInterruptDuringTheGracePeriodKillsAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.tasks.Grace = 20 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	lw := newLiveWaiter()
	go func() {
		lw.waitFor(t, "ready")
		time.Sleep(1200 * time.Millisecond) // past the timeout, within the grace period
		cancel()
	}()
	start := time.Now()
	r := h.call(ctx, h.bash, "t", map[string]any{"command": "trap '' TERM; echo ready; sleep 1000", "timeout": 1000}, lw.add)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("returned after %s: the interrupt waited for the 20 s grace period", d)
	}
	if !r.TimedOut {
		t.Errorf("the first reason is reported: %+v", r)
	}
}

// A process that left the group and keeps writing neither holds the call for the whole drain period nor
// adds what it writes after the command ended.
func TestEscapedWriterIsStoppedNotDrained(t *testing.T) {
	t.Parallel()
	for _, lim := range []tools.Limits{{}, {Processes: -1}} {
		h := newHarness(t)
		h.env.Bash.Limits = lim
		start := time.Now()
		r := h.run("setsid bash -c 'while :; do echo tick; sleep .01; done' & sleep .3; echo ok")
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("limits %+v: the call took %s (the drain period is %s)", lim, d, drainMax)
		}
		if after := r.Output[strings.LastIndex(r.Output, "ok"):]; strings.Count(after, "tick") > 5 {
			t.Errorf("limits %+v: %d ticks written after the command ended were added", lim, strings.Count(after, "tick"))
		}
	}
}

// A cleanup handler runs once: the stop does not TERM it a second time, nor the child it starts.
func TestTermHandlerRunsOnceAndUndisturbed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.tasks.Grace = 5 * time.Second
	r := h.call(context.Background(), h.bash, "t", map[string]any{"timeout": 1000,
		"command": "trap 'echo cleaning; sleep 0.3 || echo killed; echo cleaned; exit 3' TERM; echo ready; sleep 100 & wait"}, nil)
	if strings.Count(r.Output, "cleaning") != 1 || strings.Contains(r.Output, "killed") || !strings.Contains(r.Output, "cleaned") {
		t.Errorf("the handler was disturbed: %q", r.Output)
	}
}

// A process that left the group with its output sent elsewhere still holds the pipe every command's
// processes inherit, and is stopped with the command.
func TestQuietProcessOutsideTheGroupDiesWithTheCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Limits = tools.Limits{Processes: -1}
	d := uniqueSleep(t)
	if r := h.run(fmt.Sprintf("setsid sleep %s >/dev/null 2>&1 & sleep 0.2; echo started", d)); !strings.Contains(r.Output, "started") {
		t.Fatalf("output %q", r.Output)
	}
	eventually(t, 10*time.Second, "a quiet process that left the group outlived its command", func() bool {
		return len(sleepers(d)) == 0
	})
}
