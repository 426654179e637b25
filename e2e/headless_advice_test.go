package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// TestHeadlessRefusalSaysWhatWouldAllowIt: a headless run refuses what would ask and tells the model (and
// whoever reads the stream) what would let the call run. A rule only where a rule would: a program the
// repository supplies is covered by no allow rule, an ask rule outranks every allow rule and mode, and a
// dangerous command asks even in yolo mode; those say to run Warden interactively instead. The real
// binary is run.
func TestHeadlessRefusalSaysWhatWouldAllowIt(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := newRun(t)
	marker := filepath.Join(t.TempDir(), "external-ran")
	git := exec.Command("git", "init", "-q", r.workspace)
	git.Env = r.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	cfg := filepath.Join(r.workspace, ".git", "config")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = fmt.Fprintf(f, "[diff]\n\texternal = touch %s\n", marker)
	must(t, err)
	must(t, f.Close())
	settings := filepath.Join(filepath.Dir(r.workspace), "config", "warden", "settings.json")
	must(t, os.MkdirAll(filepath.Dir(settings), 0o755))
	must(t, os.WriteFile(settings, []byte(`{"permissions":{"ask":["Bash(git status)"]}}`), 0o644))

	for _, tc := range []struct {
		command string
		flags   []string
		want    []string
	}{
		{"git diff", []string{"--allow", "Bash(git diff:*)"}, []string{"diff.external", "no allow rule can cover it",
			"run Warden interactively", "--permission-mode yolo"}},
		{"git status", []string{"--allow", "Bash(git status)"}, []string{"the ask rule `Bash(git status)`", "run Warden interactively", "remove the rule"}},
		{"rm -rf ~", nil, []string{"dangerous", "run Warden interactively"}},
		{"touch made.txt", nil, []string{"allow it with --allow 'Bash(touch:*)'"}},
	} {
		server := fakeapi.New()
		server.Reply(fakeapi.ToolCall("c1", "bash", fmt.Sprintf(`{"command":%q}`, tc.command)), fakeapi.Text("done"))
		out, stderr, code := r.exec(append([]string{"-p", "go", "--base-url", server.URL(), "--model", "m",
			"--output-format", "stream-json"}, tc.flags...)...)
		server.Close()
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.command, code, stderr)
		}
		var reason string
		for _, ev := range events(t, out) {
			if ev["type"] == "permission" {
				if ev["decision"] != "deny" {
					t.Fatalf("%s ran headless: %v", tc.command, ev)
				}
				reason = fmt.Sprint(ev["reason"])
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(reason, w) {
				t.Errorf("%s: the refusal does not say %q: %s", tc.command, w, reason)
			}
		}
		if tc.command != "touch made.txt" && strings.Contains(reason, "--allow") {
			t.Errorf("%s: the refusal suggests an allow rule, which would not allow it: %s", tc.command, reason)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the repository's diff.external ran")
	}
}
