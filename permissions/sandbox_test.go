package permissions

import "testing"

func TestUnsandboxedAlwaysAsksButDenyStillDenies(t *testing.T) {
	ws, home := fixture(t)
	for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeYolo} {
		e, err := NewEngine(Policy{Mode: mode, Workspace: ws, Home: home, Allow: []string{"Bash(make:*)", "Bash"},
			Deny: []string{"Bash(curl:*)"}, SandboxAutoAllow: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"make build", "ls", "rm -rf build"} {
			v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws, Unsandboxed: true})
			if v.Decision != Ask || v.SuggestedRule != "" {
				t.Errorf("%s: unsandboxed %q = %s (%s), suggestion %q", mode, cmd, v.Decision, v.Reason, v.SuggestedRule)
			}
		}
		if v := e.Decide(Request{Kind: Exec, Command: "curl x", Cwd: ws, Unsandboxed: true}); v.Decision != Deny {
			t.Errorf("%s: a deny rule must still deny outside the sandbox: %s", mode, v.Decision)
		}
	}
}

func TestSandboxAutoAllowRunsWritesButNotDangerOrAskRules(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Ask: []string{"Bash(git push:*)"}, SandboxAutoAllow: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]Decision{
		"npm install":        Allow,
		"rm -rf build":       Allow,
		"echo x > out.txt":   Allow,
		"git push origin":    Ask,
		"rm -rf /":           Ask,
		"cat .env":           Ask,
		"ls -la":             Allow,
		"make test && rm -r": Allow,
	}
	for cmd, want := range cases {
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		if v.Decision != want {
			t.Errorf("%q = %s by %s (%s), want %s", cmd, v.Decision, v.By, v.Reason, want)
		}
		if want == Allow && !v.ReadOnly && v.By != "sandbox" {
			t.Errorf("%q allowed by %s, want sandbox", cmd, v.By)
		}
	}
	e.SetSandboxAutoAllow(false)
	if v := e.Decide(Request{Kind: Exec, Command: "npm install", Cwd: ws}); v.Decision != Ask {
		t.Errorf("after the sandbox is turned off, npm install = %s", v.Decision)
	}
	// File tools run in Warden's own process, outside the sandbox: the sandbox allows none of their writes.
	e.SetSandboxAutoAllow(true)
	if v := e.Decide(Request{Kind: Write, Path: "new.txt", Cwd: ws}); v.Decision != Ask {
		t.Errorf("write_file under the sandbox = %s", v.Decision)
	}
}
