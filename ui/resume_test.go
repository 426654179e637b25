package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// A resumed write shows the diff the person saw when it ran, not only what the model was told.
func TestResumedWriteShowsItsDiff(t *testing.T) {
	out := "Created a.txt (1 line)."
	l := &agent.Loaded{ID: "s", Records: []agent.Record{
		{Type: agent.RecToolCall, CallID: "w1", Name: "write_file", Summary: "a.txt"},
		{Type: agent.RecPermission, CallID: "w1", Decision: "allow", By: "user"},
		{Type: agent.RecToolResult, CallID: "w1", Name: "write_file", Output: &out,
			Display: "Created a.txt (1 line).\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hello resumed\n"},
	}}
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Resumed: l}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := plain(m); !strings.Contains(s, "+hello resumed") {
		t.Errorf("the diff is not shown:\n%s", s)
	}
}
