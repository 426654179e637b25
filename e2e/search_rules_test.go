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

// searchOutput runs one grep call headless and returns what the model got back, with the decision.
func searchOutput(t *testing.T, r *invocation, args string, flags ...string) (output, decision string) {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("g1", "grep", args), fakeapi.Text("done"))
	out, stderr, code := r.exec(append([]string{"-p", "search", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range events(t, out) {
		switch ev["type"] {
		case "permission":
			decision = fmt.Sprint(ev["decision"])
		case "tool_result":
			output = fmt.Sprint(ev["output"])
		}
	}
	return output, decision
}

// A Read deny or ask rule keeps a file's content out of a grep of the directory above it, whichever way
// the search reaches the directory (the root, a path, a glob, a link to it); the result names the rule.
func TestGrepLeavesOutWhatReadRulesKeepBack(t *testing.T) {
	for _, git := range []bool{false, true} {
		t.Run(map[bool]string{false: "walk", true: "git"}[git], func(t *testing.T) {
			r := newRun(t)
			ws := r.workspace
			must(t, os.MkdirAll(filepath.Join(ws, "config"), 0o755))
			must(t, os.WriteFile(filepath.Join(ws, "config", "prod.yml"), []byte("key: DENIED-XYZ-42\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(ws, "config", "dev.yml"), []byte("key: DENIED-but-fine\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(ws, "notes.yml"), []byte("DENIED is a word\n"), 0o644))
			must(t, os.Symlink("config", filepath.Join(ws, "cfg")))
			must(t, os.Symlink("config/prod.yml", filepath.Join(ws, "linked.yml")))
			if git {
				c := exec.Command("git", "init", "-q", ws)
				c.Env = r.env
				if out, err := c.CombinedOutput(); err != nil {
					t.Fatalf("git init: %v %s", err, out)
				}
			}
			for _, tc := range []struct {
				rule, args string
				kept       []string
			}{
				{"Read(./config/**)", `{"pattern":"DENIED"}`, []string{"notes.yml:1:DENIED is a word"}},
				{"Read(./config/prod.yml)", `{"pattern":"DENIED"}`, []string{"config/dev.yml:1:key: DENIED-but-fine", "notes.yml:1"}},
				{"Read(./config/prod.yml)", `{"pattern":"DENIED","path":"config"}`, []string{"dev.yml:1:key: DENIED-but-fine"}},
				{"Read(./config/prod.yml)", `{"pattern":"DENIED","glob":"*.yml"}`, []string{"notes.yml:1"}},
				{"Read(./config/prod.yml)", `{"pattern":"DENIED","path":"cfg"}`, []string{"dev.yml:1"}},
				{"Read(**/prod.yml)", `{"pattern":"xyz-42","path":"cfg","ignore_case":true}`, []string{"No matches"}},
			} {
				for _, kind := range []string{"deny", "ask"} {
					var flags []string
					if kind == "deny" {
						flags = []string{"--deny", tc.rule}
					} else {
						settings := fmt.Sprintf(`{"permissions":{"ask":[%q]}}`, tc.rule)
						dir := filepath.Join(filepath.Dir(ws), "config", "warden")
						must(t, os.MkdirAll(dir, 0o755))
						must(t, os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o644))
					}
					out, decision := searchOutput(t, r, tc.args, flags...)
					if kind == "ask" {
						must(t, os.Remove(filepath.Join(filepath.Dir(ws), "config", "warden", "settings.json")))
					}
					if decision != "allow" {
						t.Errorf("%s %s, %s: decided %s, want the search allowed with the file left out", kind, tc.rule, tc.args, decision)
					}
					if strings.Contains(out, "XYZ-42") {
						t.Errorf("%s %s, %s: the denied content reached the model:\n%s", kind, tc.rule, tc.args, out)
					}
					for _, k := range tc.kept {
						if !strings.Contains(out, k) {
							t.Errorf("%s %s, %s: %q is missing:\n%s", kind, tc.rule, tc.args, k, out)
						}
					}
					if !strings.Contains(out, "`"+tc.rule+"`") {
						t.Errorf("%s %s, %s: the result does not name the rule:\n%s", kind, tc.rule, tc.args, out)
					}
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
