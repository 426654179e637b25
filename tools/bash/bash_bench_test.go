package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

// The benchmarks measure Warden's bash engine against bare bash in the same run, and report the ratio, so
// that the numbers mean something on any machine. bench/bash.sh runs them and checks the targets.

// BenchmarkBashCallOverhead compares a bash tool call of `true` with exec.Command("bash", "-c", "true").Run().
// The two alternate, so that drift on a busy machine hits both alike. The session's supervisor is started
// before the timer, as a session starts it before its first command: its start, a start of the executable,
// is paid once per session and is not a per-call cost (in 20 calls it would add about 0.3x to the ratio).
func BenchmarkBashCallOverhead(b *testing.B) {
	h := newHarness(b)
	bashPath, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("no bash")
	}
	in := json.RawMessage(`{"command":"true"}`)
	ctx := context.Background()
	if r := h.bash.Run(ctx, h.env, tools.Call{ID: "bench", Input: in}); r.IsError {
		b.Fatal(r.Output)
	}
	var base, ours time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if err := exec.Command(bashPath, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		base += time.Since(start)
		start = time.Now()
		if r := h.bash.Run(ctx, h.env, tools.Call{ID: "bench", Input: in}); r.IsError {
			b.Fatal(r.Output)
		}
		ours += time.Since(start)
	}
	b.ReportMetric(float64(base.Microseconds())/float64(b.N), "bare-µs/call")
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N), "warden-µs/call")
	b.ReportMetric(float64(ours)/float64(base), "ratio")
}

// BenchmarkBashThroughput sends N MB of output through the engine (clean, count, spool, ring, live display)
// and compares the time with the same command writing to /dev/null; cat-file-ratio is the same for
// `| cat > file`, the cheapest consumer that keeps the output, as a floor for any pipe reader. Peak heap is
// reported for two sizes so that a reader can see it does not grow with the output.
func BenchmarkBashThroughput(b *testing.B) {
	producers := []struct{ name, cmd string }{
		{"seq", "seq 1 100000000"},
		{"lines", "yes 'the quick brown fox jumps over the lazy dog 0123456789'"},
	}
	for _, p := range producers {
		for _, mb := range []int{10, 100} {
			b.Run(fmt.Sprintf("%s/%dMB", p.name, mb), func(b *testing.B) {
				cmd := fmt.Sprintf("%s | head -c %d", p.cmd, mb*1000*1000)
				h := newHarness(b)
				in, _ := json.Marshal(map[string]any{"command": cmd})
				ctx := context.Background()
				h.run("true") // the supervisor starts, once per session
				var base, ours, cpu, catFile time.Duration
				keep := b.TempDir() + "/cat.out"
				var peak int64
				b.SetBytes(int64(mb * 1000 * 1000))
				b.ResetTimer()
				for range b.N {
					start := time.Now()
					if err := exec.Command("bash", "-c", cmd+" > /dev/null").Run(); err != nil {
						b.Fatal(err)
					}
					base += time.Since(start)
					// The simplest consumer that keeps the output: what any pipe reader with a file costs.
					start = time.Now()
					if err := exec.Command("bash", "-c", cmd+" | cat > "+keep).Run(); err != nil {
						b.Fatal(err)
					}
					catFile += time.Since(start)
					runtime.GC()
					stop := sampleHeapPeak()
					cpu0 := selfCPU()
					start = time.Now()
					r := h.bash.Run(ctx, h.env, tools.Call{ID: "bench", Input: in, Output: func(string) {}})
					ours += time.Since(start)
					cpu += selfCPU() - cpu0
					peak = max(peak, stop())
					if !r.Truncated {
						b.Fatalf("not truncated: %.200s", r.Output)
					}
					os.Remove(r.OutputPath)
				}
				b.ReportMetric(float64(base.Milliseconds())/float64(b.N), "bare-ms")
				b.ReportMetric(float64(ours.Milliseconds())/float64(b.N), "warden-ms")
				b.ReportMetric(float64(ours)/float64(base), "ratio")
				b.ReportMetric(float64(catFile)/float64(base), "cat-file-ratio")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "warden-cpu-ms")
			})
		}
	}
}

// selfCPU is the CPU time this process has used (not its children).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkJailCallOverhead compares a bash tool call of `true` judged read-only, in the read-only jail,
// with the same call outside it and with exec.Command("bash", "-c", "true").Run(), in turn, with the jail
// warm (as it is once the session has started). Limits are on (the defaults), as in real use. The ratios
// are the medians of the ratios of each round's calls: on a shared machine a round now and then waits for
// a CPU, and a mean over all calls would report that wait rather than the cost of the call.
func BenchmarkJailCallOverhead(b *testing.B) {
	bashPath, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("no bash")
	}
	plain := newHarness(b)
	jailed := newHarness(b)
	jailed.env.Bash.Jail = true
	jailed.env.Secret = testSecret
	if _, err := ProbeWall(testHelper(b), testPrograms); err != nil {
		b.Skip(err)
	}
	in := json.RawMessage(`{"command":"true"}`)
	ctx := context.Background()
	run := func(h *harness, jail bool) time.Duration {
		start := time.Now()
		if r := h.bash.Run(ctx, h.env, tools.Call{ID: "bench", Input: in, Jailed: jail}); r.IsError {
			b.Fatal(r.Output)
		}
		return time.Since(start)
	}
	run(plain, false) // the supervisors and the jail start
	run(jailed, true)
	var base, unjailed, inJail time.Duration
	var uRatios, jRatios []float64
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if err := exec.Command(bashPath, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		bare := time.Since(start)
		u, j := run(plain, false), run(jailed, true)
		base, unjailed, inJail = base+bare, unjailed+u, inJail+j
		uRatios, jRatios = append(uRatios, float64(u)/float64(bare)), append(jRatios, float64(j)/float64(bare))
	}
	n := float64(b.N)
	b.ReportMetric(float64(base.Microseconds())/n, "bare-µs/call")
	b.ReportMetric(float64(unjailed.Microseconds())/n, "unjailed-µs/call")
	b.ReportMetric(float64(inJail.Microseconds())/n, "jailed-µs/call")
	b.ReportMetric(median(uRatios), "unjailed-ratio")
	b.ReportMetric(median(jRatios), "jailed-ratio")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkJailStart is how long the read-only jail takes to be ready: the scan for secrets (of this test's
// small workspace and of the home directories), bubblewrap or Landlock, and the start of the supervisor in
// it, which is a start of the executable. A session pays it once, in the background after the first
// frame, and again after a command outside the jail changed which files are secret.
func BenchmarkJailStart(b *testing.B) {
	if _, err := ProbeWall(testHelper(b), testPrograms); err != nil {
		b.Skip(err)
	}
	var total time.Duration
	for range b.N {
		h := newHarness(b)
		h.env.Bash.Jail = true
		h.env.Secret = testSecret
		start := time.Now()
		k := h.tasks.keeper(h.env)
		if _, err := k.Get(); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		h.tasks.KillAll()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/start")
}
