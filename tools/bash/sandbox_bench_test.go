package bash

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/sandbox"
)

// BenchmarkSandboxOverhead compares a bash tool call of `true` unsandboxed with the same call in each
// sandbox backend this machine has, alternating so that drift on a busy machine hits all alike. Limits
// are on (the defaults) in every case, as in real use.
func BenchmarkSandboxOverhead(b *testing.B) {
	type variant struct {
		name  string
		h     *harness
		total time.Duration
	}
	plain := newHarness(b)
	vs := []*variant{{name: "unsandboxed", h: plain}}
	for _, be := range []sandbox.Backend{sandbox.Bubblewrap, sandbox.Landlock} {
		if _, err := sandbox.Probe(sandbox.Config{Backend: be}, testPrograms); err != nil {
			b.Logf("%s: %v", be, err)
			continue
		}
		h := newHarness(b)
		h.env.Bash.Sandbox = sandbox.Config{Enabled: true, Backend: be}
		vs = append(vs, &variant{name: string(be), h: h})
	}
	in := json.RawMessage(`{"command":"true"}`)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		for _, v := range vs {
			start := time.Now()
			if r := v.h.bash.Run(ctx, v.h.env, tools.Call{ID: "bench", Input: in}); r.IsError {
				b.Fatal(r.Output)
			}
			v.total += time.Since(start)
		}
	}
	for _, v := range vs {
		b.ReportMetric(float64(v.total.Microseconds())/float64(b.N), v.name+"-µs/call")
		if v != vs[0] {
			b.ReportMetric(float64(v.total)/float64(vs[0].total), v.name+"-ratio")
		}
	}
}
