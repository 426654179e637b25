package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/piped"
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

// A resumed prompt that was sent with piped input shows as it did then: the prompt and the input's
// summary, not the block; ↑ recalls the prompt alone.
func TestAResumedPromptShowsWhatWasPipedAsItsSummary(t *testing.T) {
	in, err := piped.Read(strings.NewReader("diff --git a/x b/x\n+PIPED-LINE\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	l := &agent.Loaded{ID: "s", Records: []agent.Record{
		{Type: agent.RecMessage, Message: &openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: in.Message("review this")}},
		{Type: agent.RecMessage, Message: &openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: "Looks right."}},
	}}
	clock := &fixedClock{t: time.Date(2026, 11, 27, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Resumed: l}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	s := plain(m)
	if !strings.Contains(s, "❯ review this") || !strings.Contains(s, "stdin attached: 2 lines (31 bytes)") || strings.Contains(s, "PIPED-LINE") {
		t.Errorf("the screen:\n%s", s)
	}
	if len(m.prompts) != 1 || m.prompts[0] != "review this" {
		t.Errorf("prompts to recall %q", m.prompts)
	}
}
