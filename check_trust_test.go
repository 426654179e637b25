package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools/bash"
)

// TestCheckNamesTheFileAndKey: `warden check` asks for a read-only git command whose repository's
// configuration names a program, naming the file and the key; it denies reading the object store of a
// repository whose history held a denied file. The real binary is run.
func TestCheckNamesTheFileAndKey(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := newRun(t)
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	nested := filepath.Join(r.workspace, "vendor", "x")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	git(nested, "init", "-q")
	git(nested, "config", "core.fsmonitor", "/bin/true")
	if err := os.WriteFile(filepath.Join(r.workspace, ".env"), []byte("TOKEN=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(r.workspace, "init", "-q")
	git(r.workspace, "add", ".env")
	git(r.workspace, "commit", "-qm", "x")
	blob := git(r.workspace, "rev-parse", "HEAD:.env")
	object := ".git/objects/" + blob[:2] + "/" + blob[2:]

	r.stdin = "git -C vendor/x status\ncd vendor/x && git diff\nbase64 " + object + "\ngit status\n"
	out, stderr, code := r.exec("check", "--deny", "Read(./.env)", "--stdin")
	if code != 0 {
		t.Fatalf("warden check: exit %d: %s", code, stderr)
	}
	var results []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		results = append(results, m)
	}
	want := []struct{ decision, reason string }{
		{"ask", "`vendor/x/.git/config` sets `core.fsmonitor`, which runs a program on `git status`"},
		{"ask", "`vendor/x/.git/config` sets `core.fsmonitor`, which runs a program on `git diff`"},
		{"deny", "denied by `Read(./.env)`"},
		{"allow", "`git status` only reads"},
	}
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d: %s", len(results), len(want), out)
	}
	for i, w := range want {
		if results[i]["decision"] != w.decision || !strings.Contains(results[i]["reason"].(string), w.reason) {
			t.Errorf("%s: %s (%s), want %s saying %q", results[i]["command"], results[i]["decision"], results[i]["reason"], w.decision, w.reason)
		}
	}
}

// TestSessionWithTheJailRunsProjectCodeTools: once the jail is known to work, a session's engine judges
// tools whose only risk is running project code as read-only; without it they ask.
func TestSessionWithTheJailRunsProjectCodeTools(t *testing.T) {
	ws := t.TempDir()
	for _, jail := range []bool{false, true} {
		e, err := permissions.NewEngine(permissions.Policy{Workspace: ws, Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		s := &session{cfg: &config.Config{SandboxJail: true}, engine: e}
		var werr error
		if !jail {
			werr = errors.New("no backend")
		}
		s.setWall(bash.WallInfo{Backend: "bubblewrap"}, werr)
		want := permissions.Ask
		if jail {
			want = permissions.Allow
		}
		if v := e.Decide(permissions.Request{Kind: permissions.Exec, Command: "eslint src", Cwd: ws}); v.Decision != want {
			t.Errorf("jail %v: eslint src: %s (%s), want %s", jail, v.Decision, v.Reason, want)
		}
	}
}
