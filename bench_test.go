package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/creack/pty"

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
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	}()
	var seen []byte
	buf := make([]byte, 64<<10)
	f.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		n, err := f.Read(buf)
		seen = append(seen, buf[:n]...)
		if bytes.Contains(seen, []byte(marker)) {
			return time.Since(start)
		}
		if err != nil {
			b.Fatalf("%v never showed %q: %v\n%q", argv, marker, err, seen)
		}
	}
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
	n := float64(b.N)
	b.ReportMetric(float64(warden.Milliseconds())/n, "warden-ms")
	b.ReportMetric(float64(base.Microseconds())/n/1000, "bash-ms")
	b.ReportMetric(float64(warden)/float64(base), "ratio")
}

// BenchmarkVersion: `warden --version` against `bash -c true`.
func BenchmarkVersion(b *testing.B) {
	var warden, base time.Duration
	for b.Loop() {
		start := time.Now()
		if err := exec.Command(binary, "--version").Run(); err != nil {
			b.Fatal(err)
		}
		warden += time.Since(start)
		start = time.Now()
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		base += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(warden.Microseconds())/n/1000, "warden-ms")
	b.ReportMetric(float64(base.Microseconds())/n/1000, "bash-ms")
	b.ReportMetric(float64(warden)/float64(base), "ratio")
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
		start = time.Now()
		if err := exec.Command(binary, "--version").Run(); err != nil {
			b.Fatal(err)
		}
		base += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(warden.Microseconds())/n/1000, "warden-ms")
	b.ReportMetric(float64(base.Microseconds())/n/1000, "version-ms")
	b.ReportMetric(float64(warden)/float64(base), "ratio")
}
