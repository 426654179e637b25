package hooks

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// BenchmarkAPreToolUseHookPerCall is what a hook that matches adds to a call: bash started in a process
// group of its own (directly here; through the supervisor in a session), told the event, waited for, its
// group killed and reaped. The ratio is against the same hook run bare, with os/exec.
func BenchmarkAPreToolUseHookPerCall(b *testing.B) {
	const command = "cat > /dev/null"
	f := newBenchFixture(b, hook(PreToolUse, "Bash", command))
	ev := Event{Name: PreToolUse, Tool: "bash", Cwd: f.ws, ToolInput: map[string]any{"command": "ls"}}
	input, err := ev.input("default")
	if err != nil {
		b.Fatal(err)
	}
	sh, err := exec.LookPath("bash")
	if err != nil {
		b.Fatal(err)
	}
	var base, ours time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(sh, "-c", command)
		cmd.Stdin = strings.NewReader(string(input))
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		base += time.Since(start)
		start = time.Now()
		if out := f.runner.Run(context.Background(), ev); len(out.Notices) > 0 {
			b.Fatal(out.Notices)
		}
		ours += time.Since(start)
	}
	b.ReportMetric(float64(base.Microseconds())/float64(b.N), "bare-µs/call")
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N), "warden-µs/call")
	b.ReportMetric(float64(ours)/float64(base), "ratio")
}
