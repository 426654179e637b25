package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxRun is the real binary run by a shell command line in a tmux pane, on a tmux server of its own: what
// a person types in their shell (echo hi | warden "say it"), with the pane as the terminal.
type tmuxRun struct {
	t      *testing.T
	socket string
	exit   string // the file the pane's shell writes warden's exit status to
}

// startTmux runs shell (a command line in which $WARDEN is the binary) in r's workspace and environment,
// in a pane of 120x40.
func startTmux(t *testing.T, r *invocation, shell string) *tmuxRun {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed for this test (apt-get install tmux)")
	}
	dir := t.TempDir()
	tr := &tmuxRun{t: t, socket: fmt.Sprintf("warden-e2e-%d-%s", os.Getpid(), filepath.Base(dir)), exit: filepath.Join(dir, "exit")}
	var env strings.Builder
	for _, kv := range append(append([]string(nil), r.env...), "TERM=xterm-256color", "WARDEN="+binary) {
		env.WriteString(shellQuote(kv) + " ")
	}
	line := fmt.Sprintf("cd %s && env -i %s sh -c %s; echo $? > %s", shellQuote(r.workspace), env.String(), shellQuote(shell), shellQuote(tr.exit))
	tr.tmux("-f", "/dev/null", "new-session", "-d", "-s", "w", "-x", "120", "-y", "40", line)
	tr.tmux("set-option", "-t", "w", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tr.socket, "kill-server").Run() })
	return tr
}

func (tr *tmuxRun) tmux(args ...string) string {
	tr.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tr.socket}, args...)...).CombinedOutput()
	if err != nil {
		tr.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the pane's text now.
func (tr *tmuxRun) screen() string { return tr.tmux("capture-pane", "-p", "-t", "w") }

// waitFor waits until the pane shows every one of want, and returns the screen.
func (tr *tmuxRun) waitFor(want ...string) string {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tr.screen()
		missing := ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tr.t.Fatalf("the screen never showed %q; it shows:\n%s", missing, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// keys sends keys to the pane as tmux names them (Enter, C-c), literal with -l.
func (tr *tmuxRun) keys(args ...string) {
	tr.tmux(append([]string{"send-keys", "-t", "w"}, args...)...)
}

// exitCode waits for the pane's command to end and returns warden's exit status.
func (tr *tmuxRun) exitCode() int {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(tr.exit); err == nil && strings.HasSuffix(string(b), "\n") {
			code, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				tr.t.Fatal(err)
			}
			return code
		}
		if time.Now().After(deadline) {
			tr.t.Fatalf("warden did not end; the screen:\n%s", tr.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
