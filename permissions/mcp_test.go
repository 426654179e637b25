package permissions

import (
	"strings"
	"testing"
)

func mcpReq(server, tool string, hint, trusted bool) Request {
	return Request{Kind: MCP, MCP: MCPCall{Server: server, Tool: tool, ReadOnlyHint: hint, HintTrusted: trusted}}
}

func TestMCPDecisions(t *testing.T) {
	cases := []struct {
		name             string
		mode             Mode
		allow, deny, ask []string
		req              Request
		want             Decision
		by, rule         string
	}{
		{"asks by default", ModeDefault, nil, nil, nil, mcpReq("fs", "write_file", false, false), Ask, "policy", ""},
		{"a tool rule allows", ModeDefault, []string{"mcp__fs__write_file"}, nil, nil, mcpReq("fs", "write_file", false, false), Allow, "rule", "mcp__fs__write_file"},
		{"a tool rule covers no other tool", ModeDefault, []string{"mcp__fs__read_file"}, nil, nil, mcpReq("fs", "write_file", false, false), Ask, "policy", ""},
		{"a server rule allows its tools", ModeDefault, []string{"mcp__fs"}, nil, nil, mcpReq("fs", "write_file", false, false), Allow, "rule", "mcp__fs"},
		{"a server wildcard allows its tools", ModeDefault, []string{"mcp__fs__*"}, nil, nil, mcpReq("fs", "write_file", false, false), Allow, "rule", "mcp__fs__*"},
		{"a server rule covers no other server", ModeDefault, []string{"mcp__fs"}, nil, nil, mcpReq("fsx", "write_file", false, false), Ask, "policy", ""},
		{"deny beats allow", ModeDefault, []string{"mcp__fs"}, []string{"mcp__fs__write_file"}, nil, mcpReq("fs", "write_file", false, false), Deny, "rule", "mcp__fs__write_file"},
		{"a server deny beats a tool allow", ModeDefault, []string{"mcp__fs__read_file"}, []string{"mcp__fs"}, nil, mcpReq("fs", "read_file", true, true), Deny, "rule", "mcp__fs"},
		{"deny holds in yolo", ModeYolo, nil, []string{"mcp__fs"}, nil, mcpReq("fs", "read_file", false, false), Deny, "rule", "mcp__fs"},
		{"ask beats allow", ModeDefault, []string{"mcp__fs"}, nil, []string{"mcp__fs__write_file"}, mcpReq("fs", "write_file", false, false), Ask, "rule", "mcp__fs__write_file"},
		{"plan refuses what is not marked read-only", ModePlan, []string{"mcp__fs"}, nil, nil, mcpReq("fs", "write_file", false, false), Deny, "mode", ""},
		{"plan lets a marked tool ask", ModePlan, nil, nil, nil, mcpReq("fs", "read_file", true, false), Ask, "policy", ""},
		{"plan lets a marked tool of a trusted server run", ModePlan, nil, nil, nil, mcpReq("fs", "read_file", true, true), Allow, "readonly", ""},
		{"an untrusted read-only mark still asks", ModeDefault, nil, nil, nil, mcpReq("fs", "read_file", true, false), Ask, "policy", ""},
		{"a trusted read-only mark runs", ModeDefault, nil, nil, nil, mcpReq("fs", "read_file", true, true), Allow, "readonly", ""},
		{"trust without a mark asks", ModeDefault, nil, nil, nil, mcpReq("fs", "write_file", false, true), Ask, "policy", ""},
		{"accept-edits does not cover MCP", ModeAcceptEdits, nil, nil, nil, mcpReq("fs", "write_file", false, false), Ask, "policy", ""},
		{"yolo allows", ModeYolo, nil, nil, nil, mcpReq("fs", "write_file", false, false), Allow, "mode", ""},
		{"a Bash rule is no MCP rule", ModeDefault, []string{"Bash"}, nil, nil, mcpReq("fs", "write_file", false, false), Ask, "policy", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := NewEngine(Policy{Mode: c.mode, Allow: c.allow, Deny: c.deny, Ask: c.ask, Workspace: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			v := e.Decide(c.req)
			if v.Decision != c.want || v.By != c.by || v.Rule != c.rule {
				t.Fatalf("got %s by %s rule %q (%s), want %s by %s rule %q", v.Decision, v.By, v.Rule, v.Reason, c.want, c.by, c.rule)
			}
			if v.Decision == Ask && v.SuggestedRule != c.req.MCP.Name() {
				t.Errorf("suggested rule %q", v.SuggestedRule)
			}
			if !strings.Contains(v.Reason, "`"+c.req.MCP.Tool+"`") || !strings.Contains(v.Reason, "`"+c.req.MCP.Server+"`") {
				t.Errorf("reason %q does not name the server and tool", v.Reason)
			}
		})
	}
}

func TestMCPRulesParse(t *testing.T) {
	for _, ok := range []string{"mcp__fs", "mcp__fs__read_file", "mcp__my-db__query", "mcp__fs__*", "mcp__a__b__c"} {
		if _, err := ParseRule(ok); err != nil {
			t.Errorf("ParseRule(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"mcp__", "mcp__fs__", "mcp__fs(read)", "mcp__f s", "mcp__fs__read.file", "mcp____x"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	// A granted rule applies at once, as the modal's `a` expects.
	e, err := NewEngine(Policy{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddAllow("mcp__fs__write_file"); err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(mcpReq("fs", "write_file", false, false)); v.Decision != Allow {
		t.Errorf("after the grant: %+v", v)
	}
}

// MCP rules sit beside path rules without being taken for them: a deny of one server's tools blocks no
// file read, and a Read rule no MCP call.
func TestMCPRulesDoNotLeakIntoOtherKinds(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Deny: []string{"mcp__fs"}, Allow: []string{"Read(./**)"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(Request{Kind: Read, Path: "x.txt", Cwd: ws}); v.Decision != Allow {
		t.Errorf("read: %+v", v)
	}
	if v := e.Decide(Request{Kind: Exec, Command: "ls", Cwd: ws}); v.Decision != Allow {
		t.Errorf("ls: %+v", v)
	}
}
