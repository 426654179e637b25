package permissions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAHooksAllowIsAnAllowRuleAndNoMore(t *testing.T) {
	ws, home := fixture(t)
	if err := os.Link(filepath.Join(ws, "secrets", "a.txt"), filepath.Join(ws, "sub", "other-name.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		policy Policy
		req    Request
		// want is the decision with the hook's allow and by whom; without it the request must be
		// decided otherwise whenever wantBy is "hook", so that the case shows the allow doing something.
		want   Decision
		wantBy string
	}{
		{"a command no rule covers", Policy{}, Request{Kind: Exec, Command: "touch made.txt"}, Allow, "hook"},
		{"a deny rule", Policy{Deny: []string{"Bash(rm *)"}}, Request{Kind: Exec, Command: "rm notes.txt"}, Deny, "rule"},
		{"an ask rule", Policy{Ask: []string{"Bash(git push:*)"}}, Request{Kind: Exec, Command: "git push origin main"}, Ask, "rule"},
		{"a dangerous command", Policy{}, Request{Kind: Exec, Command: "rm -rf /"}, Ask, "policy"},
		{"plan mode", Policy{Mode: ModePlan}, Request{Kind: Exec, Command: "touch made.txt"}, Deny, "mode"},
		{"outside the sandbox", Policy{}, Request{Kind: Exec, Command: "touch made.txt", Unsandboxed: true}, Ask, "policy"},
		{"what Warden cannot see into", Policy{Deny: []string{"Bash(curl:*)"}}, Request{Kind: Exec, Command: `eval "$CMD"`}, Ask, "policy"},
		{"a secret a command reads", Policy{}, Request{Kind: Exec, Command: "cp ~/.ssh/id_rsa /tmp/k"}, Ask, "policy"},
		{"a file a redirection writes", Policy{}, Request{Kind: Exec, Command: "echo hi > out.txt"}, Ask, "policy"},
		{"a read-only command stays read-only", Policy{}, Request{Kind: Exec, Command: "ls -la"}, Allow, "readonly"},
		{"a file write", Policy{}, Request{Kind: Write, Path: "new.txt"}, Allow, "hook"},
		{"a denied file", Policy{Deny: []string{"Edit(./src/**)"}}, Request{Kind: Edit, Path: "src/main.go"}, Deny, "rule"},
		{"a file's other name", Policy{}, Request{Kind: Edit, Path: "sub/other-name.txt"}, Ask, "policy"},
		{"a plan-mode write", Policy{Mode: ModePlan}, Request{Kind: Write, Path: "new.txt"}, Deny, "mode"},
		{"an MCP tool", Policy{}, Request{Kind: MCP, MCP: MCPCall{Server: "gh", Tool: "create_issue"}}, Allow, "hook"},
		{"a denied MCP server", Policy{Deny: []string{"mcp__gh"}}, Request{Kind: MCP, MCP: MCPCall{Server: "gh", Tool: "create_issue"}}, Deny, "rule"},
		{"a web fetch", Policy{}, Request{Kind: Fetch, Host: "Docs.Example.com."}, Allow, "hook"},
		{"a fetch in plan mode", Policy{Mode: ModePlan}, Request{Kind: Fetch, Host: "docs.example.com"}, Allow, "hook"},
		{"a denied host", Policy{Deny: []string{"WebFetch(domain:*.example.com)"}}, Request{Kind: Fetch, Host: "docs.example.com"}, Deny, "rule"},
		{"a host asked about", Policy{Ask: []string{"WebFetch(domain:docs.example.com)"}}, Request{Kind: Fetch, Host: "docs.example.com"}, Ask, "rule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.policy
			p.Workspace, p.Home = ws, home
			e, err := NewEngine(p)
			if err != nil {
				t.Fatal(err)
			}
			req := tc.req
			req.Cwd = ws
			without := e.Decide(req)
			req.HookAllowed = true
			v := e.Decide(req)
			if v.Decision != tc.want || v.By != tc.wantBy {
				t.Fatalf("with the hook's allow: %s by %s (%s), want %s by %s", v.Decision, v.By, v.Reason, tc.want, tc.wantBy)
			}
			if tc.wantBy == "hook" {
				if without.Decision == Allow {
					t.Errorf("the request is allowed without the hook too (%s): the case shows nothing", without.By)
				}
				// A fetch changes nothing on the machine, whoever allows it.
				if v.Rule != "" || v.Reason == "" || v.ReadOnly != (req.Kind == Fetch) {
					t.Errorf("a hook's verdict = %+v; it names no rule and is not read-only", v)
				}
				// Nor does a hook's allow name a host: it opens no loopback or private address.
				if req.Kind == Fetch && e.NamesHost(req.Host) {
					t.Error("a hook's allow names the host")
				}
			} else if without.Decision != v.Decision || without.By != v.By {
				t.Errorf("the hook's allow changed %s by %s into %s by %s", without.Decision, without.By, v.Decision, v.By)
			}
		})
	}
}

// A hook's allow is an allow rule naming the call, and a rule naming a file tool's call does not cover
// what the engine guards for itself: a file that may hold secrets read, or a place later programs obey
// (git's hooks and configuration, shell start-up files, Warden's settings, a directory on PATH) written.
// Without the hook each of these asks; with it, each still asks, and says the hook did not cover it.
func TestAHooksAllowCoversNoSecretReadNorAGuardedWrite(t *testing.T) {
	ws, home := fixture(t)
	bin := filepath.Join(home, "bin")
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"the workspace's .env read", Request{Kind: Read, Path: ".env"}},
		{"an ssh key read", Request{Kind: Read, Path: filepath.Join(home, ".ssh", "id_rsa")}},
		{"aws credentials read through ~", Request{Kind: Read, Path: "~/.aws/credentials"}},
		{"a git hook written", Request{Kind: Write, Path: ".git/hooks/pre-commit"}},
		{"git's configuration edited", Request{Kind: Edit, Path: ".git/config"}},
		{"~/.bashrc edited", Request{Kind: Edit, Path: filepath.Join(home, ".bashrc")}},
		{"~/.zshenv written", Request{Kind: Write, Path: "~/.zshenv"}},
		{"~/.gitconfig written", Request{Kind: Write, Path: filepath.Join(home, ".gitconfig")}},
		{"~/.config/git/config written", Request{Kind: Write, Path: filepath.Join(home, ".config", "git", "config")}},
		{"an ssh key written", Request{Kind: Write, Path: filepath.Join(home, ".ssh", "authorized_keys")}},
		{"Warden's settings written", Request{Kind: Write, Path: filepath.Join(home, ".config", "warden", "settings.json")}},
		{"a program on PATH written", Request{Kind: Write, Path: filepath.Join(bin, "ls")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := func(name string) (string, bool) {
				if name == "PATH" {
					return bin + ":/usr/bin:/bin", true
				}
				return "", false
			}
			e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			req := tc.req
			req.Cwd = ws
			if without := e.Decide(req); without.Decision != Ask {
				t.Fatalf("without the hook: %s by %s (%s), want it to ask", without.Decision, without.By, without.Reason)
			}
			req.HookAllowed = true
			v := e.Decide(req)
			if v.Decision != Ask || v.By == "hook" {
				t.Fatalf("with the hook's allow: %s by %s (%s), want it to ask", v.Decision, v.By, v.Reason)
			}
			if !strings.Contains(v.Reason, "PreToolUse hook") {
				t.Errorf("the reason %q does not say the hook's allow did not cover it", v.Reason)
			}
		})
	}
}
