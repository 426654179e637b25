package permissions

import (
	"slices"
	"testing"
)

func TestRemovedRuleNoLongerApplies(t *testing.T) {
	e, err := NewEngine(Policy{Workspace: "/ws", Home: "/home/me", Allow: []string{"Bash(touch:*)"}, Deny: []string{"Bash(rm:*)"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddAllow("Bash(mkdir:*)"); err != nil {
		t.Fatal(err)
	}
	allow, deny, ask := e.Rules()
	if !slices.Equal(allow, []string{"Bash(touch:*)", "Bash(mkdir:*)"}) || !slices.Equal(deny, []string{"Bash(rm:*)"}) || len(ask) != 0 {
		t.Fatalf("rules %v %v %v", allow, deny, ask)
	}
	decide := func(cmd string) Decision {
		return e.Decide(Request{Kind: Exec, Command: cmd, Cwd: "/ws"}).Decision
	}
	if decide("touch x") != Allow || decide("rm x") != Deny {
		t.Fatal("the rules do not apply before removal")
	}
	if !e.RemoveRule("allow", "Bash(touch:*)") || !e.RemoveRule("deny", "Bash(rm:*)") {
		t.Fatal("removal failed")
	}
	if e.RemoveRule("allow", "Bash(touch:*)") || e.RemoveRule("other", "Bash(mkdir:*)") {
		t.Error("removed a rule that was not there")
	}
	if decide("touch x") != Ask || decide("rm x") != Ask || decide("mkdir d") != Allow {
		t.Errorf("after removal: touch %s, rm %s, mkdir %s", decide("touch x"), decide("rm x"), decide("mkdir d"))
	}
}
