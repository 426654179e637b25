package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func TestItemsFarAboveTheEndGiveUpWhatTheyDrewButNotWhatWasSaid(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	send(m,
		agent.ToolCallStarted{ID: "old", Name: "bash", Access: tools.Access{Kind: tools.AccessExec, Command: "seq 5000", Summary: "seq 5000"}},
		agent.PermissionDecided{ID: "old", Decision: permissions.Allow, By: "readonly"},
	)
	var out strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&out, "line %d\n", i)
	}
	send(m, agent.ToolOutput{ID: "old", Chunk: out.String()},
		agent.ToolFinished{ID: "old", Name: "bash", Result: tools.Result{Output: out.String()[:3000], OutputPath: "/tmp/old-output.txt", Lines: 5000}})
	old := m.conv.items[len(m.conv.items)-1]
	for i := range retireAfter + 50 {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("question %d", i)})
		m.View()
	}
	send(m, agent.TurnDone{})
	if old.lines != nil || old.panel.bodyLines != nil || old.panel.result.Output != "" {
		t.Fatal("the old panel kept its render or the model's text")
	}
	if n := len(old.panel.out.Tail(maxKeptLines)); n != retiredKeptLines {
		t.Fatalf("the old panel keeps %d lines of an output that is whole in a file", n)
	}
	first := m.conv.items[0]
	if first.kind != itemHeader || first.text == "" {
		t.Fatal("what was said was dropped")
	}
	// Scrolled back to, it is drawn again, and expanded it says where the rest is.
	old.panel.expanded = true
	m.conv.version++
	lines := m.conv.itemLines(m.renderCtx(), old, 100)
	text := stripANSI(strings.Join(lines, "\n"))
	if !strings.Contains(text, "line 4999") || !strings.Contains(text, "4,960 earlier lines not shown here") {
		t.Fatalf("the retired panel, expanded:\n%s", text)
	}
	if n := m.conv.items[len(m.conv.items)-1]; n.lines == nil {
		t.Fatal("the newest item lost its render")
	}
}
