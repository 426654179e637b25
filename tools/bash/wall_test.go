package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/files"
	"github.com/warden-cli/warden/tools/jail"
	"github.com/warden-cli/warden/tools/sandbox"
)

// wallBackends are the jail backends this machine has.
func wallBackends(t *testing.T) []jail.Backend {
	t.Helper()
	var out []jail.Backend
	for _, b := range []jail.Backend{jail.Bubblewrap, jail.Landlock} {
		if _, err := probeWall(sandbox.NewProber(), testHelper(t), testPrograms, b); err != nil {
			t.Logf("%s: %v", b, err)
			continue
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		needOrSkip(t, "no backend for the read-only jail on this machine")
	}
	return out
}

// testSecret stands in for the permission engine's judge of secret paths (wiring passes
// permissions.IsSecretPath, which tools may not import).
func testSecret(p string) bool {
	base := filepath.Base(p)
	switch {
	case strings.HasPrefix(base, ".env"), strings.HasSuffix(base, ".env"), base == "id_rsa", base == ".netrc",
		base == "credentials", strings.HasSuffix(base, ".key"):
		return true
	}
	return strings.Contains(p+"/", "/.ssh/") || strings.Contains(p+"/", "/.aws/") || strings.Contains(p+"/", "/.mozilla/")
}

// jailHarness returns a harness whose Jailed calls run in the jail built with b.
func jailHarness(t *testing.T, b jail.Backend) *harness {
	t.Helper()
	h := newHarness(t)
	h.env.Bash.Jail = true
	h.env.Secret = testSecret
	h.tasks.JailBackend = b
	return h
}

// runJailed runs command as a call judged read-only.
func (h *harness) runJailed(command string) tools.Result {
	h.t.Helper()
	in, _ := json.Marshal(map[string]any{"command": command})
	return h.bash.Run(context.Background(), h.env, tools.Call{ID: "jailed", Input: in, Jailed: true})
}

// testHome makes a home directory with keys in it and points HOME at it. It is made outside /tmp when it
// can be, since bubblewrap's jail replaces /tmp, and a key there would be out of reach for that reason
// alone.
func testHome(t *testing.T) string {
	t.Helper()
	home, err := os.MkdirTemp("/var/tmp", "warden-home-")
	if err != nil {
		home = t.TempDir()
	} else {
		t.Cleanup(func() { os.RemoveAll(home) })
	}
	write(t, filepath.Join(home, ".ssh", "id_rsa"), "ssh-key-secret\n")
	write(t, filepath.Join(home, ".aws", "credentials"), "aws-secret\n")
	write(t, filepath.Join(home, ".netrc"), "netrc-secret\n")
	t.Setenv("HOME", home)
	return home
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listen accepts TCP connections on loopback and counts them.
func listen(t *testing.T) (port int, accepted *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted = &atomic.Int32{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, accepted
}

// A command judged read-only runs in the jail: it reads what it likes, except keys, credentials and .env
// files (also through a hard link), writes nothing outside its TMPDIR, reaches no network, and cannot read
// Warden's environment. The model is told why what failed failed.
func TestWallStopsWritesNetworkAndKeys(t *testing.T) {
	home := testHome(t)
	t.Setenv("WARDEN_TEST_API_KEY", "sk-warden-test-0123456789")
	port, accepted := listen(t)
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			ws := h.env.Workspace
			write(t, filepath.Join(ws, "README"), "hello from the workspace\n")
			write(t, filepath.Join(ws, ".env"), "TOKEN=env-secret\n")
			write(t, filepath.Join(ws, "svc", "api", ".env.local"), "TOKEN=deep-env-secret\n")
			if err := os.Link(filepath.Join(ws, ".env"), filepath.Join(ws, "notes.txt")); err != nil {
				t.Fatal(err)
			}

			if r := h.runJailed("cat README && echo t > \"$TMPDIR/scratch\" && cat \"$TMPDIR/scratch\""); r.IsError ||
				!strings.Contains(r.Output, "hello from the workspace") {
				t.Errorf("an ordinary read-only command failed in the jail: %s", r.Output)
			}

			for _, cmd := range []string{
				"echo x > marker", "touch " + home + "/marker", "mkdir newdir", "rm README", "mv README moved",
				"echo x >> README", "touch /var/tmp/warden-wall-marker",
			} {
				r := h.runJailed(cmd)
				if !r.IsError {
					t.Errorf("%q succeeded in the jail: %s", cmd, r.Output)
				}
				if !strings.Contains(r.Output, "read-only jail") || !strings.Contains(r.Output, "dangerously_unsandboxed") {
					t.Errorf("%q: the model is not told about the jail: %s", cmd, r.Output)
				}
			}
			for _, p := range []string{filepath.Join(ws, "marker"), filepath.Join(home, "marker"), filepath.Join(ws, "newdir"),
				filepath.Join(ws, "moved"), "/var/tmp/warden-wall-marker"} {
				if _, err := os.Stat(p); err == nil {
					os.Remove(p)
					t.Errorf("%s was written from the jail", p)
				}
			}
			if got, _ := os.ReadFile(filepath.Join(ws, "README")); string(got) != "hello from the workspace\n" {
				t.Errorf("README changed: %q", got)
			}

			r := h.runJailed(fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port))
			if !r.IsError || strings.Contains(r.Output, "connected") || !strings.Contains(r.Output, "no network") {
				t.Errorf("connecting from the jail: %s", r.Output)
			}
			if n := accepted.Load(); n != 0 {
				t.Errorf("the listener accepted %d connections from the jail", n)
			}

			secrets := []string{"env-secret", "deep-env-secret", "ssh-key-secret", "aws-secret", "netrc-secret",
				"sk-warden-test"}
			for _, cmd := range []string{
				"cat .env", "cat svc/api/.env.local", "cat notes.txt", "cat ~/.ssh/id_rsa", "cat ~/.aws/credentials",
				"cat ~/.netrc", "grep -r TOKEN . ; grep -r secret ~", fmt.Sprintf("cat /proc/%d/environ", os.Getpid()),
				"cat /proc/*/environ | tr '\\0' '\\n' | grep sk-warden",
			} {
				r := h.runJailed(cmd)
				for _, s := range secrets {
					if strings.Contains(r.Output, s) {
						t.Errorf("%q read %q in the jail: %s", cmd, s, r.Output)
					}
				}
			}
			if r := h.runJailed("cat ~/.ssh/id_rsa"); !strings.Contains(r.Output, "cannot be read") {
				t.Errorf("a masked key's failure is not explained: %s", r.Output)
			}
		})
	}
}

// Masks are found by a scan before the jail starts; a secret file written afterwards by a command that ran
// outside the jail, or by write_file, is masked before the next jailed command runs.
func TestWallMasksSecretsWrittenLater(t *testing.T) {
	testHome(t)
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			h.env.SecretWritten = h.tasks.SecretsChanged
			if r := h.runJailed("true"); r.IsError {
				t.Fatalf("the jail does not run: %s", r.Output)
			}
			if r := h.run("echo TOKEN=written-late > .env"); r.IsError { // not jailed: a person approved it
				t.Fatal(r.Output)
			}
			if r := h.runJailed("cat .env"); strings.Contains(r.Output, "written-late") {
				t.Errorf("a .env written by an approved command was readable in the jail: %s", r.Output)
			}

			h.env.Resolve = func(cwd, p string) string {
				if filepath.IsAbs(p) {
					return p
				}
				return filepath.Join(cwd, p)
			}
			in, _ := json.Marshal(map[string]any{"path": "prod.env", "content": "TOKEN=tool-written\n"})
			wf, _ := tools.NewRegistry(files.NewTools()...).Get("write_file")
			if r := wf.Run(context.Background(), h.env, tools.Call{ID: "w", Input: in}); r.IsError {
				t.Fatal(r.Output)
			}
			if r := h.runJailed("cat prod.env"); strings.Contains(r.Output, "tool-written") {
				t.Errorf("a .env written by write_file was readable in the jail: %s", r.Output)
			}
		})
	}
}

// Programs a read-only command starts because the working tree says so run inside the jail too, whatever
// the classifier makes of them: git's core.fsmonitor (git status) and diff.external (git diff), rustup's
// toolchain path (rustc --version), npm's git= in .npmrc (npm view). Each writes a marker file; in the jail
// none appears, while outside it each does, which shows the vector is real.
func TestWallHoldsProgramsTheWorkingTreeStarts(t *testing.T) {
	// rustup finds its toolchains through HOME, which testHome replaces.
	if home, err := os.UserHomeDir(); err == nil {
		if os.Getenv("RUSTUP_HOME") == "" {
			t.Setenv("RUSTUP_HOME", filepath.Join(home, ".rustup"))
		}
		if os.Getenv("CARGO_HOME") == "" {
			t.Setenv("CARGO_HOME", filepath.Join(home, ".cargo"))
		}
	}
	testHome(t)
	type vector struct {
		name, program, setup, command string
	}
	vectors := []vector{
		{"git core.fsmonitor", "git", "git init -q && git config user.email a@b && git config user.name a && echo a > f && " +
			"git add f && git commit -qm one && echo b > f && git config core.fsmonitor \"$HOOK fsmonitor\"", "git status"},
		{"git diff.external", "git", "git init -q && git config user.email a@b && git config user.name a && echo a > f && " +
			"git add f && git commit -qm one && echo b > f && git config diff.external \"$HOOK diff\"", "git diff"},
		{"rustup toolchain path", "rustc", "mkdir -p tc/bin && cp \"$HOOK\" tc/bin/rustc && " +
			"printf '[toolchain]\\npath = \"%s/tc\"\\n' \"$PWD\" > rust-toolchain.toml", "rustc --version"},
		{"npm git=", "npm", "printf 'git=%s\\n' \"$HOOK\" > .npmrc", "npm view git+file:///nonexistent/repo version"},
	}
	for _, b := range wallBackends(t) {
		for _, v := range vectors {
			t.Run(string(b)+"/"+v.name, func(t *testing.T) {
				if _, err := exec.LookPath(v.program); err != nil {
					if v.program == "git" {
						needOrSkip(t, "git is not installed") // .ci/run installs it
					}
					t.Skipf("%s is not installed: this vector is covered where it is", v.program)
				}
				h := jailHarness(t, b)
				ws := h.env.Workspace
				marker := filepath.Join(ws, "marker")
				hook := filepath.Join(ws, "hook.sh")
				write(t, hook, "#!/bin/sh\necho ran > "+marker+"\necho rustc 0.0.0\n")
				os.Chmod(hook, 0o755)
				if r := h.run("HOOK=" + hook + "; " + v.setup); r.IsError {
					t.Fatal(r.Output)
				}
				r := h.runJailed(v.command)
				if _, err := os.Stat(marker); err == nil {
					t.Fatalf("the program %s names wrote its marker from the jail: %s", v.name, r.Output)
				}
				in, _ := json.Marshal(map[string]any{"command": v.command, "timeout": 60000})
				h.bash.Run(context.Background(), h.env, tools.Call{ID: "outside", Input: in})
				if _, err := os.Stat(marker); err != nil {
					t.Errorf("outside the jail %s did not run the program either; the check above proves nothing", v.command)
				}
			})
		}
	}
}

// In the jail the bash tool works as it does elsewhere: a clean repository's git status, a cd that
// carries over, a background task, a timeout that stops the command and what it started.
func TestWallKeepsTheBashToolWorking(t *testing.T) {
	testHome(t)
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			ws := h.env.Workspace
			if r := h.run("mkdir -p sub && git init -q && echo x > sub/f"); r.IsError {
				t.Fatal(r.Output)
			}
			if r := h.runJailed("git status --short && ls sub && seq 100000 | sort -rn | head -1"); r.IsError ||
				!strings.Contains(r.Output, "sub/") || !strings.Contains(r.Output, "100000") {
				t.Errorf("ordinary read-only commands: %s", r.Output)
			}
			h.runJailed("cd sub")
			if r := h.runJailed("pwd"); strings.TrimSpace(r.Output) != filepath.Join(ws, "sub") {
				t.Errorf("cd did not carry over in the jail: %s", r.Output)
			}
			h.env.SetCwd(ws)

			in, _ := json.Marshal(map[string]any{"command": "echo started; sleep 30", "run_in_background": true})
			r := h.bash.Run(context.Background(), h.env, tools.Call{ID: "bg", Input: in, Jailed: true})
			if r.BackgroundID == "" {
				t.Fatalf("no background task: %s", r.Output)
			}
			eventually(t, 10*time.Second, "the jailed task prints", func() bool {
				return strings.Contains(h.call(context.Background(), h.output, "o", map[string]any{"id": r.BackgroundID}, nil).Output, "started")
			})
			if k := h.call(context.Background(), h.kill, "k", map[string]any{"id": r.BackgroundID}, nil); !strings.Contains(k.Output, "stopped by kill_bash") {
				t.Errorf("kill_bash: %s", k.Output)
			}

			mark := fmt.Sprintf("%d.%d", 300+os.Getpid()%97, time.Now().UnixNano()%10000)
			in, _ = json.Marshal(map[string]any{"command": "setsid sleep " + mark + " & sleep " + mark, "timeout": 500})
			r = h.bash.Run(context.Background(), h.env, tools.Call{ID: "t", Input: in, Jailed: true})
			if !r.TimedOut {
				t.Errorf("no timeout: %+v", r)
			}
			eventually(t, 10*time.Second, "the jailed sleepers are gone", func() bool {
				return len(livePids(func(pid int) bool {
					b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
					return strings.Contains(string(b), mark)
				})) == 0
			})
		})
	}
}

// With the jail off (sandbox.jail false), a call judged read-only runs as any other.
func TestWallOffRunsAsBefore(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Secret = testSecret
	if r := h.runJailed("echo x > written"); r.IsError {
		t.Fatalf("with the jail off a read-only call failed: %s", r.Output)
	}
	if _, err := os.Stat(filepath.Join(h.env.Workspace, "written")); err != nil {
		t.Error("with the jail off the command did not write")
	}
}

// A call that asks to run outside the jail reports itself as such to the permission engine, which asks
// the person; once approved (not jailed) it runs outside.
func TestWallDangerouslyUnsandboxedRunsOutside(t *testing.T) {
	testHome(t)
	b := wallBackends(t)[0]
	h := jailHarness(t, b)
	in, _ := json.Marshal(map[string]any{"command": "echo x > out", "dangerously_unsandboxed": true})
	acc, err := h.bash.Access(h.env, in)
	if err != nil || !acc.Unsandboxed {
		t.Fatalf("Access = %+v, %v; want Unsandboxed with the jail on", acc, err)
	}
	if r := h.runJailed("echo x > out"); !r.IsError {
		t.Fatalf("wrote in the jail: %s", r.Output)
	}
	if r := h.bash.Run(context.Background(), h.env, tools.Call{ID: "u", Input: in}); r.IsError {
		t.Errorf("the approved call outside the jail failed: %s", r.Output)
	}
	if _, err := os.Stat(filepath.Join(h.env.Workspace, "out")); err != nil {
		t.Error("the approved call did not write")
	}
}

// A workspace with thousands of secret files gets a mask for each: more than a command line holds.
func TestWallMasksThousandsOfSecrets(t *testing.T) {
	testHome(t)
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			long := strings.Repeat("x", 100)
			for i := range 2400 {
				write(t, filepath.Join(h.env.Workspace, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("%s%04d.env", long, i)), "TOKEN=many-secret\n")
			}
			r := h.runJailed("cat d07/*.env | head -3; ls d07 | wc -l")
			if strings.Contains(r.Output, "many-secret") || !strings.Contains(r.Output, "48") {
				t.Errorf("with 2,400 masks: %s", r.Output)
			}
		})
	}
}

// What the scan of the workspace and of the homes' first levels misses is masked too: Warden's own state
// (a checkpoint copies every workspace's .env) and settings, the paths the person's Read deny and ask
// rules cover (a file, a directory, a wildcard), the additional directories' secrets, secrets among other
// people's code (node_modules, .venv) and in .git, a gem host's key and a browser profile. Each is read
// from the jail by a command (as a C compiler reads an #include under go vet), and each is readable
// outside it, which shows the check sees them.
func TestWallHidesWardensFilesRuleCoveredPathsAndTheScansGaps(t *testing.T) {
	home := testHome(t)
	outside := filepath.Dir(home)
	if filepath.Dir(outside) == "/tmp" || outside == "/tmp" {
		t.Skip("no directory outside /tmp, which bubblewrap's jail replaces whole")
	}
	state, err := os.MkdirTemp("/var/tmp", "warden-state-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	shared, err := os.MkdirTemp("/var/tmp", "warden-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	settings := filepath.Join(home, ".config", "warden", "settings.json")
	write(t, filepath.Join(state, "checkpoints", "a-1", "objects", "ab", "cdef"), "checkpoint-secret\n")
	write(t, filepath.Join(state, "trusted_workspaces.json"), "trust-secret\n")
	write(t, settings, `{"mcpServers":{"x":{"env":{"TOKEN":"settings-secret"}}}}`+"\n")
	write(t, filepath.Join(shared, ".env"), "shared-env-secret\n")
	write(t, filepath.Join(home, ".gem", "credentials"), "gem-secret\n")
	write(t, filepath.Join(home, ".mozilla", "firefox", "p.default", "logins.json"), "mozilla-secret\n")

	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			ws := h.env.Workspace
			write(t, filepath.Join(ws, "config", "prod.yml"), "denied-file-secret\n")
			write(t, filepath.Join(ws, "private", "notes.md"), "denied-dir-secret\n")
			write(t, filepath.Join(ws, "certs", "a", "server.crt"), "denied-glob-secret\n")
			write(t, filepath.Join(ws, "node_modules", "x", ".env"), "node-modules-secret\n")
			write(t, filepath.Join(ws, ".venv", "lib", ".env"), "venv-secret\n")
			write(t, filepath.Join(ws, ".git", "x", "id_rsa"), "git-dir-secret\n")
			write(t, filepath.Join(ws, "README"), "plain-readme\n")
			// The permission engine's Read rules, as wiring passes them: Read(./config/prod.yml),
			// Read(./private/**) and Read(./certs/**/*.crt).
			roots := []string{filepath.Join(ws, "config", "prod.yml"), filepath.Join(ws, "private"), filepath.Join(ws, "certs")}
			covered := func(p string) bool {
				return p == roots[0] || within(roots[1], p) ||
					within(roots[2], p) && strings.HasSuffix(p, ".crt")
			}
			h.env.Secret = func(p string) bool { return testSecret(p) || within(state, p) || p == settings }
			h.env.SearchRule = func(p string) (string, bool) {
				if covered(p) {
					return "Read(...)", false
				}
				return "", false
			}
			h.env.RuleRoots = roots
			h.env.AdditionalDirs = []string{shared}
			h.env.Private = []string{state, settings}

			targets := []string{
				filepath.Join(state, "checkpoints", "a-1", "objects", "ab", "cdef"), filepath.Join(state, "trusted_workspaces.json"),
				settings, "config/prod.yml", "private/notes.md", "certs/a/server.crt", filepath.Join(shared, ".env"),
				filepath.Join(home, ".gem", "credentials"), filepath.Join(home, ".mozilla", "firefox", "p.default", "logins.json"),
				"node_modules/x/.env", ".venv/lib/.env", ".git/x/id_rsa",
			}
			secrets := []string{"checkpoint-secret", "trust-secret", "settings-secret", "denied-file-secret",
				"denied-dir-secret", "denied-glob-secret", "shared-env-secret", "gem-secret", "mozilla-secret",
				"node-modules-secret", "venv-secret", "git-dir-secret"}
			cmd := "cat README; for f in"
			for _, p := range targets {
				cmd += fmt.Sprintf(" %q", p)
			}
			cmd += `; do cat "$f"; done; grep -r secret ` + state + " " + shared + " ; true"
			r := h.runJailed(cmd)
			if !strings.Contains(r.Output, "plain-readme") {
				t.Fatalf("the jailed command did not run: %s", r.Output)
			}
			for _, s := range secrets {
				if strings.Contains(r.Output, s) {
					t.Errorf("%s was readable in the jail", s)
				}
			}
			in, _ := json.Marshal(map[string]any{"command": cmd})
			out := h.bash.Run(context.Background(), h.env, tools.Call{ID: "outside", Input: in}).Output
			for _, s := range secrets {
				if !strings.Contains(out, s) {
					t.Errorf("outside the jail %s was not read either; the check above proves nothing: %s", s, out)
				}
			}
		})
	}
}

// A directory of Warden's that holds the workspace is hidden around it: the workspace stays visible.
func TestWallHidesAroundTheWorkspace(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"state/sessions/s1", "state/checkpoints", "state/ws/sub"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	got := around(filepath.Join(root, "state"), filepath.Join(root, "state", "ws", "sub"))
	want := []string{filepath.Join(root, "state", "checkpoints"), filepath.Join(root, "state", "sessions")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("around = %q, want %q", got, want)
	}
	if got := around(filepath.Join(root, "state"), filepath.Join(root, "ws")); len(got) != 1 || got[0] != filepath.Join(root, "state") {
		t.Errorf("around a directory not holding the workspace = %q", got)
	}
}
