package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/agent"
)

func TestTheTranscriptIsTheConversationAsDrawn(t *testing.T) {
	m, _ := newTestModel(t, 80, 60)
	m.conv.add(&item{kind: itemUser, text: "What is in this directory?"})
	send(m, agent.AssistantText{Text: "Two files:\n\n- `go.mod`\n- `main.go`\n\n```go\npackage main\n```"})
	screen := plain(m)
	lines, cut := m.transcript(80, 1000)
	if cut {
		t.Fatal("a short conversation was cut")
	}
	got := ansi.Strip(strings.Join(lines, "\n"))
	// On the screen the conversation ends just above the rule line, after the blanks that fill its share.
	conv := strings.TrimSpace(screen[:strings.Index(screen, "────────────────────────────────────────────────────────────────────────────────\n❯ Ask")])
	if strings.TrimSpace(got) != conv {
		t.Fatalf("the transcript:\n%s\n--- the screen's conversation:\n%s", got, conv)
	}
}

func TestALongTranscriptKeepsItsNewestLines(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	for i := range 50 {
		m.conv.add(&item{kind: itemUser, text: fmt.Sprintf("question %d", i)})
	}
	lines, cut := m.transcript(80, 10)
	if !cut || len(lines) > 10 {
		t.Fatalf("cut %v, %d lines", cut, len(lines))
	}
	if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "question 49") {
		t.Fatalf("the last line is %q", last)
	}
	var out bytes.Buffer
	m.opts.SessionID = "s-1"
	m.printTranscript(&out, 10)
	if !strings.Contains(out.String(), "warden --resume s-1") || !strings.Contains(out.String(), "question 49") {
		t.Fatalf("printed:\n%s", out.String())
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Fatalf("styles were printed to something that is not a terminal: %q", out.String())
	}
}

func TestThePrintedTranscriptKeepsStylesAndLinksAndNothingElse(t *testing.T) {
	line := "\x1b[1mbold\x1b[m \x1b]8;;https://e.com\x1b\\link\x1b]8;;\x1b\\ \x1b]2;PWNED\x07title \x1b]52;c;aGk=\x07clip \x1b[2Jclear\rcr é"
	got := stylesOnly(line)
	want := "\x1b[1mbold\x1b[m \x1b]8;;https://e.com\x1b\\link\x1b]8;;\x1b\\ title clip clearcr é"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
