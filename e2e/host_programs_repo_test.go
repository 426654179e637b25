package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The workspace is one checkout of a repository among others: a submodule whose superproject committed
// tools/{rg,bwrap,bash}, or a linked work tree whose main checkout has a .venv/bin of them, with that
// directory first on PATH. Warden's own runs (grep's rg, the jail's bwrap, the shell of every command)
// take none of them, and still work.
func TestWardensOwnProgramsAreNotTheOtherCheckoutsOfTheRepository(t *testing.T) {
	for _, kind := range []string{"submodule", "linked work tree"} {
		t.Run(kind, func(t *testing.T) {
			r := newRun(t)
			root := filepath.Dir(r.workspace)
			markers := filepath.Join(root, "markers")
			must(t, os.MkdirAll(markers, 0o755))
			plant := func(dir string) {
				must(t, os.MkdirAll(dir, 0o755))
				for _, name := range []string{"rg", "bwrap", "bash", "git"} {
					fake := fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s/%s\nexit 97\n", markers, name)
					must(t, os.WriteFile(filepath.Join(dir, name), []byte(fake), 0o755))
				}
			}
			var poisoned string
			switch kind {
			case "submodule":
				sub := filepath.Join(root, "subsrc")
				must(t, os.MkdirAll(sub, 0o755))
				must(t, os.WriteFile(filepath.Join(sub, "notes.txt"), []byte("a needle-7c2 in the notes\n"), 0o644))
				gitAt(t, sub, "init", "-q")
				gitAt(t, sub, "add", "-A")
				gitAt(t, sub, "commit", "-qm", "sub")
				super := filepath.Join(root, "super")
				poisoned = filepath.Join(super, "tools")
				plant(poisoned)
				gitAt(t, super, "init", "-q")
				gitAt(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
				gitAt(t, super, "add", "-A")
				gitAt(t, super, "commit", "-qm", "super")
				r.workspace = filepath.Join(super, "sub")
			case "linked work tree":
				main := filepath.Join(root, "main")
				must(t, os.MkdirAll(main, 0o755))
				must(t, os.WriteFile(filepath.Join(main, "notes.txt"), []byte("a needle-7c2 in the notes\n"), 0o644))
				gitAt(t, main, "init", "-q")
				gitAt(t, main, "add", "-A")
				gitAt(t, main, "commit", "-qm", "main")
				poisoned = filepath.Join(main, ".venv", "bin")
				plant(poisoned)
				gitAt(t, main, "worktree", "add", "-q", filepath.Join(root, "linked"))
				r.workspace = filepath.Join(root, "linked")
			}
			for i, kv := range r.env {
				if strings.HasPrefix(kv, "PATH=") {
					r.env[i] = "PATH=" + poisoned + ":" + os.Getenv("PATH")
				}
			}
			server := fakeapi.New()
			defer server.Close()
			server.Reply(
				fakeapi.ToolCall("grep", "grep", `{"pattern":"needle-7c2"}`),
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
				if ev["type"] == "tool_result" {
					results[fmt.Sprint(ev["id"])] = fmt.Sprint(ev["output"])
				}
			}
			entries, _ := os.ReadDir(markers)
			for _, e := range entries {
				b, _ := os.ReadFile(filepath.Join(markers, e.Name()))
				t.Errorf("Warden ran the %s's %s: %s", kind, e.Name(), b)
			}
			if !strings.Contains(results["grep"], "notes.txt:1:a needle-7c2 in the notes") {
				t.Errorf("grep: %s", results["grep"])
			}
			if !strings.Contains(results["jailed"], "a needle-7c2 in the notes") {
				t.Errorf("the jailed cat: %s", results["jailed"])
			}
			if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err != nil {
				t.Errorf("the sandboxed touch did not run: %s", results["sandboxed"])
			}
		})
	}
}
