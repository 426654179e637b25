package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// BenchmarkCheckpointedCall is what checkpoints add to a bash call that changes a file, in a workspace
// of 10,000 files: the same call run bare and between two snapshots, interleaved so that both meet the
// same load.
func BenchmarkCheckpointedCall(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	ws := b.TempDir()
	for i := range 10_000 {
		d := filepath.Join(ws, "src", fmt.Sprintf("d%03d", i/400), fmt.Sprintf("e%02d", (i/20)%20))
		if i%20 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d.go", i%20)), []byte("package main\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cp, err := checkpoint.Open(checkpoint.Options{Dir: b.TempDir(), Workspace: ws, Session: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	if err := cp.Off(); err != nil {
		b.Fatal(err)
	}
	tasks := bash.NewTasks()
	defer tasks.KillAll()
	bash := bash.NewTools(tasks)[0]
	env := tools.NewEnv(ws, b.TempDir())
	engine, _ := permissions.NewEngine(permissions.Policy{Mode: permissions.ModeYolo, Workspace: ws})
	a, err := New(Options{Provider: nilStreamer{}, Tools: tools.NewRegistry(bash), Env: env, Engine: engine,
		Approver: HeadlessApprover{}, Sink: func(Event) {}, Checkpoints: cp})
	if err != nil {
		b.Fatal(err)
	}
	input := json.RawMessage(`{"command":"date +%N > stamp.txt"}`)
	p := &pendingCall{tc: openai.ToolCall{ID: "c", Function: openai.FunctionCall{Name: "bash"}}, tool: bash, input: input,
		access: tools.Access{Kind: tools.AccessExec, Command: "date +%N > stamp.txt"}}
	run := func() tools.Result {
		return bash.Run(context.Background(), env, tools.Call{ID: "c", Input: input})
	}
	var bare, checked time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if r := run(); r.IsError {
			b.Fatal(r.Output)
		}
		t1 := time.Now()
		var changes []checkpoint.Change
		if r := a.checkpointed(p, &changes, run); r.IsError {
			b.Fatal(r.Output)
		}
		t2 := time.Now()
		if len(changes) != 1 {
			b.Fatalf("changes: %v", changes)
		}
		bare, checked = bare+t1.Sub(t0), checked+t2.Sub(t1)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
	b.ReportMetric(ms(bare), "bare-ms")
	b.ReportMetric(ms(checked), "checkpointed-ms")
	b.ReportMetric(ms(checked-bare), "added-ms")
}

// nilStreamer is a model that is never asked.
type nilStreamer struct{}

func (nilStreamer) Stream(context.Context, []openai.ChatCompletionMessage, []openai.Tool, DeltaFunc) (*Completion, error) {
	return nil, fmt.Errorf("not asked")
}
func (nilStreamer) Model() string { return "none" }
