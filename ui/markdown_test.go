package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
)

func TestMarkdownBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"paragraphs", "one\n\ntwo\n\nthree\n", []string{"one\n\n", "two\n\n", "three\n"}},
		{"a last line not finished yet", "one\n\ntwo", []string{"one\n\ntwo"}},
		{"a blank line inside a fence", "```\na\n\nb\n```\n\nafter\n", []string{"```\na\n\nb\n```\n\n", "after\n"}},
		{"an open fence", "text\n\n```\na\n\nb", []string{"text\n\n", "```\na\n\nb"}},
		{"a loose list stays one", "- a\n\n- b\n\n  more\n\nend\n", []string{"- a\n\n- b\n\n  more\n\n", "end\n"}},
		{"an ordered list stays one", "1. a\n\n2. b\n", []string{"1. a\n\n2. b\n"}},
		{"indented code", "x\n\n    code\n\n    more\n", []string{"x\n\n    code\n\n    more\n"}},
		{"an unfinished line waits", "one\n\n1", []string{"one\n\n1"}},
		{"a thematic break", "a\n\n---\n\nb\n", []string{"a\n\n", "---\n\n", "b\n"}},
		{"a reference definition", "see [x][1]\n\nmore\n\n[1]: http://example.com\n", []string{"see [x][1]\n\nmore\n\n[1]: http://example.com\n"}},
	} {
		if got := markdownBlocks(tc.text); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// visibleText is what a render shows: no styles, no trailing blanks.
func visibleText(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(out, "\n")
}

func TestMarkdownRenderedByBlocksLooksLikeTheWhole(t *testing.T) {
	var md markdown
	for _, doc := range []string{
		longAnswer(4000),
		"# Title\n\nPara one.\n\n## Sub\n\nText with `code`.\n\n---\n\n> quote\n\n> quote2\n\n1. one\n2. two\n\n3. three\n\nAfter list.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd.\n",
		"Intro:\n\n```\ncode\n\nmore code\n```\n\n* a\n\n* b\n\n  cont\n\nText\n",
		"Heading\n=======\n\nText\n\n    indented code\n\n    more\n\nDone",
	} {
		for _, style := range []string{markdownStyle(true, false), markdownStyle(false, false), markdownStyle(true, true)} {
			var cache mdBlocks
			whole := visibleText(md.render(doc, style, 80))
			if got := visibleText(md.renderBlocks(&cache, doc, style, 80)); got != whole {
				t.Errorf("%s: rendered by blocks:\n%s\n--- whole:\n%s", style, got, whole)
			}
		}
	}
}

// A streaming message re-renders only its last, growing block: the cost of a frame does not grow with
// what was already said.
func TestStreamingRendersOnlyTheGrowingBlock(t *testing.T) {
	m, clock := newTestModel(t, 100, 30)
	send(m, agent.TextDelta{Text: longAnswer(20 << 10)})
	m.View()
	before := m.md.renders
	clock.t = clock.t.Add(time.Second)
	send(m, agent.TextDelta{Text: "More words for the last paragraph"})
	if s := plain(m); !strings.Contains(s, "More words for the last paragraph") {
		t.Fatalf("the delta is not shown:\n%s", s)
	}
	if n := m.md.renders - before; n != 1 {
		t.Errorf("a delta rendered %d Markdown documents, want 1 (the last block)", n)
	}
}
