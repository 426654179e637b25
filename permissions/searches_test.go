package permissions

import (
	"path/filepath"
	"testing"
)

func TestSearchRuleNamesTheReadRuleThatKeepsAFileBack(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home,
		Deny:  []string{"Bash(cat:*)", "Edit(./src/**)", "Read(./config/prod.yml)"},
		Ask:   []string{"Read(./config/**)", "Read(~/notes/**)"},
		Allow: []string{"Read(./config/**)"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, rule string
		ask        bool
	}{
		{filepath.Join(ws, "config", "prod.yml"), "Read(./config/prod.yml)", false}, // deny before ask
		{filepath.Join(ws, "config", "dev.yml"), "Read(./config/**)", true},         // an allow rule does not lift an ask
		{filepath.Join(ws, "config", "deep", "x"), "Read(./config/**)", true},
		{filepath.Join(home, "notes", "a.txt"), "Read(~/notes/**)", true},
		{filepath.Join(ws, "src", "main.go"), "", false}, // Edit and Bash rules do not limit reading
		{filepath.Join(ws, "configs", "x"), "", false},
	} {
		rule, ask := e.SearchRule(c.path)
		if rule != c.rule || ask != c.ask {
			t.Errorf("SearchRule(%s) = %q, %v; want %q, %v", c.path, rule, ask, c.rule, c.ask)
		}
	}
}
