package ui

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// bigSession is a model holding a 1,000-message conversation and a running command that has printed
// 100,000 lines: the load the issue sets for typing to stay under 5 ms a key.
func bigSession(b *testing.B) *Model {
	m, _ := newTestModel(b, 120, 40)
	for i := range 500 {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("Question %d: what does function f%d do?", i, i)})
		send(m, agent.AssistantText{Text: fmt.Sprintf("Function `f%d` **adds** numbers:\n\n- it takes two ints\n- it returns their sum\n\n```go\nfunc f%d(a, b int) int { return a + b }\n```", i, i)})
	}
	send(m,
		agent.ToolCallStarted{ID: "big", Name: "bash", Access: tools.Access{Kind: tools.AccessExec, Command: "seq 100000", Summary: "seq 100000"}},
		agent.PermissionDecided{ID: "big", Decision: permissions.Allow, By: "readonly"},
	)
	var chunk strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&chunk, "output line %d of a long build log\n", i)
		if i%1000 == 999 {
			send(m, agent.ToolOutput{ID: "big", Chunk: chunk.String()})
			chunk.Reset()
		}
	}
	m.View() // first render fills the caches of what is visible
	return m
}

func BenchmarkKeystroke(b *testing.B) {
	m := bigSession(b)
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	b.ResetTimer()
	for i := range b.N {
		m.Update(keys[i%2])
		m.View()
	}
}

func BenchmarkOutputChunk(b *testing.B) {
	m := bigSession(b)
	chunk := strings.Repeat("another line of compiler output, fairly long as they are\n", 20)
	b.ResetTimer()
	for range b.N {
		m.Update(eventMsg{agent.ToolOutput{ID: "big", Chunk: chunk}})
		m.View()
	}
}

// frameCounter counts the writes the renderer makes: one per frame.
type frameCounter struct{ frames atomic.Int64 }

func (f *frameCounter) Write(p []byte) (int, error) {
	f.frames.Add(1)
	return len(p), nil
}

// BenchmarkTokenStream sends requests through the real program and agent to the fake server, which streams
// each answer at 2,000 tokens a second, with a 1,000-message conversation on screen. It reports the CPU the
// whole process spends per second of streaming (the in-process fake server included) and the frames drawn
// per second: the renderer must coalesce tokens into frames, not draw one per token.
func BenchmarkTokenStream(b *testing.B) {
	srv := fakeapi.New()
	defer srv.Close()
	eng, _ := permissions.NewEngine(permissions.Policy{Workspace: b.TempDir()})
	opts := Options{Model: "fake-model", Workspace: "/work/project", Engine: eng, ContextWindow: 128000}
	turns := make(chan struct{}, 1)
	opts.NewAgent = func(sink agent.Sink, ap agent.Approver) (*agent.Agent, error) {
		counted := func(ev agent.Event) {
			sink(ev)
			if _, ok := ev.(agent.TurnDone); ok {
				turns <- struct{}{}
			}
		}
		return agent.New(agent.Options{Provider: agent.NewProvider(srv.URL(), "", "fake-model"), Tools: tools.NewRegistry(),
			Env: tools.NewEnv(b.TempDir(), b.TempDir()), Engine: eng, Approver: ap, Sink: counted})
	}
	m := newModel(opts, time.Now)
	if err := m.connect(); err != nil {
		b.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := range 500 {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("Question %d: what does function f%d do?", i, i)})
		send(m, agent.AssistantText{Text: fmt.Sprintf("Function `f%d` **adds** numbers:\n\n- it takes two ints\n- it returns their sum", i)})
	}
	out := &frameCounter{}
	in, inW := io.Pipe()
	defer inW.Close()
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithWindowSize(120, 40), tea.WithoutSignals())
	m.send.set(p.Send)
	done := make(chan struct{})
	go func() {
		p.Run()
		close(done)
	}()
	const tokens = 200 // one answer: 100 ms at 2,000 tokens a second
	answer := strings.Repeat("word ", tokens)
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	frames0 := out.frames.Load()
	start := time.Now()
	b.ResetTimer()
	for i := range b.N {
		// Four tokens a delta every two milliseconds: finer timers are not kept to the microsecond.
		srv.Reply(fakeapi.Text(answer).Chunk(20).Delay(2 * time.Millisecond))
		p.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
		p.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		select {
		case <-turns:
		case <-time.After(10 * time.Second):
			b.Fatalf("request %d did not finish", i)
		}
	}
	b.StopTimer()
	elapsed := time.Since(start)
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(100*cpu.Seconds()/elapsed.Seconds(), "cpu-%")
	b.ReportMetric(float64(out.frames.Load()-frames0)/elapsed.Seconds(), "frames/s")
	b.ReportMetric(float64(tokens*b.N)/elapsed.Seconds(), "tokens/s")
	p.Quit()
	<-done
	m.shutdown(time.Second)
}

// longAnswer is about size bytes of the Markdown a model writes: headings, paragraphs, lists and code.
func longAnswer(size int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "## Step %d\n\nThe function `f%d` reads the **input**, checks it and writes the result; "+
			"it is called from the handler once per request, so it must not block.\n\n"+
			"- it takes a context\n- it returns an error\n  that wraps the cause\n\n"+
			"```go\nfunc f%d(ctx context.Context) error {\n\tif err := ctx.Err(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\n", i, i, i)
	}
	return sb.String()
}

// BenchmarkStreamLongAnswer is one frame of an answer streaming in after 7 KB and 70 KB of it have
// arrived: a delta, and the view redrawn once the stream throttle has passed. Its cost must not grow with
// what was already said.
func BenchmarkStreamLongAnswer(b *testing.B) {
	for _, size := range []int{7 << 10, 70 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			m, clock := newTestModel(b, 120, 40)
			send(m, agent.TextDelta{Text: longAnswer(size)})
			m.View()
			deltas := strings.SplitAfter(longAnswer(64<<10), " ")
			b.ResetTimer()
			for i := range b.N {
				clock.t = clock.t.Add(streamThrottle)
				send(m, agent.TextDelta{Text: deltas[i%len(deltas)]})
				m.View()
			}
		})
	}
}
