package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func fetchApproval(t *testing.T, url, host string) (*Model, chan agent.Approval) {
	t.Helper()
	m, clock := newTestModel(t, 120, 24)
	input := json.RawMessage(`{"url":"` + url + `","prompt":"what changed?"}`)
	access := tools.Access{Kind: tools.AccessFetch, Host: host, Summary: url}
	send(m, agent.ToolCallStarted{ID: "f1", Name: "web_fetch", Input: input, Access: access})
	reply := make(chan agent.Approval, 1)
	m.Update(approvalMsg{reply: reply, req: agent.ApprovalRequest{CallID: "f1", Tool: "web_fetch", Input: input, Access: access,
		Verdict: permissions.Verdict{Decision: permissions.Ask, Reason: "fetches from `" + host + "`, a host no rule allows",
			SuggestedRule: "WebFetch(domain:" + host + ")"}}})
	clock.t = clock.t.Add(typeAheadGuard * 2)
	return m, reply
}

func TestAFetchAsksPerDomainAndAlwaysSavesTheDomainsRule(t *testing.T) {
	m, reply := fetchApproval(t, "https://docs.example.com/guide?q=1", "docs.example.com")
	screen := plain(m)
	for _, want := range []string{"Allow web_fetch?", "url    https://docs.example.com/guide?q=1", "domain docs.example.com",
		"a always allow this domain (session)", "p always allow this domain (project)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("modal lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "only under a rule naming the host") {
		t.Errorf("a public name is said to be restricted:\n%s", screen)
	}
	if strings.Contains(screen, "what changed?") {
		t.Errorf("the panel names the prompt, not the URL:\n%s", screen)
	}
	press(m, "a")
	if screen := plain(m); !strings.Contains(screen, "Always allow this domain for this session with the rule:") ||
		!strings.Contains(screen, "WebFetch(domain:docs.example.com)") {
		t.Errorf("the rule is not shown before saving:\n%s", screen)
	}
	press(m, "enter")
	if ap := answered(t, reply); !ap.Allow || ap.Rule != "WebFetch(domain:docs.example.com)" || ap.Scope != agent.ForSession {
		t.Errorf("answer %+v", ap)
	}
}

func TestAFetchOfALoopbackHostSaysOnlyARuleReachesIt(t *testing.T) {
	m, _ := fetchApproval(t, "http://127.0.0.1:8080/", "127.0.0.1")
	if screen := plain(m); !strings.Contains(screen, "This is a loopback address: Warden connects to it only under a rule naming the host") {
		t.Errorf("modal:\n%s", screen)
	}
}
