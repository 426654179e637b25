package ui

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// updating reports -update, the flag of x/exp/golden (which teatest brings in) that rewrites golden files.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fixedClock is a clock tests move by hand.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func newTestModel(t testing.TB, w, h int) (*Model, *fixedClock) {
	t.Helper()
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	eng, _ := permissions.NewEngine(permissions.Policy{})
	m := newModel(Options{Model: "fake-model", Workspace: "/work/project", Engine: eng, ContextWindow: 32000}, clock.now)
	m.noColor = false
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, clock
}

func send(m *Model, evs ...agent.Event) {
	for _, e := range evs {
		m.Update(eventMsg{e})
	}
}

func exit(n int) *int { return &n }

// plain is the screen as text, without styles.
func plain(m *Model) string {
	return ansi.Strip(m.View().Content)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("screen differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func conversationEvents() []agent.Event {
	in, _ := json.Marshal(map[string]string{"command": "ls -la", "description": "List the files"})
	return []agent.Event{
		agent.TextDelta{Text: "I'll look at the files first."},
		agent.AssistantText{Text: "I'll look at the **files** first."},
		agent.ToolCallStarted{ID: "c1", Name: "bash", Input: in, Access: tools.Access{Kind: tools.AccessExec, Command: "ls -la", Summary: "ls -la", Cwd: "/work/project"}},
		agent.PermissionDecided{ID: "c1", Decision: permissions.Allow, By: "readonly", Reason: "read-only"},
		agent.ToolOutput{ID: "c1", Chunk: "total 16\ndrwxr-xr-x 2 me me 4096 .\ndrwxr-xr-x 9 me me 4096 ..\n-rw-r--r-- 1 me me  120 go.mod\n-rw-r--r-- 1 me me 2048 main.go\n-rw-r--r-- 1 me me  512 README.md\n"},
		agent.ToolFinished{ID: "c1", Name: "bash", Result: tools.Result{ExitCode: exit(0)}, Duration: 120 * time.Millisecond},
		agent.UsageUpdated{Last: agent.Usage{PromptTokens: 3000, CompletionTokens: 200}},
	}
}

func TestConversationScreen(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m.conv.add(&item{kind: itemUser, text: "What is in this directory?"})
	send(m, conversationEvents()...)
	golden(t, "conversation-80x24", plain(m))
}

func TestSmallestScreen(t *testing.T) {
	m, _ := newTestModel(t, 60, 15)
	m.conv.add(&item{kind: itemUser, text: "What is in this directory?"})
	send(m, conversationEvents()...)
	got := plain(m)
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d is %d wide: %q", i, w, l)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 15 {
		t.Errorf("screen has %d lines, want 15", n)
	}
	golden(t, "conversation-60x15", got)
}
