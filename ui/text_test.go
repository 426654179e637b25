package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func TestExpandTabs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"col1\tcol2\tcol3", "col1    col2    col3"},
		{"1\tgoodbye", "1   goodbye"},
		{"\tfmt.Println()", "    fmt.Println()"},
		{"ab\t\tc", "ab      c"},
		{"a\nbc\td", "a\nbc  d"},
		{"日本\tx", "日本    x"}, // wide characters take two columns each
		{"no tabs", "no tabs"},
	} {
		if got := expandTabs(tc.in); got != tc.want {
			t.Errorf("expandTabs(%q) = %q, want %q", tc.in, got, tc.want)
		}
		styled := "\x1b[1m" + strings.ReplaceAll(tc.in, "\n", "\x1b[0m\n\x1b[1m") + "\x1b[0m"
		if got := ansi.Strip(expandStyledTabs(styled)); got != tc.want {
			t.Errorf("expandStyledTabs(%q) = %q, want %q", styled, got, tc.want)
		}
	}
}

// A tab that reaches the frame takes no cell on the screen: every place text is drawn expands them.
func TestTabsShowAsSpacesEverywhere(t *testing.T) {
	m, clock := newTestModel(t, 100, 60)
	m.conv.add(&item{kind: itemUser, text: "text\ttab"})
	send(m, agent.TextDelta{Text: "col1\tcol2\tcol3\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n"})
	check := func(what string, want ...string) {
		t.Helper()
		v := m.View().Content
		if strings.Contains(v, "\t") {
			t.Errorf("%s: a tab reaches the frame", what)
		}
		s := ansi.Strip(v)
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: the screen lacks %q:\n%s", what, w, s)
			}
		}
	}
	check("streaming", "text    tab", "col1    col2    col3", "    fmt.Println(\"hi\")")
	send(m, agent.AssistantText{Text: "col1\tcol2\tcol3\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n"})
	check("answer", "col1    col2    col3")
	// The code line keeps its indentation relative to the line above it.
	s := plain(m)
	fn, pr := strings.Index(s, "func main()"), strings.Index(s, "fmt.Println")
	lineStart := func(i int) int { return strings.LastIndexByte(s[:i], '\n') + 1 }
	if fn < 0 || pr < 0 || (pr-lineStart(pr))-(fn-lineStart(fn)) != tabWidth {
		t.Errorf("the tab-indented code line is not indented by %d:\n%s", tabWidth, s)
	}
	send(m,
		agent.ToolCallStarted{ID: "e1", Name: "edit_file", Access: tools.Access{Kind: tools.AccessWrite, Path: "a.txt", Summary: "a.txt"}},
		agent.PermissionDecided{ID: "e1", Decision: permissions.Allow, By: "rule"},
		agent.ToolFinished{ID: "e1", Name: "edit_file", Result: tools.Result{Display: "1\tgoodbye"}, Duration: time.Millisecond},
		agent.ToolCallStarted{ID: "b1", Name: "bash", Access: tools.Access{Kind: tools.AccessExec, Command: "printf", Summary: "printf"}},
		agent.PermissionDecided{ID: "b1", Decision: permissions.Allow, By: "rule"},
		agent.ToolOutput{ID: "b1", Chunk: "name\tsize\nx\t1\n"},
		agent.ToolFinished{ID: "b1", Name: "bash", Result: tools.Result{ExitCode: exit(0)}, Duration: time.Millisecond},
		agent.Notice{Message: "a\tnotice"},
	)
	clock.t = clock.t.Add(time.Second)
	check("panels", "1   goodbye", "name    size", "x   1", "a   notice")
	press(m, "ctrl+t", "enter")
	check("pager", "name    size")
}

// The approval modal shows every character the one printable table hides: a Hangul filler reads as a
// blank and a line separator as a break on some terminals, so `echo ㅤ` could pass for something else.
func TestTheModalShowsEveryCharacterThePrintableTableHides(t *testing.T) {
	m, clock := newTestModel(t, 100, 30)
	cmd := "echo \u3164 ok\u2028rm -rf ~ \u034f"
	startCall(m, "c1", cmd)
	msg, _ := touchRequest("c1", "")
	msg.req.Access.Command, msg.req.Verdict.Part = cmd, ""
	m.Update(msg)
	clock.t = clock.t.Add(typeAheadGuard)
	s := plain(m)
	for _, want := range []string{"$ echo <U+3164> ok<U+2028>rm -rf ~ <U+034F>"} {
		if !strings.Contains(s, want) {
			t.Errorf("the modal lacks %q:\n%s", want, s)
		}
	}
	if strings.ContainsAny(s, "\u3164\u2028\u034f") {
		t.Errorf("a hidden character reaches the screen as it is:\n%q", s)
	}
}
