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
// what the engine guards for itself: a file that may hold secrets read, or a place later programs run or
// obey written (git's hooks and configuration, shell start-up files, Warden's and Claude Code's settings
// and hooks, .mcp.json, editors' tasks, dev containers, direnv, services and autostart entries, curl's and
// wget's defaults, package managers' configuration, a directory on PATH).
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
		// Places whose content later programs run or obey, the red team's and their kin.
		{"the person's hook script rewritten", Request{Kind: Write, Path: "~/.claude/hooks/allow.sh"}},
		{"the person's Claude Code settings written", Request{Kind: Write, Path: filepath.Join(home, ".claude", "settings.json")}},
		{"a Claude Code command of the person's written", Request{Kind: Write, Path: "~/.claude/commands/deploy.md"}},
		{"the project's Claude Code settings written", Request{Kind: Write, Path: ".claude/settings.json"}},
		{"the project's local Claude Code settings edited", Request{Kind: Edit, Path: ".claude/settings.local.json"}},
		{"a project hook script written", Request{Kind: Write, Path: ".claude/hooks/fmt.sh"}},
		{"the project's MCP servers written", Request{Kind: Write, Path: ".mcp.json"}},
		{"a systemd user unit written", Request{Kind: Write, Path: "~/.config/systemd/user/x.service"}},
		{"a systemd user unit in the data home written", Request{Kind: Write, Path: "~/.local/share/systemd/user/x.service"}},
		{"an autostart entry written", Request{Kind: Write, Path: "~/.config/autostart/x.desktop"}},
		{"direnv's own script written", Request{Kind: Write, Path: "~/.config/direnv/direnvrc"}},
		{"direnv's script under XDG_CONFIG_HOME written", Request{Kind: Write, Path: filepath.Join(home, "xdg", "direnv", "direnvrc")}},
		{"a systemd unit under XDG_CONFIG_HOME written", Request{Kind: Write, Path: filepath.Join(home, "xdg", "systemd", "user", "x.service")}},
		{"an .envrc written", Request{Kind: Write, Path: ".envrc"}},
		{"VS Code's tasks written", Request{Kind: Write, Path: ".vscode/tasks.json"}},
		{"VS Code's launch configurations written", Request{Kind: Write, Path: ".vscode/launch.json"}},
		{"a dev container written", Request{Kind: Write, Path: ".devcontainer/devcontainer.json"}},
		{"a root dev container file written", Request{Kind: Write, Path: ".devcontainer.json"}},
		{"an IntelliJ run configuration written", Request{Kind: Write, Path: ".idea/runConfigurations/Run.xml"}},
		{"~/.curlrc written", Request{Kind: Write, Path: "~/.curlrc"}},
		{"~/.wgetrc written", Request{Kind: Write, Path: "~/.wgetrc"}},
		{"~/.npmrc written", Request{Kind: Write, Path: "~/.npmrc"}},
		{"the project's .npmrc written", Request{Kind: Write, Path: ".npmrc"}},
		{"the project's .yarnrc.yml written", Request{Kind: Write, Path: ".yarnrc.yml"}},
		{"~/.pypirc written", Request{Kind: Write, Path: "~/.pypirc"}},
		{"git's ignore file under ~/.config written", Request{Kind: Write, Path: "~/.config/git/attributes"}},
		{"an ssh config written", Request{Kind: Write, Path: "~/.ssh/config"}},
		{"Python's user site start-up written", Request{Kind: Write, Path: "~/.local/lib/python3.11/site-packages/usercustomize.py"}},
		{"a .pth file in site-packages written", Request{Kind: Write, Path: "~/.local/lib/python3.11/site-packages/x.pth"}},
		{"a cron table written", Request{Kind: Write, Path: "/etc/cron.d/x"}},
		{"a spelling in capitals on a case-insensitive disk", Request{Kind: Write, Path: ".VSCode/Tasks.json"}},
		{"the script a hook of the person's runs, kept elsewhere", Request{Kind: Write, Path: filepath.Join(home, "scripts", "guard.sh")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := func(name string) (string, bool) {
				switch name {
				case "PATH":
					return bin + ":/usr/bin:/bin", true
				case "XDG_CONFIG_HOME":
					return filepath.Join(home, "xdg"), true
				}
				return "", false
			}
			e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env, HookFiles: []string{filepath.Join(home, "scripts", "guard.sh")}})
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

// The guarded places are a catalogue of what later programs run, not of dot files: the writes a person
// asks for all day (code, documents, package.json, VS Code's settings, CI workflows, a project's Claude
// Code commands) pass under a hook's allow and in accept-edits. The guarded ones in the workspace, and a
// project script a hook runs, ask in accept-edits, through the file tools and a command's redirection alike.
func TestOrdinaryWritesPassWhereTheGuardedPlacesAsk(t *testing.T) {
	ws, home := fixture(t)
	hook, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	edits, err := NewEngine(Policy{Workspace: ws, Home: home, Mode: ModeAcceptEdits, HookFiles: []string{filepath.Join(ws, "tools", "lint.sh")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"src/main.go", "README.md", "package.json", ".vscode/settings.json",
		".vscode/extensions.json", ".github/workflows/ci.yml", "Makefile", ".env.example", ".claude/commands/review.md",
		"docs/hooks/setup.md", "src/settings.json", "tasks.json", ".gitignore", ".github/CODEOWNERS"} {
		req := Request{Kind: Write, Path: path, Cwd: ws, HookAllowed: true}
		if v := hook.Decide(req); v.Decision != Allow || v.By != "hook" {
			t.Errorf("%s under a hook's allow: %s by %s (%s), want allowed by the hook", path, v.Decision, v.By, v.Reason)
		}
		req.HookAllowed = false
		if v := edits.Decide(req); v.Decision != Allow {
			t.Errorf("%s in accept-edits: %s by %s (%s), want allowed", path, v.Decision, v.By, v.Reason)
		}
	}
	for _, path := range []string{".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/fmt.sh",
		".mcp.json", ".vscode/tasks.json", ".vscode/launch.json", ".devcontainer/devcontainer.json", ".envrc",
		".npmrc", ".yarnrc.yml", ".git/config", ".warden/settings.json", "sub/.envrc", "tools/lint.sh"} {
		if v := edits.Decide(Request{Kind: Edit, Path: path, Cwd: ws}); v.Decision != Ask {
			t.Errorf("%s in accept-edits: %s by %s (%s), want it to ask", path, v.Decision, v.By, v.Reason)
		}
		cmd := "echo '{}' > " + path
		if v := edits.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != Ask {
			t.Errorf("%q in accept-edits: %s by %s (%s), want it to ask", cmd, v.Decision, v.By, v.Reason)
		}
	}
}
