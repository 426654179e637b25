package permissions

import (
	"strings"
	"sync"
	"testing"
)

func TestNewEngineNamesBadRule(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{Allow: []string{"Bash(ls)", "Bsh(ls)"}}, `"Bsh(ls)"`},
		{Policy{Deny: []string{"Bash(ls"}}, `permissions.deny: rule "Bash(ls"`},
		{Policy{Ask: []string{"Read()"}}, `permissions.ask: rule "Read()"`},
		{Policy{Allow: []string{""}}, "empty rule"},
		{Policy{Mode: "fast"}, `unknown permission mode "fast"`},
	} {
		_, err := NewEngine(c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewEngine(%+v) error = %v, want it to contain %s", c.p, err, c.want)
		}
	}
}

func TestAddAllowValidatesAndApplies(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddAllow("Bash(npm test"); err == nil {
		t.Error("AddAllow accepted a rule without a closing parenthesis")
	}
	if v := e.Decide(Request{Kind: Exec, Command: "npm test", Cwd: ws}); v.Decision != Ask || v.SuggestedRule != "Bash(npm test:*)" {
		t.Errorf("before the grant: %s, suggested %q", v.Decision, v.SuggestedRule)
	}
	if err := e.AddAllow("Bash(npm test:*)"); err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(Request{Kind: Exec, Command: "npm test -- -u", Cwd: ws}); v.Decision != Allow || v.By != "rule" || v.Rule != "Bash(npm test:*)" {
		t.Errorf("after the grant: %+v", v)
	}
}

func TestModes(t *testing.T) {
	if m, err := ParseMode(""); err != nil || m != ModeDefault {
		t.Errorf("ParseMode(\"\") = %q, %v", m, err)
	}
	for _, m := range []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeYolo} {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if ModeDefault.Next() != ModeAcceptEdits || ModeAcceptEdits.Next() != ModePlan || ModePlan.Next() != ModeDefault || ModeYolo.Next() != ModeDefault {
		t.Error("Shift+Tab order changed")
	}
	ws, home := fixture(t)
	e, _ := NewEngine(Policy{Workspace: ws, Home: home})
	e.SetMode(ModePlan)
	if v := e.Decide(Request{Kind: Exec, Command: "git push", Cwd: ws}); v.Decision != Deny || v.By != "mode" {
		t.Errorf("plan: %+v", v)
	}
}

// TestVerdictNamesThePart checks the reasons and highlighted parts the modal shows.
func TestVerdictNamesThePart(t *testing.T) {
	ws, home := fixture(t)
	e, _ := NewEngine(Policy{Workspace: ws, Home: home, Deny: []string{"Bash(curl:*)"}})
	for _, c := range []struct{ cmd, reason, part string }{
		{"git status && git push origin main", "`git push` is not read-only", "git push origin main"},
		{"ls -la > out.txt", "writes to `out.txt`", "ls -la > out.txt"},
		{"cat README.md; curl http://x", "`curl` is denied by `Bash(curl:*)`", "curl http://x"},
		{"sort -o out.txt README.md", "`sort -o` is not read-only; Warden cannot check your deny and ask rules against it", "sort -o out.txt README.md"},
		{"cat .env", "reads `.env`, which may hold secrets", "cat .env"},
		{"rm -rf ~", "`rm` removes `~` recursively (catastrophic)", "rm -rf ~"},
	} {
		v := e.Decide(Request{Kind: Exec, Command: c.cmd, Cwd: ws})
		if v.Reason != c.reason || v.Part != c.part {
			t.Errorf("%q: reason %q part %q, want %q and %q", c.cmd, v.Reason, v.Part, c.reason, c.part)
		}
	}
}

func TestEngineConcurrentUse(t *testing.T) {
	ws, home := fixture(t)
	e, _ := NewEngine(Policy{Workspace: ws, Home: home})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				e.Decide(Request{Kind: Exec, Command: "git status && ls", Cwd: ws})
				if i%2 == 0 {
					_ = e.AddAllow("Bash(make:*)")
					e.SetMode(e.Mode().Next())
				}
			}
		}(i)
	}
	wg.Wait()
}
