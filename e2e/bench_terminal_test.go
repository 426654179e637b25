package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
)

// What the full-screen program costs while it streams and while it waits, measured on the real binary in a
// pseudo-terminal that answers like a modern terminal: it reports synchronized output (mode 2026) as
// supported, so that frames are written as a person's terminal gets them.

// benchTerminal is the binary running in a pseudo-terminal of 120x40, its output drawn by a terminal
// emulator (which answers the program's queries) and also kept whole, for markers and counts. The output is
// read as it comes: a terminal that stops reading would stall the program.
type benchTerminal struct {
	b   *testing.B
	cmd *exec.Cmd
	pty *os.File
	emu *vt.SafeEmulator

	mu   sync.Mutex
	out  []byte
	seen chan struct{} // gets a value after every read
}

// syncQuery is the program's question whether the terminal supports synchronized output; syncAnswer is
// the answer of a terminal that does, with the mode off (the emulator does not know the mode).
const (
	syncQuery  = "\x1b[?2026$p"
	syncAnswer = "\x1b[?2026;2$y"
	syncStart  = "\x1b[?2026h"
)

func startBenchTerminal(b *testing.B, dir string, env []string, args ...string) *benchTerminal {
	b.Helper()
	return startBenchTerminalOf(b, binary, dir, env, args...)
}

func startBenchTerminalOf(b *testing.B, program, dir string, env []string, args ...string) *benchTerminal {
	b.Helper()
	cmd := exec.Command(program, args...)
	cmd.Dir, cmd.Env = dir, env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Fatal(err)
	}
	bt := &benchTerminal{b: b, cmd: cmd, pty: f, emu: vt.NewSafeEmulator(120, 40), seen: make(chan struct{}, 1)}
	go bt.read()
	go func() { _, _ = io.Copy(f, bt.emu) }() // the emulator's answers; ends with the test binary
	return bt
}

func (bt *benchTerminal) read() {
	buf := make([]byte, 64<<10)
	answered := false
	for {
		n, err := bt.pty.Read(buf)
		bt.mu.Lock()
		bt.out = append(bt.out, buf[:n]...)
		bt.emu.Write(buf[:n])
		ask := !answered && bytes.Contains(bt.out, []byte(syncQuery))
		bt.mu.Unlock()
		if ask {
			answered = true
			bt.pty.WriteString(syncAnswer)
		}
		select {
		case bt.seen <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// mark is how much output there is so far; waitFor looks only at what came after a mark.
func (bt *benchTerminal) mark() int {
	bt.mu.Lock()
	defer bt.mu.Unlock()
	return len(bt.out)
}

// waitFor waits until the output after from holds marker.
func (bt *benchTerminal) waitFor(from int, marker string, limit time.Duration) {
	bt.b.Helper()
	bt.waitUntil(limit, "the output to hold "+marker, func() bool { return bytes.Contains(bt.out[from:], []byte(marker)) })
}

// waitScreen waits until the screen does (or, with shows false, does not) show text.
func (bt *benchTerminal) waitScreen(text string, shows bool, limit time.Duration) {
	bt.b.Helper()
	bt.waitUntil(limit, fmt.Sprintf("the screen to show %q: %v", text, shows), func() bool {
		return strings.Contains(bt.emu.String(), text) == shows
	})
}

// waitUntil waits until ok, called under the lock, holds after some output.
func (bt *benchTerminal) waitUntil(limit time.Duration, what string, ok func() bool) {
	bt.b.Helper()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		bt.mu.Lock()
		done := ok()
		bt.mu.Unlock()
		if done {
			return
		}
		select {
		case <-bt.seen:
		case <-deadline.C:
			bt.mu.Lock()
			screen := bt.emu.String()
			bt.mu.Unlock()
			bt.b.Fatalf("waited %v for %s; the screen shows:\n%s", limit, what, screen)
		}
	}
}

// count counts s in the output after from.
func (bt *benchTerminal) count(from int, s string) int {
	bt.mu.Lock()
	defer bt.mu.Unlock()
	return bytes.Count(bt.out[from:], []byte(s))
}

func (bt *benchTerminal) stop() {
	bt.cmd.Process.Kill()
	bt.cmd.Wait()
	bt.pty.Close()
}

// cpuOf is the CPU time spent so far by process pid and every process below it (the session's
// supervisor and jail), summed over their threads from the scheduler's nanosecond counters.
func cpuOf(b *testing.B, pid int) time.Duration {
	self, below := cpuSplit(b, pid)
	return self + below
}

// cpuSplit is cpuOf apart: the process itself, and the processes below it.
func cpuSplit(b *testing.B, pid int) (self, below time.Duration) {
	b.Helper()
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command's name, which is in brackets and may hold spaces.
		rest := stat[bytes.LastIndexByte(stat, ')')+2:]
		if f := strings.Fields(string(rest)); len(f) > 1 {
			ppid, _ := strconv.Atoi(f[1])
			children[ppid] = append(children[ppid], p)
		}
	}
	threads := func(p int) time.Duration {
		var total time.Duration
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", p))
		for _, t := range tasks {
			s, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", p, t.Name()))
			if err != nil {
				continue
			}
			ns, _ := strconv.ParseInt(strings.Fields(string(s))[0], 10, 64)
			total += time.Duration(ns)
		}
		return total
	}
	var walk func(int)
	walk = func(p int) {
		below += threads(p)
		for _, c := range children[p] {
			walk(c)
		}
	}
	self = threads(pid)
	for _, c := range children[pid] {
		walk(c)
	}
	return self, below
}

// streamedAnswer is Markdown as a model writes it (headings, paragraphs, lists, code), about words long.
func streamedAnswer(words int, end string) string {
	var sb strings.Builder
	for i := 0; strings.Count(sb.String(), " ") < words; i++ {
		fmt.Fprintf(&sb, "## Step %d\n\nThe function `f%d` reads the **input**, checks it and writes the result; "+
			"it is called from the handler once per request, so it must not block on the network or the disk.\n\n"+
			"- it takes a context\n- it returns an error that wraps the cause\n\n"+
			"```go\nfunc f%d(ctx context.Context) error {\n\treturn ctx.Err()\n}\n```\n\n", i, i, i)
	}
	return sb.String() + end + "\n"
}

// pacedServer is a chat server that streams each answer one word an SSE event at a steady rate, each
// event sent at its own time from the start (start + n/rate), so that late timers under load do not
// slow the stream down as a fixed delay between events would. Answers are taken in order from answers.
type pacedServer struct {
	*httptest.Server
	rate    int
	answers chan string
}

func newPacedServer(wordsPerSecond int) *pacedServer {
	ps := &pacedServer{rate: wordsPerSecond, answers: make(chan string, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", ps.chat)
	ps.Server = httptest.NewServer(mux)
	return ps
}

func (ps *pacedServer) chat(w http.ResponseWriter, r *http.Request) {
	var answer string
	select {
	case answer = <-ps.answers:
	default:
		http.Error(w, `{"error": {"message": "no answer queued"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	event := func(delta, finish string) {
		choice := map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": nil}
		if delta != "" {
			choice["delta"] = map[string]any{"content": delta}
		}
		if finish != "" {
			choice["finish_reason"] = finish
		}
		data, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
			"choices": []any{choice}})
		fmt.Fprintf(w, "data: %s\n\n", data)
		rc.Flush()
	}
	start := time.Now()
	for i, word := range strings.SplitAfter(answer, " ") {
		if wait := time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(ps.rate))); wait > 0 {
			select {
			case <-time.After(wait):
			case <-r.Context().Done():
				return
			}
		}
		event(word, "")
	}
	event("", "stop")
	fmt.Fprint(w, "data: [DONE]\n\n")
	rc.Flush()
}

// BenchmarkStreamingInTerminal: the CPU the whole program spends while an answer streams at 2,000 words a
// second, one word an event, as a share of one core (the median answer's, and the mean), and the frames
// it writes a second. The server runs in the benchmark's process, so its cost is not counted. The
// baseline, measured in the same run after each answer, is the same answer streamed to `warden -p` (the
// provider, the agent's loop and the session's record, no screen): its CPU less that of a run whose answer
// is one word, so that the process's start is not counted. ratio is the program's CPU over the
// baseline's: what drawing the stream costs on top of receiving it, on whatever machine.
func BenchmarkStreamingInTerminal(b *testing.B) {
	const rate, words = 2000, 3000
	server := newPacedServer(rate)
	defer server.Close()
	dir, env := benchEnv(b)
	program, profile := binary, os.Getenv("WARDEN_BENCH_CPUPROFILE")
	if profile != "" {
		// A profile of the whole run: bench/run.sh never asks for one, a person looking for the cost does.
		program = statsBinary(b)
		env = append(env, "WARDEN_BENCH_CPUPROFILE="+profile)
	}
	bt := startBenchTerminalOf(b, program, dir, env, "--base-url", server.URL+"/v1", "--model", "m")
	defer bt.stop()
	bt.waitFor(0, "Ask Warden", 20*time.Second)
	// The helpers start 300 ms after the first frame; let them settle so that their start is not counted.
	time.Sleep(time.Second)
	var cpu, helpers, wall, headless time.Duration
	var frames, sent int
	var shares []float64 // each answer's, for the median
	for i := 0; b.Loop(); i++ {
		end := fmt.Sprintf("END-OF-ANSWER-%d", i)
		answer := streamedAnswer(words, end)
		server.answers <- answer
		from := bt.mark()
		self0, below0 := cpuSplit(b, bt.cmd.Process.Pid)
		start := time.Now()
		bt.pty.WriteString(fmt.Sprintf("question %d\r", i))
		bt.waitFor(from, end, 30*time.Second)
		took := time.Since(start)
		wall += took
		self1, below1 := cpuSplit(b, bt.cmd.Process.Pid)
		cpu += self1 - self0 + below1 - below0
		shares = append(shares, 100*(self1-self0+below1-below0).Seconds()/took.Seconds())
		helpers += below1 - below0
		frames += bt.count(from, syncStart)
		sent += strings.Count(answer, " ") + 1
		// The answer ends; the program goes back to waiting before the next one.
		bt.waitScreen("to interrupt", false, 10*time.Second)
		headless += headlessCPU(b, server, dir, env, answer) - headlessCPU(b, server, dir, env, "Yes.")
	}
	// The median answer's share: on a busy machine one answer that waited on others says little.
	slices.Sort(shares)
	b.ReportMetric(shares[len(shares)/2], "cpu-%")
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "mean-cpu-%")
	b.ReportMetric(float64(frames)/wall.Seconds(), "frames/s")
	b.ReportMetric(float64(sent)/wall.Seconds(), "words/s")
	b.ReportMetric(100*helpers.Seconds()/wall.Seconds(), "helpers-cpu-%")
	b.ReportMetric(100*headless.Seconds()/wall.Seconds(), "headless-cpu-%")
	b.ReportMetric(cpu.Seconds()/headless.Seconds(), "ratio")
	if profile != "" {
		bt.cmd.Process.Signal(syscall.SIGUSR2)
		waitForFile(b, profile)
	}
}

// headlessCPU is the CPU `warden -p` spends on a request whose answer server streams as answer, from its
// start to its end, its own and its children's.
func headlessCPU(b *testing.B, server *pacedServer, dir string, env []string, answer string) time.Duration {
	b.Helper()
	server.answers <- answer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-p", "question", "--base-url", server.URL+"/v1", "--model", "m")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("warden -p: %v: %.300s", err, out)
	}
	ps := cmd.ProcessState
	return ps.UserTime() + ps.SystemTime()
}

// statsBinary is Warden built with -tags benchstats (app/benchstats.go), once per run of the tests, beside
// the plain binary.
func statsBinary(b *testing.B) string {
	b.Helper()
	statsOnce.Do(func() {
		path := binary + "-benchstats"
		if out, err := exec.Command("go", "build", "-tags", "benchstats", "-o", path, "..").CombinedOutput(); err != nil {
			statsErr = fmt.Errorf("%v: %s", err, out)
			return
		}
		statsPath = path
	})
	if statsErr != nil {
		b.Fatal(statsErr)
	}
	return statsPath
}

var (
	statsOnce sync.Once
	statsPath string
	statsErr  error
)

// waitForFile waits until path exists, written whole by the program (it renames it into place).
func waitForFile(b *testing.B, path string) {
	b.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s never appeared", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkIdleInTerminal: the CPU the program spends with nothing to do (the prompt empty, nothing
// running) over ten seconds, as a share of one core, and how often it writes to the terminal then.
func BenchmarkIdleInTerminal(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	bt := startBenchTerminal(b, dir, env, "--base-url", server.URL(), "--model", "m")
	defer bt.stop()
	bt.waitFor(0, "Ask Warden", 20*time.Second)
	time.Sleep(2 * time.Second)
	var cpu, wall time.Duration
	writes := 0
	for b.Loop() {
		from := bt.mark()
		before := cpuOf(b, bt.cmd.Process.Pid)
		start := time.Now()
		time.Sleep(10 * time.Second)
		wall += time.Since(start)
		cpu += cpuOf(b, bt.cmd.Process.Pid) - before
		if bt.mark() > from {
			writes++
		}
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "cpu-%")
	b.ReportMetric(float64(writes)/float64(b.N), "periods-with-output")
}

// BenchmarkPackageInit: the time Go's package initialisation takes before main runs, as
// GODEBUG=inittrace=1 reports it for `warden --version`: the fastest of the runs and their median (the
// trace times the wall clock, so a busy machine adds its waits for a CPU to every package: the fastest run
// is the one that waited least), the median's share of the whole run, and the heaviest package.
func BenchmarkPackageInit(b *testing.B) {
	var inits []time.Duration
	var run time.Duration
	heaviest := map[string]time.Duration{}
	for b.Loop() {
		cmd := exec.Command(binary, "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("warden --version: %v: %s", err, stderr.String())
		}
		run += time.Since(start)
		// init PKG @0.5 ms, 0.012 ms clock, 160 bytes, 4 allocs
		var total time.Duration
		for _, line := range strings.Split(stderr.String(), "\n") {
			f := strings.Fields(line)
			if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
				continue
			}
			ms, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				continue
			}
			d := time.Duration(ms * float64(time.Millisecond))
			total += d
			heaviest[f[1]] += d
		}
		inits = append(inits, total)
	}
	slices.Sort(inits)
	median, fastest := inits[len(inits)/2], inits[0]
	top, topTime := "", time.Duration(0)
	for pkg, d := range heaviest {
		if d > topTime {
			top, topTime = pkg, d
		}
	}
	n := float64(b.N)
	b.ReportMetric(median.Seconds()*1000, "init-ms")
	b.ReportMetric(fastest.Seconds()*1000, "fastest-init-ms")
	b.ReportMetric(median.Seconds()*n/run.Seconds(), "share-of-version")
	b.ReportMetric(topTime.Seconds()*1000/n, "heaviest-ms")
	b.Logf("heaviest package: %s", top)
}

// BenchmarkResumeLongSession: the first frame of `warden --continue` on a session of 5,000 turns (a
// question and an answer each, every tenth with a tool call and its output), against a new session's.
func BenchmarkResumeLongSession(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	writeTurns(b, filepath.Join(stateHome(env), "warden", "sessions"), dir, 5000)
	freshDir, freshEnv := benchEnv(b)
	var resumed, fresh time.Duration
	for b.Loop() {
		resumed += firstFrame(b, dir, env, "Ask Warden", binary, "--continue", "--base-url", server.URL(), "--model", "m")
		fresh += firstFrame(b, freshDir, freshEnv, "Ask Warden", binary, "--base-url", server.URL(), "--model", "m")
	}
	reportAgainst(b, resumed, fresh, "new-session-ms")
}

// stateHome is XDG_STATE_HOME in env.
func stateHome(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return v
		}
	}
	return ""
}

// writeTurns writes a session of turns turns: a question and a Markdown answer each, and every tenth a
// tool call with a few kilobytes of output between them.
func writeTurns(b *testing.B, dir, cwd string, turns int) {
	b.Helper()
	st, err := agent.CreateStore(dir, "20260101-000000-turns", cwd, "m")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	add := func(m openai.ChatCompletionMessage) {
		st.Append(agent.Record{Type: agent.RecMessage, Message: &m}, false)
	}
	output := strings.Repeat("a line of command output, as builds print them\n", 60)
	for i := range turns {
		add(openai.ChatCompletionMessage{Role: "user", Content: fmt.Sprintf("Question %d: what does f%d do?", i, i)})
		if i%10 == 0 {
			id := fmt.Sprintf("call_%d", i)
			add(openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: id, Type: "function",
				Function: openai.FunctionCall{Name: "bash", Arguments: `{"command":"go build ./..."}`}}}})
			code := 0
			st.Append(agent.Record{Type: agent.RecToolCall, CallID: id, Name: "bash", Summary: "go build ./..."}, false)
			st.Append(agent.Record{Type: agent.RecToolResult, CallID: id, Name: "bash", Output: &output, ExitCode: &code}, false)
			add(openai.ChatCompletionMessage{Role: "tool", ToolCallID: id, Content: output})
		}
		add(openai.ChatCompletionMessage{Role: "assistant", Content: fmt.Sprintf("Function `f%d` **adds** numbers:\n\n- it takes two ints\n- it returns their sum\n\n```go\nfunc f%d(a, b int) int { return a + b }\n```", i, i)})
	}
}
