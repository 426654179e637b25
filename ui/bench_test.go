package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// bigSession is a model holding a 1,000-message conversation and a running command that has printed
// 100,000 lines: the load the issue sets for typing to stay under 5 ms a key.
func bigSession(b *testing.B) *Model {
	m, _ := newTestModel(b, 120, 40)
	for i := range 500 {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("Question %d: what does function f%d do?", i, i)})
		send(m, agent.AssistantText{Text: fmt.Sprintf("Function `f%d` **adds** numbers:\n\n- it takes two ints\n- it returns their sum\n\n```go\nfunc f%d(a, b int) int { return a + b }\n```", i, i)})
	}
	send(m,
		agent.ToolCallStarted{ID: "big", Name: "bash", Access: tools.Access{Kind: tools.AccessExec, Command: "seq 100000", Summary: "seq 100000"}},
		agent.PermissionDecided{ID: "big", Decision: permissions.Allow, By: "readonly"},
	)
	var chunk strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&chunk, "output line %d of a long build log\n", i)
		if i%1000 == 999 {
			send(m, agent.ToolOutput{ID: "big", Chunk: chunk.String()})
			chunk.Reset()
		}
	}
	m.View() // first render fills the caches of what is visible
	return m
}

func BenchmarkKeystroke(b *testing.B) {
	m := bigSession(b)
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	b.ResetTimer()
	for i := range b.N {
		m.Update(keys[i%2])
		m.View()
	}
}

func BenchmarkOutputChunk(b *testing.B) {
	m := bigSession(b)
	chunk := strings.Repeat("another line of compiler output, fairly long as they are\n", 20)
	b.ResetTimer()
	for range b.N {
		m.Update(eventMsg{agent.ToolOutput{ID: "big", Chunk: chunk}})
		m.View()
	}
}
