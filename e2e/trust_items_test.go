package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// shows waits up to d for the screen to show every one of want, and says whether it did.
func (tr *terminalRun) shows(d time.Duration, want ...string) (string, bool) {
	deadline := time.Now().Add(d)
	for {
		s := tr.screen()
		flat, all := withoutBlanks(s), true
		for _, w := range want {
			all = all && strings.Contains(flat, withoutBlanks(w))
		}
		if all {
			return s, true
		}
		if time.Now().After(deadline) {
			return s, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// answer types key to a question until the screen shows want. A question ignores keys for a moment after
// it opens (they may have been meant for the input), so a key it ignored is typed again once it has had
// the time to count.
func (tr *terminalRun) answer(key string, want ...string) string {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		tr.typeText(key)
		if s, ok := tr.shows(time.Second, want...); ok {
			return s
		}
		if time.Now().After(deadline) {
			s, _ := tr.shows(0)
			tr.t.Fatalf("answering %q never showed %q; the screen shows:\n%s", key, want, s)
		}
	}
}

// upstream is a repository the workspace is a clone of, so that a change reaches the workspace as a pull.
type upstream struct {
	t   *testing.T
	dir string
}

func (u *upstream) git(dir string, args ...string) {
	u.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		u.t.Fatalf("git %v: %v: %s", args, err, out)
	}
}

// commit writes files (name -> content) in the upstream repository and commits them.
func (u *upstream) commit(files map[string]string) {
	u.t.Helper()
	for name, content := range files {
		p := filepath.Join(u.dir, name)
		must(u.t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(u.t, os.WriteFile(p, []byte(content), 0o644))
	}
	u.git(u.dir, "add", "-A")
	u.git(u.dir, "commit", "-qm", "change")
}

// cloneUpstream makes an upstream repository with files and clones it as the run's workspace.
func cloneUpstream(t *testing.T, r *invocation, files map[string]string) *upstream {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	u := &upstream{t: t, dir: filepath.Join(filepath.Dir(r.workspace), "upstream")}
	must(t, os.MkdirAll(u.dir, 0o755))
	u.git(u.dir, "init", "-q")
	u.commit(files)
	must(t, os.RemoveAll(r.workspace))
	u.git(filepath.Dir(r.workspace), "clone", "-q", u.dir, r.workspace)
	return u
}

// checkDecision is how `warden check` judges command in r's workspace.
func checkDecision(t *testing.T, r *invocation, command string) string {
	t.Helper()
	out, stderr, code := r.exec("check", "--", command)
	var res struct{ Decision string }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("warden check -- %s: exit %d\n%s%s", command, code, out, stderr)
	}
	return res.Decision
}

// TestApprovalBindsToWhatThePersonSaw: the person approves a workspace's one allow rule in the TUI; a pull
// then brings another allow rule, a .mcp.json server and a project hook, each of whose commands would
// write a marker. Nothing of it applies: warden check does not allow the new rule's command, a headless run
// starts no server and runs no hook, and names the waiting items in one warning (on stderr and as one
// event); the TUI's next start asks about exactly the three new items, and the approved rule keeps
// working throughout. `warden trust --yes` approves them, `--revoke` takes everything back. Before items,
// trust was the workspace's path, and the pull's rule, server and hook all applied.
func TestApprovalBindsToWhatThePersonSaw(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	up := cloneUpstream(t, r, map[string]string{
		".warden/settings.json": `{"permissions": {"allow": ["Bash(touch:*)"]}}`,
		"README.md":             "a project\n",
	})

	tr := startTerminal(t, r, "--base-url", server.URL(), "--model", "m")
	tr.waitFor("Trust this workspace?", ".warden/settings.json: allow rule Bash(touch:*)", "y approve")
	tr.answer("y", "Approved 1 item")
	tr.typeText("\x03\x03")

	markers := t.TempDir()
	serverMarker, hookMarker := filepath.Join(markers, "server-ran"), filepath.Join(markers, "hook-ran")
	up.commit(map[string]string{
		".warden/settings.json": `{"permissions": {"allow": ["Bash(touch:*)", "Bash(rm:*)"]},
			"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch ` + hookMarker + `"}]}]}}`,
		".mcp.json": `{"mcpServers": {"pulled": {"command": "sh", "args": ["-c", "touch ` + serverMarker + `"]}}}`,
	})
	up.git(r.workspace, "pull", "-q", "--ff-only")

	if d := checkDecision(t, r, "rm -f README.md"); d == "allow" {
		t.Errorf("warden check allows the pulled rule's command")
	}
	if d := checkDecision(t, r, "touch x"); d != "allow" {
		t.Errorf("warden check: the approved rule's command is %s", d)
	}

	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"touch by-approved-rule"}`), fakeapi.ToolCall("c2", "bash", `{"command":"rm README.md"}`), fakeapi.Text("done"))
	out, stderr, code := r.exec("-p", "go", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("headless run: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(serverMarker); err == nil {
		t.Error("the headless run started the pulled MCP server")
	}
	if _, err := os.Stat(hookMarker); err == nil {
		t.Error("the headless run ran the pulled hook")
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "by-approved-rule")); err != nil {
		t.Errorf("the approved rule no longer lets touch run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "README.md")); err != nil {
		t.Error("the pulled rule let rm run")
	}
	pulled := []string{".warden/settings.json: allow rule Bash(rm:*)", `.mcp.json: MCP server "pulled" would run: sh -c 'touch ` + serverMarker + `'`,
		".warden/settings.json: hook SessionStart * runs touch " + hookMarker}
	warnings := 0
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "you have not approved") {
			warnings++
			for _, p := range pulled {
				if !strings.Contains(line, p) {
					t.Errorf("the warning does not name %q: %s", p, line)
				}
			}
			if strings.Contains(line, "Bash(touch:*)") {
				t.Errorf("the warning names the approved rule: %s", line)
			}
		}
	}
	told := 0
	for _, ev := range events(t, out) {
		if ev["type"] == "error" && strings.Contains(ev["message"].(string), "you have not approved") {
			told++
		}
	}
	if warnings != 1 || told != 1 {
		t.Errorf("the waiting items were told %d times on stderr and in %d events; want once each:\n%s\n%s", warnings, told, stderr, out)
	}

	tr = startTerminal(t, r, "--base-url", server.URL(), "--model", "m")
	s := tr.waitFor(append([]string{"Trust this workspace?", "y approve", "(1 item) still applies"}, pulled...)...)
	if n := strings.Count(s, "• "); n != len(pulled) || strings.Contains(s, "Bash(touch:*)") {
		t.Errorf("the question lists %d items, want exactly the %d pulled ones:\n%s", n, len(pulled), s)
	}
	tr.answer("n", "Not approved")
	tr.typeText("\x03\x03")
	if d := checkDecision(t, r, "rm -f README.md"); d == "allow" {
		t.Errorf("warden check allows the declined rule's command")
	}

	if _, stderr, code := r.exec("trust"); code != exitUsage || !strings.Contains(stderr, "pass --yes") {
		t.Errorf("warden trust without a terminal: exit %d, %s", code, stderr)
	}
	out, stderr, code = r.exec("trust", "--yes")
	if code != 0 || !strings.Contains(out, "Approved 3 items") || !strings.Contains(out, "declined  .warden/settings.json: allow rule Bash(rm:*)") {
		t.Fatalf("warden trust --yes: exit %d\n%s%s", code, out, stderr)
	}
	if d := checkDecision(t, r, "rm -f README.md"); d != "allow" {
		t.Errorf("after warden trust --yes, the pulled rule's command is %s", d)
	}
	if out, _, _ := r.exec("trust", "--list"); strings.Count(out, "  approved  ") != 4 {
		t.Errorf("warden trust --list:\n%s", out)
	}
	if out, _, code := r.exec("trust", "--revoke"); code != 0 || !strings.Contains(out, "Revoked 4 items") {
		t.Errorf("warden trust --revoke: exit %d\n%s", code, out)
	}
	for _, c := range []string{"rm -f README.md", "touch x"} {
		if d := checkDecision(t, r, c); d == "allow" {
			t.Errorf("after --revoke, warden check allows %s", c)
		}
	}
}

// TestARepositoryOfClaudeCommandsIsTrustedFromTheTUI: a repository with only .claude/commands. Declined at
// start, its command says it waits for approval and names /trust, instead of "Unknown command"; /trust
// approves it, and the command then works. Before, nothing in the TUI could trust such a repository.
func TestARepositoryOfClaudeCommandsIsTrustedFromTheTUI(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("explained"))
	r := newRun(t)
	must(t, os.MkdirAll(filepath.Join(r.workspace, ".claude", "commands"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, ".claude", "commands", "explain.md"),
		[]byte("---\ndescription: Explain code\n---\nExplain $ARGUMENTS in plain words.\n"), 0o644))

	tr := startTerminal(t, r, "--base-url", server.URL(), "--model", "m")
	tr.waitFor("Trust this workspace?", "the project's commands and skills (1 file in .claude/commands): /explain")
	tr.answer("n", "Not approved")
	tr.typeText("/explain the parser\r")
	s := tr.waitFor("/explain is one of this project's commands, which wait for your approval: /trust")
	if strings.Contains(s, "Unknown command") {
		t.Errorf("the screen says the command is unknown:\n%s", s)
	}
	tr.typeText("\x15/trust\r")
	tr.waitFor("Trust this workspace?", "(declined before) the project's commands and skills")
	tr.answer("y", "Approved 1 item")
	// The commands are read again in the background; the menu offers /explain once they are.
	tr.typeText("/expl")
	tr.waitFor("Explain code")
	tr.typeText("ain the parser\r")
	tr.waitFor("explained")
	reqs := server.Requests()
	if len(reqs) != 1 || reqs[0].LastUser() != "Explain the parser in plain words." {
		t.Errorf("the server received %d requests; the last prompt %q", len(reqs), reqs[len(reqs)-1].LastUser())
	}
}

// TestWardenTrustAsksOnATerminal: `warden trust` lists what it would approve and records it only on y;
// any other answer records nothing.
func TestWardenTrustAsksOnATerminal(t *testing.T) {
	r := newRun(t)
	must(t, os.MkdirAll(filepath.Join(r.workspace, ".warden"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, ".warden", "settings.json"), []byte(`{"permissions": {"allow": ["Bash(touch:*)"]}}`), 0o644))

	tr := startTerminal(t, r, "trust")
	tr.waitFor("new       .warden/settings.json: allow rule Bash(touch:*)", "Approve 1 item for this workspace?", "[y/N]")
	tr.typeText("\r")
	tr.waitFor("Nothing approved.")
	if d := checkDecision(t, r, "touch x"); d == "allow" {
		t.Error("an empty answer approved the rule")
	}

	tr = startTerminal(t, r, "trust")
	tr.waitFor("[y/N]")
	tr.typeText("y\r")
	tr.waitFor("Approved 1 item.")
	if d := checkDecision(t, r, "touch x"); d != "allow" {
		t.Errorf("after y, touch is %s", d)
	}
}
