package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Trusting a workspace starts its MCP servers at once (and the person's own that waited for it): the notice
// must not send the person to a restart for them.
func TestTheTrustNoticeSaysMCPServersStartNow(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Trust: newFakeTrust(`.mcp.json: MCP server "fs" would run: npx -y fs`)}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 24})
	if s := plain(m); !strings.Contains(s, "starts no server or hook they name") {
		t.Errorf("trust prompt:\n%s", s)
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if s := plain(m); !strings.Contains(s, "MCP servers apply now") {
		t.Errorf("after y:\n%s", s)
	}
}
