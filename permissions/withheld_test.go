package permissions

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
)

// The Read deny and ask rules say where their paths begin, for the read-only jail; other rules say
// nothing. Every path a rule covers is at or below one of them.
func TestReadRuleRoots(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home,
		Deny: []string{"Read(./config/prod.yml)", "Read(./private/**)", "Bash(curl:*)", "Edit(./src/**)"},
		Ask:  []string{"Read(~/work/**/*.crt)", "Read(//**/*.pem)", "Read(./we[ir]d\\*name/x)"}})
	if err != nil {
		t.Fatal(err)
	}
	roots := e.ReadRuleRoots()
	want := []string{filepath.Join(ws, "config", "prod.yml"), filepath.Join(ws, "private"), filepath.Join(home, "work"), "/", ws}
	if !slices.Equal(roots, want) {
		t.Errorf("roots = %q\nwant    %q", roots, want)
	}
	for p, w := range map[string]bool{
		filepath.Join(ws, "config", "prod.yml"):          true,
		filepath.Join(ws, "config", "dev.yml"):           false,
		filepath.Join(ws, "private"):                     true,
		filepath.Join(ws, "private", "a", "notes.md"):    true,
		filepath.Join(home, "work", "x", "y", "tls.crt"): true,
		filepath.Join(home, "work", "x", "y", "tls.txt"): false,
		filepath.Join(ws, "src", "main.go"):              false,
		"/srv/any/where/key.pem":                         true,
		filepath.Join(ws, "README.md"):                   false,
	} {
		rule, _ := e.SearchRule(p)
		if got := rule != ""; got != w {
			t.Errorf("SearchRule(%s) = %q, want a rule: %v", p, rule, w)
		}
		under := slices.ContainsFunc(roots, func(r string) bool { return shell.Within(r, p) })
		if w && !under {
			t.Errorf("%s is covered but below no root", p)
		}
	}
	if e.RemoveRule("deny", "Read(./private/**)"); slices.Contains(e.ReadRuleRoots(), filepath.Join(ws, "private")) {
		t.Error("a removed rule still has a root")
	}
}
