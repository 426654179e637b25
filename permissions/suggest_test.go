package permissions

import (
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
)

func TestSuggestRule(t *testing.T) {
	ws, home := fixture(t)
	ctx := shell.Context{Cwd: ws, Workspace: ws, Home: home}
	for _, c := range []struct{ cmd, want string }{
		{"git push origin main", "Bash(git push:*)"},
		{"npm run test -- x", "Bash(npm run test:*)"},
		{"npm test", "Bash(npm test:*)"},
		{"go test ./...", "Bash(go test:*)"},
		{"make build", "Bash(make build:*)"},
		{"make", "Bash(make)"},
		{"python3 script.py --fast", "Bash(python3 script.py --fast)"},
		{"node build.js", "Bash(node build.js)"},
		{"bash deploy.sh", "Bash(bash deploy.sh)"},
		{"env FOO=1 npm test", "Bash(npm test:*)"},
		{"timeout 60 go test ./...", "Bash(go test:*)"},
		{"rm -rf build", "Bash(rm -rf build)"},
		{"git status && git push", "Bash(git push:*)"},
		{"git push && npm publish", ""},
		{"ls -la", ""},
		{"sudo apt-get update", ""},
		{"$CMD x", ""},
		{"rm -rf /", ""},
		{"echo x > out.txt", "Write(./out.txt)"},
		{"cat .env", "Read(./.env)"},
		{"cd sub && make test", "Bash(make test:*)"},
		{"ls | xargs npm test", "Bash(npm test:*)"},
		{"ls | xargs rm", ""},
		{"find . -name '*.go' -exec rm {} \\;", ""},
		{"find . -exec chmod 644 {} +", ""},
		{"git -C sub push", "Bash(git -C sub push)"},
		{"./gradlew build", "Bash(./gradlew build)"},
		{"cargo build --release", "Bash(cargo build:*)"},
		{"pytest -x tests/", "Bash(pytest -x tests/)"},
		{"curl https://example.com", "Bash(curl https://example.com)"},
		{"mkdir -p out", "Bash(mkdir:*)"},
	} {
		if got := SuggestRule(c.cmd, ctx); got != c.want {
			t.Errorf("SuggestRule(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestSuggestedRuleAllows checks that saving the suggestion really allows the command next time.
func TestSuggestedRuleAllows(t *testing.T) {
	ws, home := fixture(t)
	for _, cmd := range []string{"git push origin main", "npm run test -- x", "make build", "python3 x.py", "echo x > out.txt", "cat .env", "timeout 5 go test ./..."} {
		e, _ := NewEngine(Policy{Workspace: ws, Home: home})
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		if v.Decision != Ask || v.SuggestedRule == "" {
			t.Fatalf("%q: %s with suggestion %q", cmd, v.Decision, v.SuggestedRule)
		}
		if err := e.AddAllow(v.SuggestedRule); err != nil {
			t.Fatal(err)
		}
		if v2 := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v2.Decision != Allow {
			t.Errorf("%q still %s after saving %q: %s", cmd, v2.Decision, v.SuggestedRule, v2.Reason)
		}
	}
}
