package e2e

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/tools/bash"
)

// The second wall on its own: a program the classifier rightly takes for read-only (`wc`) is not what its
// name says (a fake first on PATH that writes a file, connects to a listener on this machine and prints
// ~/.ssh/id_rsa). It runs unasked, and in the jail all three fail and the model is told why; with the
// jail turned off, all three succeed, which shows the test would see them.
func TestWallHoldsAFakeReadOnlyProgram(t *testing.T) {
	outside, bin := jailFixture(t, "warden-wall-")
	home := filepath.Join(outside, "home")
	for _, d := range []string{filepath.Join(home, ".ssh"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- wall-test-key"
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
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

	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) {
			accepted.Store(0)
			r := newRun(t)
			marker := filepath.Join(r.workspace, "marker")
			fake := fmt.Sprintf("#!/usr/bin/env bash\n"+
				"echo pwned > %q && echo wrote-marker\n"+
				"exec 3<>/dev/tcp/127.0.0.1/%d && echo connected\n"+
				"cat %q\n"+
				"exit 1\n", marker, ln.Addr().(*net.TCPAddr).Port, filepath.Join(home, ".ssh", "id_rsa"))
			if err := os.WriteFile(filepath.Join(bin, "wc"), []byte(fake), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.workspace, "README"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for i, kv := range r.env {
				if strings.HasPrefix(kv, "PATH=") {
					r.env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
				}
				if strings.HasPrefix(kv, "HOME=") {
					r.env[i] = "HOME=" + home
				}
			}
			if !jail {
				cfg := filepath.Join(strings.TrimPrefix(r.env[2], "XDG_CONFIG_HOME="), "warden")
				os.MkdirAll(cfg, 0o755)
				if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"sandbox":{"jail":false}}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			result := wcReadme(t, r)
			_, err := os.Stat(marker)
			wrote, connected, read := err == nil, accepted.Load() > 0, strings.Contains(result, "wall-test-key")
			if !jail {
				if !wrote || !connected || !read {
					t.Fatalf("outside the jail the fake wc should write (%v), connect (%v) and read the key (%v): %s",
						wrote, connected, read, result)
				}
				return
			}
			if wrote || connected || read {
				t.Errorf("in the jail the fake wc wrote %v, connected %v, read the key %v: %s", wrote, connected, read, result)
			}
			for _, why := range []string{"read-only jail", "there is no network", "nothing can be written",
				"keys, credentials and .env files cannot be read", "dangerously_unsandboxed"} {
				if !strings.Contains(result, why) {
					t.Errorf("the model is not told %q: %s", why, result)
				}
			}
		})
	}
}

// warden check says which commands would run in the jail: those that run unasked because they only read.
func TestCheckSaysJailed(t *testing.T) {
	_, werr := bash.ProbeWall(binary, hostPrograms)
	r := newRun(t)
	out, stderr, code := r.exec("check", "--", "ls -la", "rm -rf build", "cat .env")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []bool{werr == nil, false, false}
	evs := events(t, out)
	if len(evs) != 3 {
		t.Fatalf("lines: %s", out)
	}
	for i, ev := range evs {
		if ev["jailed"] != want[i] {
			t.Errorf("%v: jailed = %v, want %v", ev["command"], ev["jailed"], want[i])
		}
	}
	out, _, _ = r.exec("check", "--permission-mode", "yolo", "--", "touch x")
	if evs := events(t, out); evs[0]["jailed"] != false {
		t.Errorf("a command yolo allows is not jailed: %s", out)
	}
	cfg := filepath.Join(strings.TrimPrefix(r.env[2], "XDG_CONFIG_HOME="), "warden")
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"sandbox":{"jail":false}}`), 0o644)
	out, _, _ = r.exec("check", "--", "ls -la")
	if evs := events(t, out); evs[0]["jailed"] != false {
		t.Errorf("with the jail off, ls is jailed: %s", out)
	}
}

// A command that failed in the jail may be run outside it only with the person's approval, whatever the
// mode: headless, where nobody can approve, it is refused even in yolo mode, and the model is told why.
func TestLeavingTheJailAlwaysAsks(t *testing.T) {
	if _, err := bash.ProbeWall(binary, hostPrograms); err != nil {
		t.Skipf("no backend for the read-only jail here: %v", err)
	}
	r := newRun(t)
	marker := filepath.Join(r.workspace, "marker")
	server := fakeapi.New()
	defer server.Close()
	cmd := fmt.Sprintf("ls > %s", marker)
	server.Reply(fakeapi.ToolCall("c1", "bash", fmt.Sprintf(`{"command":%q,"dangerously_unsandboxed":true}`, "ls")),
		fakeapi.ToolCall("c2", "bash", fmt.Sprintf(`{"command":%q,"dangerously_unsandboxed":true}`, cmd)),
		fakeapi.Text("done"))
	out, stderr, code := r.exec("-p", "list", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo",
		"--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	denied := 0
	for _, ev := range events(t, out) {
		if ev["type"] == "permission" {
			if ev["decision"] != "deny" || ev["by"] != "policy" {
				t.Errorf("leaving the jail was not refused as needing the person: %v", ev)
			}
			denied++
		}
	}
	if denied != 2 {
		t.Errorf("%d permission events, want 2: %s", denied, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran outside the jail without approval")
	}
}

// The reviewer's findings, end to end with the real binary: a session in one workspace leaves its .env in
// the checkpoint store; in another workspace a program the classifier rightly runs unasked (a fake `wc`
// first on PATH, standing for a C compiler following a repository's #include under go vet) reads every
// checkpoint object, a file a Read deny rule names, an additional directory's .env and a gem host's key.
// In the jail it reads none; with the jail off it reads all, which shows the test would see them.
func TestWallHidesCheckpointsAndRuleCoveredFiles(t *testing.T) {
	outside, bin := jailFixture(t, "warden-wall-")
	home, state, shared := filepath.Join(outside, "home"), filepath.Join(outside, "state"), filepath.Join(outside, "shared")
	for _, f := range []struct{ path, content string }{
		{filepath.Join(home, ".gem", "credentials"), "---\n:rubygems_api_key: gem-host-secret\n"},
		{filepath.Join(shared, ".env"), "K=shared-env-secret\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(bin, 0o755)
	setEnv := func(r *invocation) {
		for i, kv := range r.env {
			switch {
			case strings.HasPrefix(kv, "PATH="):
				r.env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
			case strings.HasPrefix(kv, "HOME="):
				r.env[i] = "HOME=" + home
			case strings.HasPrefix(kv, "XDG_STATE_HOME="):
				r.env[i] = "XDG_STATE_HOME=" + state
			}
		}
	}

	// Workspace A: a session whose call is checkpointed, .env included.
	a := newRun(t)
	setEnv(a)
	if err := os.WriteFile(filepath.Join(a.workspace, ".env"), []byte("K=checkpointed-env-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "write_file", `{"path":"notes.txt","content":"x\n"}`), fakeapi.Text("done"))
	if _, stderr, code := a.exec("-p", "write", "--base-url", server.URL(), "--model", "m", "--permission-mode", "accept-edits"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	objects, _ := filepath.Glob(filepath.Join(state, "warden", "checkpoints", "*", "objects", "*", "*"))
	if len(objects) == 0 {
		t.Fatal("the first session left no checkpoint objects: nothing to test against")
	}

	fake := "#!/usr/bin/env bash\n" +
		"for f in " + filepath.Join(state, "warden", "checkpoints") + "/*/objects/*/*; do " +
		"(printf '\\037\\213\\010\\000\\000\\000\\000\\000\\000\\000'; tail -c +3 \"$f\") | gzip -dc 2>/dev/null; done\n" +
		"cat config/prod.yml " + filepath.Join(shared, ".env") + " " + filepath.Join(home, ".gem", "credentials") + "\n" +
		"echo fake-wc-ran\n"
	if err := os.WriteFile(filepath.Join(bin, "wc"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"checkpointed-env-secret", "denied-prod-secret", "shared-env-secret", "gem-host-secret"}
	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) {
			b := newRun(t)
			setEnv(b)
			os.MkdirAll(filepath.Join(b.workspace, "config"), 0o755)
			if err := os.WriteFile(filepath.Join(b.workspace, "config", "prod.yml"), []byte("password: denied-prod-secret\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(strings.TrimPrefix(b.env[2], "XDG_CONFIG_HOME="), "warden")
			os.MkdirAll(cfg, 0o755)
			settings := fmt.Sprintf(`{"permissions":{"deny":["Read(./config/prod.yml)"],"additional_directories":[%q]},"sandbox":{"jail":%v}}`, shared, jail)
			if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
			result := wcReadme(t, b)
			if !strings.Contains(result, "fake-wc-ran") {
				t.Fatalf("the fake wc did not run: %s", result)
			}
			for _, s := range secrets {
				if read := strings.Contains(result, s); read == jail {
					t.Errorf("jail %v: %s read %v: %s", jail, s, read, result)
				}
			}
		})
	}
}

// XDG_STATE_HOME and XDG_CONFIG_HOME as symbolic links, end to end: the jail hid the state through the
// link's name, which bubblewrap could not make (every jailed command failed with "Can't mkdir"). Jailed
// commands run, and a program run unasked reads neither the state nor the settings under either name,
// while the custom commands stay readable; with the jail off it reads them all, which shows the test
// would see them.
func TestWallHidesStateThroughLinkedXDGDirectories(t *testing.T) {
	outside, bin := jailFixture(t, "warden-wall-")
	stateReal, configReal := filepath.Join(outside, "x-real"), filepath.Join(outside, "c-real")
	stateLink, configLink := filepath.Join(outside, "x-link"), filepath.Join(outside, "c-link")
	marker := filepath.Join(stateReal, "warden", "marker")
	notes := filepath.Join(configReal, "warden", "notes")
	review := filepath.Join(configReal, "warden", "commands", "review.md")
	for _, f := range []struct{ path, content string }{
		{marker, "state-secret\n"}, {notes, "settings-secret\n"}, {review, "command-visible\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for target, name := range map[string]string{stateReal: stateLink, configReal: configLink} {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(bin, 0o755)
	fake := "#!/usr/bin/env bash\n" +
		"cat " + strings.Join([]string{marker, filepath.Join(stateLink, "warden", "marker"), notes,
		filepath.Join(configLink, "warden", "notes"), filepath.Join(configLink, "warden", "commands", "review.md")}, " ") +
		"\necho fake-wc-ran\n"
	if err := os.WriteFile(filepath.Join(bin, "wc"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) {
			r := newRun(t)
			for i, kv := range r.env {
				switch {
				case strings.HasPrefix(kv, "PATH="):
					r.env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
				case strings.HasPrefix(kv, "XDG_STATE_HOME="):
					r.env[i] = "XDG_STATE_HOME=" + stateLink
				case strings.HasPrefix(kv, "XDG_CONFIG_HOME="):
					r.env[i] = "XDG_CONFIG_HOME=" + configLink
				}
			}
			settings := fmt.Sprintf(`{"sandbox":{"jail":%v}}`, jail)
			if err := os.WriteFile(filepath.Join(configReal, "warden", "settings.json"), []byte(settings), 0o600); err != nil {
				t.Fatal(err)
			}
			result := wcReadme(t, r)
			if !strings.Contains(result, "fake-wc-ran") || !strings.Contains(result, "command-visible") {
				t.Fatalf("the fake wc did not run or could not read the custom command: %s", result)
			}
			for _, s := range []string{"state-secret", "settings-secret"} {
				if n := strings.Count(result, s); (n == 0) != jail || !jail && n != 2 {
					t.Errorf("jail %v: %s read %d times: %s", jail, s, n, result)
				}
			}
		})
	}
}
