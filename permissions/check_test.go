package permissions

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckJSONShape(t *testing.T) {
	ws, home := fixture(t)
	e, _ := NewEngine(Policy{Workspace: ws, Home: home, Deny: []string{"Bash(curl:*)"}})
	for _, c := range []struct{ cmd, want string }{
		{"git status", `{"command":"git status","decision":"allow","readonly":true,"reason":"` + "`git status` only reads" + `","dangerous":false}`},
		{"curl x", `{"command":"curl x","decision":"deny","readonly":false,"reason":"` + "`curl` is denied by `Bash(curl:*)`" + `","rule":"Bash(curl:*)","dangerous":false}`},
		{"git push", `{"command":"git push","decision":"ask","readonly":false,"reason":"` + "`git push` is not read-only" + `","dangerous":false,"suggested_rule":"Bash(git push:*)"}`},
		{"rm -rf /", `{"command":"rm -rf /","decision":"ask","readonly":false,"reason":"` + "`rm` removes `/` recursively (catastrophic)" + `","dangerous":true}`},
	} {
		b, err := json.Marshal(Check(e, c.cmd, ""))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("Check(%q)\n got %s\nwant %s", c.cmd, b, c.want)
		}
	}
}

func TestReadCheckLines(t *testing.T) {
	in := "git status\n\n\"ls\\nrm x\"\r\n  cat x  \n\"tab\\there\"\n"
	got, err := ReadCheckLines(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"git status", "ls\nrm x", "  cat x  ", "tab\there"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := ReadCheckLines(strings.NewReader("ok\n\"unterminated\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad JSON line: error %v", err)
	}
}
