package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
)

// Whole-program benchmarks of the real binary. Each iteration measures Warden and a baseline in the same
// run, so the reported ratio means the same on a fast and a slow machine; bench/run.sh prints them.

// firstFrame starts argv in a pseudo-terminal of 120x40 and returns how long it took until the output
// contained marker.
func firstFrame(b *testing.B, dir string, env []string, marker string, argv ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Fatal(err)
	}
	defer stopInTerminal(cmd, f)
	if seen, err := readUntil(f, marker, 10*time.Second); err != nil {
		b.Fatalf("%v never showed %q: %v\n%q", argv, marker, err, seen)
	}
	return time.Since(start)
}

// readUntil reads the terminal f until its output holds marker, for at most limit. creack/pty hands back
// the terminal in blocking mode, where SetReadDeadline never fires, so the reads run on a goroutine of their
// own and the limit is a timer: a program that never draws the marker fails the benchmark instead of
// hanging bench/run.sh. The caller stops the program, which ends the pending read.
func readUntil(f *os.File, marker string, limit time.Duration) ([]byte, error) {
	type chunk struct {
		data []byte
		err  error
	}
	chunks := make(chan chunk, 16)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			buf := make([]byte, 64<<10)
			n, err := f.Read(buf)
			select {
			case chunks <- chunk{buf[:n], err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	var seen []byte
	for {
		select {
		case c := <-chunks:
			seen = append(seen, c.data...)
			if bytes.Contains(seen, []byte(marker)) {
				return seen, nil
			}
			if c.err != nil {
				return seen, c.err
			}
		case <-timer.C:
			return seen, fmt.Errorf("nothing more after %v", limit)
		}
	}
}

// stopInTerminal kills a program started in a pseudo-terminal and closes the terminal.
func stopInTerminal(cmd *exec.Cmd, f *os.File) {
	cmd.Process.Kill()
	cmd.Wait()
	f.Close()
}

// benchEnv is an isolated HOME and XDG directories.
func benchEnv(b *testing.B) (dir string, env []string) {
	root := b.TempDir()
	dir = filepath.Join(root, "ws")
	os.MkdirAll(dir, 0o755)
	return dir, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "TERM=xterm-256color",
		"XDG_CONFIG_HOME=" + filepath.Join(root, "config"), "XDG_STATE_HOME=" + filepath.Join(root, "state")}
}

// BenchmarkStartupFirstFrame: from exec to the input prompt on screen, against bash printing the same
// marker in the same pseudo-terminal.
func BenchmarkStartupFirstFrame(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	var warden, base time.Duration
	for b.Loop() {
		warden += firstFrame(b, dir, env, "Ask Warden", binary, "--base-url", server.URL(), "--model", "m")
		base += firstFrame(b, dir, env, "Ask Warden", "bash", "-c", "printf 'Ask Warden'; sleep 1")
	}
	reportAgainst(b, warden, base, "bash-ms")
}

// reportAgainst reports the mean time of Warden's runs, of the baseline's (named baseName), and their ratio.
func reportAgainst(b *testing.B, warden, base time.Duration, baseName string) {
	n := float64(b.N)
	b.ReportMetric(float64(warden.Microseconds())/n/1000, "warden-ms")
	b.ReportMetric(float64(base.Microseconds())/n/1000, baseName)
	b.ReportMetric(float64(warden)/float64(base), "ratio")
}

// timeRun runs a command to its end and returns how long it took.
func timeRun(b *testing.B, name string, args ...string) time.Duration {
	b.Helper()
	start := time.Now()
	if err := exec.Command(name, args...).Run(); err != nil {
		b.Fatalf("%s %v: %v", name, args, err)
	}
	return time.Since(start)
}

// BenchmarkVersion: `warden --version` against `bash -c true`.
func BenchmarkVersion(b *testing.B) {
	var warden, base time.Duration
	for b.Loop() {
		warden += timeRun(b, binary, "--version")
		base += timeRun(b, "bash", "-c", "true")
	}
	reportAgainst(b, warden, base, "bash-ms")
}

// BenchmarkHeadlessRoundTrip: a one-tool request (`ls`) against the fake server, start to exit, against
// the baseline of `warden --version` (the process's own start-up cost).
func BenchmarkHeadlessRoundTrip(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	var warden, base time.Duration
	for b.Loop() {
		server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"ls"}`), fakeapi.Text("done"))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, binary, "-p", "list", "--base-url", server.URL(), "--model", "m", "--output-format", "json")
		cmd.Dir, cmd.Env = dir, env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			cancel()
			b.Fatalf("%v: %s", err, out)
		}
		warden += time.Since(start)
		cancel()
		base += timeRun(b, binary, "--version")
	}
	reportAgainst(b, warden, base, "version-ms")
}

// BenchmarkPeakRSS: the TUI resumes a 1,000-message session (with tool calls and outputs) and draws it;
// the figure is the process's peak resident memory (VmHWM) once the first frame is on screen.
func BenchmarkPeakRSS(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	state := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	writeLongSession(b, filepath.Join(state, "warden", "sessions"), dir, 1000)
	var peak float64
	for b.Loop() {
		cmd := exec.Command(binary, "--continue", "--base-url", server.URL(), "--model", "m")
		cmd.Dir, cmd.Env = dir, env
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
		if err != nil {
			b.Fatal(err)
		}
		if seen, err := readUntil(f, "Ask Warden", 20*time.Second); err != nil {
			stopInTerminal(cmd, f)
			b.Fatalf("never showed %q: %v\n%q", "Ask Warden", err, seen)
		}
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			stopInTerminal(cmd, f)
			b.Fatal(err)
		}
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
				peak = max(peak, float64(kb)/1024)
			}
		}
		stopInTerminal(cmd, f)
	}
	b.ReportMetric(peak, "peak-rss-MB")
}

// writeLongSession writes a session of n messages: questions, answers with markdown, and every tenth
// answer a tool call with a few kilobytes of output.
func writeLongSession(b *testing.B, dir, cwd string, n int) {
	b.Helper()
	st, err := agent.CreateStore(dir, "20260101-000000-bench", cwd, "m")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	add := func(m openai.ChatCompletionMessage) {
		st.Append(agent.Record{Type: agent.RecMessage, Message: &m}, false)
	}
	output := strings.Repeat("a line of command output, as builds print them\n", 60)
	for i := 0; i < n; {
		add(openai.ChatCompletionMessage{Role: "user", Content: fmt.Sprintf("Question %d: what does f%d do?", i, i)})
		i++
		if i%10 == 1 {
			id := fmt.Sprintf("call_%d", i)
			add(openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: id, Type: "function",
				Function: openai.FunctionCall{Name: "bash", Arguments: `{"command":"go build ./..."}`}}}})
			code := 0
			st.Append(agent.Record{Type: agent.RecToolCall, CallID: id, Name: "bash", Summary: "go build ./..."}, false)
			st.Append(agent.Record{Type: agent.RecToolResult, CallID: id, Name: "bash", Output: &output, ExitCode: &code}, false)
			add(openai.ChatCompletionMessage{Role: "tool", ToolCallID: id, Content: output})
			i += 2
		}
		add(openai.ChatCompletionMessage{Role: "assistant", Content: fmt.Sprintf("Function `f%d` **adds** numbers:\n\n- it takes two ints\n- it returns their sum\n\n```go\nfunc f%d(a, b int) int { return a + b }\n```", i, i)})
		i++
	}
}
