package ui

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/warden-cli/warden/printable"
)

// The conversation outlives the full-screen program. Warden draws on the terminal's alternate screen,
// which the terminal throws away when the program leaves it; so, as the program ends (/exit, Ctrl+C
// twice, SIGTERM, SIGHUP), the conversation is printed to the normal screen as it was drawn, and
// scrolling up in the terminal shows it, with the terminal's own scrolling, search and selection.
//
// This was chosen over drawing inline (on the normal screen, with finished messages pushed into the
// scrollback as they end): the full-screen view keeps what depends on redrawing the past (panels that
// expand, reasoning shown or hidden, a resize that re-wraps everything, the modal over the end of the
// conversation, scrolling within Warden), and the cost is paid once, at exit, bounded by
// transcriptMaxLines. ui.transcript_on_exit turns it off.

// transcriptMaxLines is how much of the conversation is printed at most, the newest part: as much as the
// scrollback of most terminals keeps by default, and a bound on the time a long session takes to exit.
const transcriptMaxLines = 5000

// transcript is the conversation drawn at width, items separated by a blank line as on screen: at most
// limit lines, the newest; cut reports that older items were left out.
func (m *Model) transcript(width, limit int) (lines []string, cut bool) {
	rc := m.renderCtx()
	rc.focused = nil // no panel is focused once the program has ended
	var chunks [][]string
	total := 0
	items := m.conv.items
	for i := len(items) - 1; i >= 0; i-- {
		l := m.conv.itemLines(rc, items[i], width)
		if total+len(l) > limit && total > 0 {
			cut = true
			break
		}
		chunks = append(chunks, l)
		total += len(l) + 1
	}
	lines = make([]string, 0, total)
	for i := len(chunks) - 1; i >= 0; i-- {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, chunks[i]...)
	}
	if len(lines) > limit {
		lines, cut = lines[len(lines)-limit:], true
	}
	return lines, cut
}

// printTranscript writes at most limit lines of the transcript to w, its colours brought down to what the terminal shows (none
// when w is not a terminal or NO_COLOR is set).
func (m *Model) printTranscript(w io.Writer, limit int) {
	if len(m.conv.items) == 0 {
		return
	}
	lines, cut := m.transcript(max(m.width, minWidth), limit)
	out := bufio.NewWriterSize(colorprofile.NewWriter(w, os.Environ()), 64<<10)
	if cut {
		note := "· the conversation before this is in the session"
		if id := m.opts.SessionID; id != "" {
			note += ": warden --resume " + id
		}
		out.WriteString(m.st.dim.Render(note) + "\n\n")
	}
	for _, l := range lines {
		out.WriteString(stylesOnly(expandStyledTabs(l)))
		out.WriteString("\x1b[m\n")
	}
	out.WriteString("\n")
	out.Flush()
}

// stylesOnly keeps of a drawn line its text, its styles (SGR) and its hyperlinks (OSC 8), and drops any
// other escape sequence or control character. On screen Bubble Tea's renderer draws cells and nothing
// else reaches the terminal; printed as it is, a line reaches it whole, so what the renderers make
// visible (package printable) is not trusted alone here.
func stylesOnly(line string) string {
	if !strings.ContainsFunc(line, printable.Control) {
		return line
	}
	var sb strings.Builder
	var state byte
	for rest := line; rest != ""; {
		seq, width, n, next := ansi.DecodeSequence(rest, state, nil)
		state = next
		switch {
		case width > 0:
			sb.WriteString(seq)
		case ansi.HasCsiPrefix(seq) && strings.HasSuffix(seq, "m"),
			ansi.HasOscPrefix(seq) && strings.HasPrefix(seq[2:], "8;"):
			sb.WriteString(seq)
		case len(seq) > 0 && !strings.ContainsFunc(seq, printable.Control):
			sb.WriteString(seq) // text of no width: a combining mark
		}
		rest = rest[n:]
	}
	return sb.String()
}
