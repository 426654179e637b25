package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/hostexec"
)

// hostPrograms finds the programs the tests' probes run, on the machine's PATH.
var hostPrograms = hostexec.NewFinder(os.Getenv("PATH"), nil)

// A project virtualenv is active: PATH starts inside the workspace (.venv/bin, node_modules/.bin, an
// empty entry meaning the current directory), and each of those holds a git, rg, bwrap and bash that
// write a marker. Warden's own runs (glob's and grep's helpers, the jail and the sandbox, the shell
// every command runs in) must take none of them, and still work. Behind them on PATH, outside the
// workspace, rg, git and bwrap are spies that write down the environment they got and run the real
// program: the API key and a planted token must not be in it.
func TestWardensOwnProgramsAreNotTheWorkspaces(t *testing.T) {
	r := newRun(t)
	ws := r.workspace
	root := filepath.Dir(ws)
	markers, spy := filepath.Join(root, "markers"), filepath.Join(root, "spy")
	must(t, os.MkdirAll(markers, 0o755))
	must(t, os.MkdirAll(spy, 0o755))
	poisoned := []string{filepath.Join(ws, ".venv", "bin"), filepath.Join(ws, "node_modules", ".bin"), ws}
	for _, dir := range poisoned {
		must(t, os.MkdirAll(dir, 0o755))
		for _, name := range []string{"git", "rg", "bwrap", "bash"} {
			fake := fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s/%s\nexit 97\n", markers, name)
			must(t, os.WriteFile(filepath.Join(dir, name), []byte(fake), 0o755))
		}
	}
	for _, name := range []string{"git", "rg", "bwrap"} {
		real, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("this test needs %s installed: %v", name, err)
		}
		script := fmt.Sprintf("#!/bin/sh\nenv >> %s/%s.env\nexec %s \"$@\"\n", spy, name, real)
		must(t, os.WriteFile(filepath.Join(spy, name), []byte(script), 0o755))
	}
	const apiKey, token = "sk-planted-api-key-4b1d9e", "planted-deploy-token-77c3"
	for i, kv := range r.env {
		if strings.HasPrefix(kv, "PATH=") {
			// The empty entry is the current directory, which is the workspace.
			r.env[i] = "PATH=" + strings.Join([]string{poisoned[0], "node_modules/.bin", "", spy, os.Getenv("PATH")}, ":")
		}
	}
	r.env = append(r.env, "OPENAI_API_KEY="+apiKey, "DEPLOY_TOKEN="+token)
	git := exec.Command("git", "init", "-q")
	git.Dir = ws
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	must(t, os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("a needle-5e1 in the notes\n"), 0o644))

	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("glob", "glob", `{"pattern":"**/*.txt"}`),
		fakeapi.ToolCall("grep", "grep", `{"pattern":"needle-5e1"}`),
		fakeapi.ToolCall("jailed", "bash", `{"command":"cat notes.txt"}`),
		fakeapi.ToolCall("sandboxed", "bash", `{"command":"touch made.txt"}`),
		fakeapi.Text("done"),
	)
	out, stderr, code := r.exec("-p", "look around", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json", "--sandbox=on", "--allow", "Bash(touch made.txt)")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	results := map[string]string{}
	for _, ev := range events(t, out) {
		switch ev["type"] {
		case "tool_result":
			results[fmt.Sprint(ev["id"])] = fmt.Sprint(ev["output"])
		case "permission":
			if ev["decision"] != "allow" {
				t.Errorf("not allowed: %v", ev)
			}
		}
	}

	entries, _ := os.ReadDir(markers)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(markers, e.Name()))
		t.Errorf("Warden ran the workspace's %s: %s", e.Name(), b)
	}
	if !strings.Contains(results["glob"], "notes.txt") {
		t.Errorf("glob: %s", results["glob"])
	}
	if !strings.Contains(results["grep"], "notes.txt:1:a needle-5e1 in the notes") {
		t.Errorf("grep: %s", results["grep"])
	}
	if !strings.Contains(results["jailed"], "a needle-5e1 in the notes") {
		t.Errorf("the jailed cat: %s", results["jailed"])
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err != nil {
		t.Errorf("the sandboxed touch did not run: %s", results["sandboxed"])
	}

	// rg and bwrap were the spies (git too, while glob and grep still list files through it): each saw
	// the environment commands get, not Warden's own.
	for _, name := range []string{"rg", "bwrap", "git"} {
		b, err := os.ReadFile(filepath.Join(spy, name+".env"))
		if err != nil {
			if name != "git" {
				t.Errorf("%s was not taken from outside the workspace on PATH: %v", name, err)
			}
			continue
		}
		for _, secret := range []string{apiKey, token} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s's environment holds %q", name, secret)
			}
		}
	}
}
