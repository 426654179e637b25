package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
)

// /status says what the session runs on and where each rule comes from.
func TestStatusShowsTheSessionAndTheRulesOrigins(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	eng, _ := permissions.NewEngine(permissions.Policy{Allow: []string{"Bash(go test:*)"}, Deny: []string{"Read(./.env)"}})
	eng.AddAllow("Bash(touch:*)")
	m.opts.Engine = eng
	m.opts.SessionID, m.opts.BaseURL, m.opts.Wall = "20261125-1", "http://127.0.0.1:1234/v1", "wall: bubblewrap"
	m.opts.Sandbox = "sandbox: bwrap, no network"
	m.opts.RuleOrigin = func(list, rule string) string {
		if rule == "Bash(go test:*)" {
			return "/work/project/.warden/settings.json"
		}
		if rule == "Read(./.env)" {
			return "--deny"
		}
		return ""
	}
	send(m, agent.UsageUpdated{Last: agent.Usage{PromptTokens: 3000, CompletionTokens: 200}, Total: agent.Usage{PromptTokens: 5000, CompletionTokens: 400}, Context: 3200, Window: 32000})
	typeText(m, "/status")
	press(m, "enter")
	s := plain(m)
	for _, want := range []string{"fake-model", "http://127.0.0.1:1234/v1", "20261125-1", "3,200 tokens used of 32,000 (10%), 28,800 left",
		"5,000 prompt, 400 completion", "Sandbox       bwrap, no network", "Wall          bubblewrap",
		"allow  Bash(go test:*)  from /work/project/.warden/settings.json", "deny   Read(./.env)  from --deny",
		"allow  Bash(touch:*)  from granted in this session"} {
		if !strings.Contains(s, want) {
			t.Errorf("/status lacks %q:\n%s", want, s)
		}
	}
}

// /permissions lists the rules and removes one for the session: it stops applying at once.
func TestPermissionsRemovesARule(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	eng, _ := permissions.NewEngine(permissions.Policy{Workspace: "/ws", Allow: []string{"Bash(touch:*)"}})
	m.opts.Engine = eng
	typeText(m, "/permissions")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "allow  Bash(touch:*)") || !strings.Contains(s, "granted in this session") {
		t.Fatalf("screen:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDelete})
	if s := plain(m); !strings.Contains(s, "Removed Bash(touch:*) for this session") || !strings.Contains(s, "No rule is in force") {
		t.Errorf("screen:\n%s", s)
	}
	if v := eng.Decide(permissions.Request{Kind: permissions.Exec, Command: "touch x", Cwd: "/ws"}); v.Decision != permissions.Ask {
		t.Errorf("touch is still %s", v.Decision)
	}
}

// /init sends the instructions to write AGENTS.md, shown in the transcript as the command typed.
func TestAppInitAsksForAgentsMD(t *testing.T) {
	s := fullSetup(t, `{"rules": [{"steps": [{"text": "Wrote it."}]}]}`)
	a := startAppWith(t, s, nil, nil)
	a.prompt("/init")
	scr := a.waitFor("❯ /init", "Wrote it.")
	if strings.Contains(scr, "Write an AGENTS.md") {
		t.Errorf("the whole prompt is shown:\n%s", scr)
	}
	if got := userMessages(a.srv); len(got) != 1 || !strings.HasPrefix(got[0], "Write an AGENTS.md file") {
		t.Errorf("the server received %q", got)
	}
}

// /compact summarises with the focus, and the transcript says what it did.
func TestAppCompactSummarises(t *testing.T) {
	s := fullSetup(t, `{"rules": [{"match": "summarise a coding session", "steps": [{"text": "- the summary"}]}, {"steps": [{"text": "You said: {{prompt}}"}]}]}`)
	a := startAppWith(t, s, nil, nil)
	a.prompt("one")
	a.waitFor("You said: one")
	a.prompt("two")
	a.waitFor("You said: two")
	a.idle()
	a.prompt("/compact the numbers")
	a.waitFor("compacting the conversation, keeping above all: the numbers", "context: summarised 4 messages")
	reqs := a.srv.Requests()
	if sys := reqs[len(reqs)-1].Messages[0].Content; !strings.Contains(sys, "the numbers") {
		t.Errorf("the summary request's instructions: %q", sys)
	}
}

// In a picker letters narrow the list (q, k and j too), as ? says: the keys of the history that are
// letters do not apply there.
func TestPickerLettersFilterAsHelpSays(t *testing.T) {
	m, _ := newTestModel(t, 140, 60)
	typeText(m, "?")
	s := plain(m)
	for _, want := range []string{"filter (pickers: just type)", "back (pickers: esc)", "up (pickers: ↑)", "down (pickers: ↓)"} {
		if !strings.Contains(s, want) {
			t.Errorf("? lacks %q:\n%s", want, s)
		}
	}
	press(m, "esc")
	eng, _ := permissions.NewEngine(permissions.Policy{Workspace: "/ws", Allow: []string{"Bash(make:*)", "Bash(kubectl get:*)"}})
	m.opts.Engine = eng
	typeText(m, "/permissions")
	press(m, "enter")
	typeText(m, "kq")
	s = plain(m)
	if !strings.Contains(s, "filter: kq") || m.top() == nil {
		t.Errorf("k and q did not go to the filter:\n%s", s)
	}
}
