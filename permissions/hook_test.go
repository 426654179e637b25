package permissions

import (
	"os"
	"path/filepath"
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
				if v.Rule != "" || v.Reason == "" || v.ReadOnly {
					t.Errorf("a hook's verdict = %+v; it names no rule and is not read-only", v)
				}
			} else if without.Decision != v.Decision || without.By != v.By {
				t.Errorf("the hook's allow changed %s by %s into %s by %s", without.Decision, without.By, v.Decision, v.By)
			}
		})
	}
}
