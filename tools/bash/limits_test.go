package bash

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/sandbox"
)

// confinements are the ways a command runs: limits hold in each.
func confinements(t *testing.T) map[string]sandbox.Config {
	t.Helper()
	out := map[string]sandbox.Config{"unsandboxed": {}}
	for _, b := range []sandbox.Backend{sandbox.Bubblewrap, sandbox.Landlock} {
		if _, err := sandbox.Probe(sandbox.Config{Backend: b}, testPrograms); err == nil {
			out[string(b)] = sandbox.Config{Enabled: true, Backend: b}
		}
	}
	return out
}

// requireProcessLimit skips when a processes limit would not hold: a fork bomb must never run unbounded.
func requireProcessLimit(t *testing.T) {
	t.Helper()
	if os.Geteuid() == 0 && pidsCgroupBase() == "" {
		needOrSkip(t, "running as root without a writable pids cgroup: a processes limit would not hold")
	}
}

func TestForkBombHitsTheProcessLimit(t *testing.T) {
	requireProcessLimit(t)
	for name, sb := range confinements(t) {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.env.Bash.Sandbox = sb
			h.env.Bash.Limits = tools.Limits{Processes: 40}
			// Bounded even if the limit failed: at most 2^10 shells, and a 2 s timeout.
			bomb := `f() { [ "$1" -gt 0 ] || { sleep 30; return; }; f $(($1-1)) & f $(($1-1)) & wait; }; f 10`
			in, _ := json.Marshal(map[string]any{"command": bomb, "timeout": 2000})
			done := make(chan tools.Result, 1)
			go func() { done <- h.bash.Run(context.Background(), h.env, tools.Call{ID: "bomb", Input: in}) }()

			// Warden stays responsive: another command runs meanwhile.
			other := newHarness(t)
			start := time.Now()
			if r := other.run("echo alive"); r.IsError || !strings.Contains(r.Output, "alive") {
				t.Errorf("a command beside the bomb failed: %s", r.Output)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("a command beside the bomb took %s", d)
			}
			var r tools.Result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the fork bomb call did not end")
			}
			if !strings.Contains(r.Output, "[limit reached: processes (40") {
				t.Errorf("no processes limit note: %s", r.Output)
			}
		})
	}
}

func TestHugeAllocationHitsTheMemoryLimit(t *testing.T) {
	alloc := `python3 -c 'b = bytearray(100 * 2**30)'`
	small := `python3 -c 'b = bytearray(2 * 2**30)'`
	if _, err := exec.LookPath("python3"); err != nil {
		// tail keeps a line until it ends; this one never does.
		alloc = `head -c 100G /dev/zero | tail -c 1`
		small = `head -c 2G /dev/zero | tail -c 1`
	}
	for name, sb := range confinements(t) {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.env.Bash.Sandbox = sb
			// The default limit stops 100 GB.
			r := h.run(alloc)
			if !r.IsError || !strings.Contains(r.Output, "[limit reached: memory (8 GB") {
				t.Errorf("100 GB: %s", r.Output)
			}
			// 2 GB fits the machine, so only the limit stops it.
			h.env.Bash.Limits = tools.Limits{MemoryMB: 512}
			r = h.run(small)
			if !r.IsError || !strings.Contains(r.Output, "[limit reached: memory (512 MB") {
				t.Errorf("2 GB under 512 MB: %s", r.Output)
			}
		})
	}
}

func TestCPUAndFileSizeLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Limits = tools.Limits{CPUSeconds: 1, FileSizeMB: 1}
	r := h.run("head -c 2000000 /dev/zero > big")
	if !r.IsError || !strings.Contains(r.Output, "[limit reached: file size (1 MB") {
		t.Errorf("file size: %s", r.Output)
	}
	r = h.run("while :; do :; done")
	if !r.IsError || !strings.Contains(r.Output, "[limit reached: cpu (1 s") {
		t.Errorf("cpu: %s", r.Output)
	}
}

func TestLimitsCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Limits = tools.Limits{MemoryMB: -1, Processes: -1, FileSizeMB: -1}
	r := h.run("ulimit -d; ulimit -f")
	var cur [2]string
	for i, flag := range []string{"-d", "-f"} {
		out, _ := exec.Command("bash", "-c", "ulimit "+flag).Output()
		cur[i] = strings.TrimSpace(string(out))
	}
	if want := cur[0] + "\n" + cur[1]; strings.TrimSpace(r.Output) != want {
		t.Errorf("limits off: got %q, want Warden's own %q", r.Output, want)
	}
	h.env.Bash.Limits = tools.Limits{}
	r = h.run("ulimit -d; ulimit -f")
	if want := "8388608\n16777216"; strings.TrimSpace(r.Output) != want {
		t.Errorf("defaults: got %q, want %q", r.Output, want)
	}
}

func TestLimitNoteIsQuietOnSuccess(t *testing.T) {
	t.Parallel()
	zero := 0
	if n := limitNote(tools.Limits{MemoryMB: 1}.Effective(), "MemoryError", &zero, "", func() bool { return false }); n != "" {
		t.Errorf("note on success: %s", n)
	}
	one := 1
	if n := limitNote(tools.Limits{}.Effective(), "bash: fork: retry: Resource temporarily unavailable", &one, "", func() bool { return false }); !strings.Contains(n, "processes (4096") {
		t.Errorf("fork failure not recognised: %q", n)
	}
}

// A limit Warden already runs under that is tighter than the setting stays: commands are not given more
// than Warden itself has (which, as root, the shell's ulimit could raise).
func TestTighterLimitWardenRunsUnderIsKept(t *testing.T) {
	t.Parallel()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	tight := syscall.Rlimit{Cur: 1 << 30, Max: old.Max} // 1 GB, well under the 16 GB default
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &tight); err != nil {
		t.Skip("cannot lower RLIMIT_FSIZE:", err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	var pool cgroupPool
	defer pool.close()
	p := planLimits(tools.Limits{}, &pool)
	defer func() {
		// No command ran under the plan: its cgroup, if it had one, refused nothing.
		if p.release()() {
			t.Error("a plan no command ran under reports a refused fork")
		}
	}()
	if strings.Contains(p.prefix, "ulimit -f") {
		t.Errorf("the 16 GB default replaces the 1 GB limit Warden runs under: %q", p.prefix)
	}
}
