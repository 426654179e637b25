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

// gitRepoWithChange makes the workspace a repository with a committed file changed since.
func gitRepoWithChange(t *testing.T, r *invocation) {
	t.Helper()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.name=w", "-c", "user.email=w@example.com"}, args...)...)
		c.Dir, c.Env = r.workspace, r.env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	must(t, os.WriteFile(filepath.Join(r.workspace, "a.txt"), []byte("one\n"), 0o644))
	git("add", "a.txt")
	git("commit", "-q", "-m", "one")
	must(t, os.WriteFile(filepath.Join(r.workspace, "a.txt"), []byte("two\n"), 0o644))
}

// A Bash allow rule for git diff allows git diff, not the program the repository's configuration makes it
// run: that asks (and headless, is refused) with the key named. The person's own configuration is theirs.
func TestAllowRuleDoesNotRunWhatTheRepositorySupplies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		global bool // diff.external set in the person's ~/.gitconfig, not the repository's
	}{{"repository", false}, {"person", true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun(t)
			gitRepoWithChange(t, r)
			marker := filepath.Join(filepath.Dir(r.workspace), "marker")
			ext := fmt.Sprintf("[diff]\n\texternal = sh -c 'echo PWN > %s' --\n", marker)
			cfg := filepath.Join(r.workspace, ".git", "config")
			if tc.global {
				cfg = filepath.Join(filepath.Dir(r.workspace), "home", ".gitconfig")
			}
			f, err := os.OpenFile(cfg, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			must(t, err)
			_, err = f.WriteString(ext)
			must(t, err)
			must(t, f.Close())

			server := fakeapi.New()
			defer server.Close()
			server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"git diff"}`), fakeapi.Text("done"))
			out, stderr, code := r.exec("-p", "diff", "--base-url", server.URL(), "--model", "m",
				"--output-format", "stream-json", "--allow", "Bash(git diff:*)")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var perm map[string]any
			for _, ev := range events(t, out) {
				if ev["type"] == "permission" {
					perm = ev
				}
			}
			_, statErr := os.Stat(marker)
			if tc.global {
				if perm["decision"] != "allow" || statErr != nil {
					t.Errorf("the person's own diff.external under their allow rule: %v, marker: %v", perm, statErr)
				}
				return
			}
			if statErr == nil {
				t.Fatalf("the repository's diff.external ran under `Bash(git diff:*)`: %v", perm)
			}
			if perm["decision"] != "deny" || perm["by"] != "policy" {
				t.Errorf("permission = %v, want it refused headless, for want of someone to ask", perm)
			}
			// The person is asked, told which key, and offered no rule: none would cover it.
			out, _, _ = r.exec("check", "--allow", "Bash(git diff:*)", "--", "git diff")
			verdict := events(t, out)[0]
			if verdict["decision"] != "ask" || !strings.Contains(fmt.Sprint(verdict["reason"]), "`diff.external`") ||
				!strings.Contains(fmt.Sprint(verdict["reason"]), "`Bash(git diff:*)` allows") || verdict["suggested_rule"] != nil {
				t.Errorf("warden check = %v", verdict)
			}
		})
	}
}

// The review's cargo case, end to end: with `Bash(cargo metadata:*)` allowed, the repository's
// .cargo/config.toml naming a rustc-wrapper ran it outside the jail, unasked. It is refused headless, and
// `warden check` asks naming the file and key and offers no rule.
func TestAllowRuleDoesNotRunTheRepositorysCargoWrapper(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed")
	}
	r := newRun(t)
	r.env = append(r.env, "RUSTUP_HOME="+filepath.Join(os.Getenv("HOME"), ".rustup"), "CARGO_HOME="+filepath.Join(os.Getenv("HOME"), ".cargo"))
	marker := filepath.Join(filepath.Dir(r.workspace), "marker")
	evil := filepath.Join(r.workspace, "evil.sh")
	must(t, os.WriteFile(filepath.Join(r.workspace, "Cargo.toml"), []byte("[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(r.workspace, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, "src", "main.rs"), []byte("fn main() {}\n"), 0o644))
	must(t, os.WriteFile(evil, []byte("#!/bin/sh\necho PWN > "+marker+"\nexec \"$@\"\n"), 0o755))
	must(t, os.MkdirAll(filepath.Join(r.workspace, ".cargo"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, ".cargo", "config.toml"), []byte("[build]\nrustc-wrapper = \"./evil.sh\"\n"), 0o644))
	// The wrapper is live: cargo metadata runs it.
	c := exec.Command("cargo", "metadata", "--offline", "--format-version", "1")
	c.Dir, c.Env = r.workspace, r.env
	c.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("cargo metadata did not run the wrapper: the test would see nothing")
	}
	must(t, os.Remove(marker))

	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"cargo metadata --offline --format-version 1"}`), fakeapi.Text("done"))
	out, stderr, code := r.exec("-p", "metadata", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json", "--allow", "Bash(cargo metadata:*)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var perm map[string]any
	for _, ev := range events(t, out) {
		if ev["type"] == "permission" {
			perm = ev
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the repository's rustc-wrapper ran under `Bash(cargo metadata:*)`: %v", perm)
	}
	if perm["decision"] != "deny" || perm["by"] != "policy" {
		t.Errorf("permission = %v, want it refused headless, for want of someone to ask", perm)
	}
	out, _, _ = r.exec("check", "--", "cargo metadata --offline --format-version 1")
	verdict := events(t, out)[0]
	if verdict["decision"] != "ask" || !strings.Contains(fmt.Sprint(verdict["reason"]), "`rustc-wrapper`") || verdict["suggested_rule"] != nil {
		t.Errorf("warden check = %v", verdict)
	}
}
