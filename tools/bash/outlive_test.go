package bash

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/jail"
	"github.com/warden-cli/warden/tools/sandbox"
)

// warden9 plays a Warden that runs commands, and then is killed with SIGKILL by TestNothingOutlivesWarden:
// it starts a foreground command and a background task, each leaving processes in its group, in a
// session of its own and double-forked, all running `sleep` with the duration in WARDEN_TEST_MARK; it
// says "ready" once they all run, and then waits to be killed. WARDEN_TEST_SANDBOX picks a sandbox
// backend, or with "jail-" before it a backend of the read-only jail, where the calls then run.
func warden9() int {
	mark := os.Getenv("WARDEN_TEST_MARK")
	self, _ := os.Executable()
	tasks := NewTasks()
	tasks.Helper = self
	env := tools.NewEnv(os.Getenv("WARDEN_TEST_WS"), os.Getenv("WARDEN_TEST_SESSION"))
	jailed := false
	if b, ok := strings.CutPrefix(os.Getenv("WARDEN_TEST_SANDBOX"), "jail-"); ok {
		env.Bash.Jail, tasks.JailBackend, jailed = true, jail.Backend(b), true
	} else if b != "" {
		env.Bash.Sandbox = sandbox.Config{Enabled: true, Backend: sandbox.Backend(b)}
	}
	bash := NewTools(tasks)
	leave := fmt.Sprintf("sleep %s & setsid sleep %s & (setsid sh -c 'sleep %s & exit 0' &) ; sleep 0.2; echo ready; ", mark, mark, mark)
	run := func(id string, params map[string]any) tools.Result {
		in, _ := json.Marshal(params)
		return bash[0].Run(context.Background(), env, tools.Call{ID: id, Input: in, Jailed: jailed})
	}
	if r := run("bg", map[string]any{"command": leave + "sleep " + mark, "run_in_background": true}); r.BackgroundID == "" {
		fmt.Println("background failed:", r.Output)
		return 1
	}
	// The foreground command says it runs by printing (a jailed one could not write a file).
	ready := make(chan struct{})
	var once sync.Once
	go func() {
		in, _ := json.Marshal(map[string]any{"command": leave + "echo fg-ready; sleep " + mark, "timeout": 600000})
		bash[0].Run(context.Background(), env, tools.Call{ID: "fg", Input: in, Jailed: jailed, Output: func(s string) {
			if strings.Contains(s, "fg-ready") {
				once.Do(func() { close(ready) })
			}
		}})
	}()
	<-ready
	fmt.Println("ready")
	select {}
}

// After Warden is killed with SIGKILL, nothing its commands started is left running a few seconds
// later: foreground or background, in their group or out of it, sandboxed or not.
func TestNothingOutlivesWarden(t *testing.T) {
	t.Parallel()
	modes := []string{""}
	for _, b := range []sandbox.Backend{sandbox.Bubblewrap, sandbox.Landlock} {
		if _, err := sandbox.Probe(sandbox.Config{Backend: b}, testPrograms); err == nil {
			modes = append(modes, string(b))
		}
	}
	for _, b := range wallBackends(t) {
		modes = append(modes, "jail-"+string(b))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range modes {
		name := mode
		if name == "" {
			name = "unsandboxed"
		}
		t.Run(name, func(t *testing.T) {
			mark := fmt.Sprintf("%d.%d", 1000+os.Getpid()%997, time.Now().UnixNano()%100000)
			ws := t.TempDir()
			cmd := exec.Command(self)
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "WARDEN_TEST_WARDEN9=1", "WARDEN_TEST_MARK="+mark, "WARDEN_TEST_WS="+ws,
				"WARDEN_TEST_SESSION="+t.TempDir(), "WARDEN_TEST_SANDBOX="+mode, "TMPDIR="+t.TempDir())
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(out)
				sc.Scan()
				line <- sc.Text()
			}()
			select {
			case l := <-line:
				if l != "ready" {
					cmd.Process.Kill()
					t.Fatalf("the Warden stand-in said %q", l)
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the Warden stand-in did not get its commands running")
			}
			sleepers := func() []int {
				return livePids(func(pid int) bool {
					b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
					return strings.Contains(string(b), mark)
				})
			}
			// Two commands, each with its own sleep, one in the group, one setsid, one double-forked.
			if n := len(sleepers()); n < 8 {
				t.Fatalf("only %d sleepers run before the kill", n)
			}
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			eventually(t, 5*time.Second, "every process the commands started is gone", func() bool {
				return len(sleepers()) == 0
			})
		})
	}
}
