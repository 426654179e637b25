package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The soak: a working day compressed. The full-screen program, built with -tags benchstats so that it can
// be asked for its goroutines and heap, runs in a pseudo-terminal against the fake server for SOAK_TURNS
// turns (5,000 by default): every turn a prompt and a Markdown answer, every fifth a command first whose
// output is large (seq, 20,000 lines), with an idle stretch of SOAK_IDLE (20 s) after every thousand
// turns. When the conversation nears the model's window, the agent compacts it, as on a real day: the
// server answers the summary request too. Every SOAK_SAMPLE_EVERY turns (250) it samples resident memory,
// goroutines, the Go heap and the CPU spent since the last sample; bench/soak.sh prints the samples, and
// bench/run.sh the figures that say whether they stay flat.

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// soakReply answers the soak's requests: a summary for a compaction, a command for a turn that asks for
// one (then the answer once its result came back), an answer otherwise. Every answer ends with done-N,
// N the turn, which the benchmark waits for.
func soakReply(req fakeapi.Request) *fakeapi.Response {
	if len(req.Messages) > 0 && strings.HasPrefix(req.Messages[0].Content, "You summarise") {
		return fakeapi.Text("The session so far: the user asked numbered questions about the code and got answers; commands printed long listings.")
	}
	prompt := req.LastUser()
	n := strings.TrimPrefix(strings.Fields(prompt + " x")[0], "turn-")
	last := req.Messages[len(req.Messages)-1]
	if strings.Contains(prompt, "with a command") && last.Role != "tool" {
		return fakeapi.ToolCall("call-"+n, "bash", `{"command":"seq 1 20000","description":"List the numbers"}`).Chunk(64)
	}
	answer := fmt.Sprintf("## Turn %s\n\nThe function `f%s` reads the **input**, checks it and writes the result; it is called "+
		"from the handler once per request.\n\n- it takes a context\n- it returns an error\n\n```go\nfunc f%s(ctx context.Context) error {\n\treturn ctx.Err()\n}\n```\n\ndone-%s\n", n, n, n, n)
	return fakeapi.Text(answer).Chunk(64)
}

// soakSample is the state of the program after a number of turns.
type soakSample struct {
	turns      int
	rssMB      float64
	goroutines int
	heapMB     float64       // the Go heap now
	liveMB     float64       // what the last collection found alive
	cpuPerTurn time.Duration // since the sample before
	wall       time.Duration // since the sample before, per turn
}

// BenchmarkSoak runs the day once per iteration (run it with -benchtime 1x).
func BenchmarkSoak(b *testing.B) {
	turns, every := envInt("SOAK_TURNS", 5000), envInt("SOAK_SAMPLE_EVERY", 250)
	idle := time.Duration(envInt("SOAK_IDLE_SECONDS", 20)) * time.Second
	server := fakeapi.New()
	defer server.Close()
	server.Fallback(soakReply)
	dir, env := benchEnv(b)
	stats := filepath.Join(b.TempDir(), "stats.jsonl")
	env = append(env, "WARDEN_BENCH_STATS="+stats)
	if heap := os.Getenv("WARDEN_BENCH_HEAPPROFILE"); heap != "" {
		env = append(env, "WARDEN_BENCH_HEAPPROFILE="+heap) // the heap at the last sample, to find what grows
	}
	program := statsBinary(b)
	for b.Loop() {
		bt := startBenchTerminalOf(b, program, dir, env, "--base-url", server.URL(), "--model", "m")
		bt.waitFor(0, "Ask Warden", 20*time.Second)
		pid := bt.cmd.Process.Pid
		var samples []soakSample
		var idleCPU, idleWall time.Duration
		lastCPU, lastTime, lastTurns := cpuOf(b, pid), time.Now(), 0
		for i := range turns {
			prompt := fmt.Sprintf("turn-%d", i)
			if i%5 == 4 {
				prompt += " with a command"
			}
			bt.pty.WriteString(prompt + "\r")
			bt.waitScreen(fmt.Sprintf("done-%d", i), true, 30*time.Second)
			bt.waitScreen("to interrupt", false, 30*time.Second)
			if (i+1)%every == 0 {
				cpu, now := cpuOf(b, pid), time.Now()
				s := soakSample{turns: i + 1, rssMB: rssMB(b, pid),
					cpuPerTurn: (cpu - lastCPU) / time.Duration(i+1-lastTurns), wall: now.Sub(lastTime) / time.Duration(i+1-lastTurns)}
				s.goroutines, s.heapMB, s.liveMB = goStats(b, bt, stats)
				samples = append(samples, s)
				lastCPU, lastTime, lastTurns = cpuOf(b, pid), time.Now(), i+1
				b.Logf("%5d turns  rss %6.1f MB  heap %6.1f MB  live %6.1f MB  goroutines %4d  cpu %6.2f ms/turn  wall %6.1f ms/turn",
					s.turns, s.rssMB, s.heapMB, s.liveMB, s.goroutines, s.cpuPerTurn.Seconds()*1000, s.wall.Seconds()*1000)
			}
			if (i+1)%1000 == 0 && i+1 < turns {
				before, start := cpuOf(b, pid), time.Now()
				time.Sleep(idle)
				idleCPU += cpuOf(b, pid) - before
				idleWall += time.Since(start)
				lastCPU, lastTime = cpuOf(b, pid), time.Now()
			}
		}
		bt.stop()
		if len(samples) < 2 {
			b.Fatalf("%d turns gave %d samples: raise SOAK_TURNS or lower SOAK_SAMPLE_EVERY", turns, len(samples))
		}
		reportSoak(b, samples, idleCPU, idleWall)
	}
}

// reportSoak reports the first fifth of the day against its end: resident memory, goroutines and CPU per
// turn, and the CPU of the idle stretches.
func reportSoak(b *testing.B, samples []soakSample, idleCPU, idleWall time.Duration) {
	early := samples[max(len(samples)/5-1, 0)]
	last := samples[len(samples)-1]
	mean := func(ss []soakSample) float64 {
		var sum time.Duration
		for _, s := range ss {
			sum += s.cpuPerTurn
		}
		return sum.Seconds() * 1000 / float64(len(ss))
	}
	fifth := max(len(samples)/5, 1)
	b.ReportMetric(float64(last.turns), "turns")
	b.ReportMetric(early.rssMB, "rss-early-MB")
	b.ReportMetric(last.rssMB, "rss-last-MB")
	b.ReportMetric(early.liveMB, "live-early-MB")
	b.ReportMetric(last.liveMB, "live-last-MB")
	b.ReportMetric(float64(early.goroutines), "goroutines-early")
	b.ReportMetric(float64(last.goroutines), "goroutines-last")
	b.ReportMetric(mean(samples[:fifth]), "cpu-early-ms/turn")
	b.ReportMetric(mean(samples[len(samples)-fifth:]), "cpu-last-ms/turn")
	if idleWall > 0 {
		b.ReportMetric(100*idleCPU.Seconds()/idleWall.Seconds(), "idle-cpu-%")
	}
}

// rssMB is the process's resident memory now.
func rssMB(b *testing.B, pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

// goStats asks the program for its goroutines and heap (SIGUSR1, app/benchstats.go) and waits for the
// line it appends to file.
func goStats(b *testing.B, bt *benchTerminal, file string) (goroutines int, heapMB, liveMB float64) {
	b.Helper()
	before := countLines(file)
	bt.cmd.Process.Signal(syscall.SIGUSR1)
	deadline := time.Now().Add(10 * time.Second)
	for countLines(file) <= before {
		if time.Now().After(deadline) {
			b.Fatal("the program wrote no stats after SIGUSR1")
		}
		time.Sleep(10 * time.Millisecond)
	}
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var last string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		last = sc.Text()
	}
	var st struct {
		Goroutines int    `json:"goroutines"`
		HeapAlloc  uint64 `json:"heap_alloc"`
		LiveHeap   uint64 `json:"live_heap"`
	}
	if err := json.Unmarshal([]byte(last), &st); err != nil {
		b.Fatal(err)
	}
	return st.Goroutines, float64(st.HeapAlloc) / (1 << 20), float64(st.LiveHeap) / (1 << 20)
}

func countLines(file string) int {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	return strings.Count(string(data), "\n")
}
