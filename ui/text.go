package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/warden-cli/warden/printable"
)

// renderer is a lipgloss style, or anything else that renders text.
type renderer interface{ Render(...string) string }

// visible makes every character that could hide what a command does visible (printable.Hidden): control
// characters become ^X and invisible and direction-changing ones <U+XXXX> (printable.Caret), styled with
// ctl; line breaks get a ⏎ mark, so that a second line cannot pass for the wrapped end of the first, and
// tabs a ⇥, both styled with soft, since they are ordinary in a script.
func visible(s string, ctl, soft renderer) string {
	return visibleIn(s, unstyled{}, ctl, soft)
}

// visibleIn is visible with the ordinary text rendered with plain. Each run is styled on its own: a style
// rendered over text that already holds escape sequences breaks them when it styles rune by rune (an
// underline does), and the sequences' bytes show as text.
func visibleIn(s string, plain, ctl, soft renderer) string {
	var sb, run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			sb.WriteString(plain.Render(run.String()))
			run.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '\n':
			flush()
			sb.WriteString(soft.Render("⏎"))
			sb.WriteByte('\n')
		case r == '\t':
			flush()
			sb.WriteString(soft.Render("⇥"))
			run.WriteString("   ")
		case printable.Hidden(r):
			flush()
			sb.WriteString(ctl.Render(printable.Caret(r)))
		default:
			run.WriteRune(r)
		}
	}
	flush()
	return sb.String()
}

// unstyled renders text as it is.
type unstyled struct{}

func (unstyled) Render(s ...string) string { return strings.Join(s, "") }

// escapeLine shows a name or a command the model, a command or a repository chose on one line, with its
// control and invisible characters written out as the approval modal writes them (^M, ^[, <U+202E>) rather
// than dropped: a file named "f\rOVERWRITE.txt" must not read as OVERWRITE.txt. It is unstyled, so that it
// can sit inside any style.
func escapeLine(s string) string {
	return visible(strings.ReplaceAll(s, "\n", " ⏎ "), unstyled{}, unstyled{})
}

// tabWidth is how far apart tab stops are wherever text is drawn. A tab must never reach the screen as
// it is: Bubble Tea draws cells, and a tab in a frame takes none, so "col1\tcol2" would read "col1col2".
// Four, not a terminal's eight, because the prompt editor turns a typed or pasted tab into four spaces
// and code indented with tabs should not jump when it comes back in an answer.
const tabWidth = 4

// expandTabs replaces every tab with spaces up to the next tab stop, counting columns in cells from the
// start of each line. s must be text without escape sequences: expand before styling.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			sb.WriteByte('\n')
		}
		col := 0
		for {
			j := strings.IndexByte(line, '\t')
			if j < 0 {
				sb.WriteString(line)
				break
			}
			sb.WriteString(line[:j])
			col += ansi.StringWidth(line[:j])
			n := tabWidth - col%tabWidth
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			line = line[j+1:]
		}
	}
	return sb.String()
}

// expandStyledTabs is expandTabs for text that already holds escape sequences, which take no columns.
// View runs the whole frame through it as the last guard, so that a tab some rendering path let through
// still shows as space; the paths themselves expand before styling, where columns are exact.
func expandStyledTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	p := ansi.GetParser()
	defer ansi.PutParser(p)
	var state byte
	col := 0
	for len(s) > 0 {
		seq, width, n, next := ansi.DecodeSequence(s, state, p)
		state, s = next, s[n:]
		switch seq {
		case "\t":
			k := tabWidth - col%tabWidth
			sb.WriteString(strings.Repeat(" ", k))
			col += k
			continue
		case "\n":
			col = 0
		}
		sb.WriteString(seq)
		col += width
	}
	return sb.String()
}

// cleanLine prepares one line of tool output for the screen: tabs expand, other control characters and any
// escape sequences the engine did not strip are dropped, so output can never move the cursor or restyle
// the UI. Invisible and direction-changing characters (printable.Hidden) are dropped too: a right-to-left
// override would reverse the rest of the line, border included, on a bidi terminal, and a zero-width
// joiner makes terminals draw a line wider than it measures, pushing the border off the screen.
func cleanLine(s string) string {
	if isPlain(s) {
		return s
	}
	s = ansi.Strip(s)
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			sb.WriteRune(r) // expanded below, once the columns are known
		case printable.Space(r):
			sb.WriteByte(' ') // output, not a command: a no-break space reads as the space it is
		case printable.Hidden(r):
		default:
			sb.WriteRune(r)
		}
	}
	return expandTabs(sb.String())
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

// fit cuts a line to width cells, with an ellipsis when it was longer.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if len(s) <= width && isPlain(s) {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// fitLeft cuts a line to width cells from its start, with an ellipsis, keeping its end: the file name of
// a long path.
func fitLeft(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := ansi.StringWidth(s)
	if w <= width {
		return s
	}
	return "…" + ansi.Cut(s, w-width+1, w)
}

// fitMiddle cuts a plain line to width cells in its middle, keeping both ends: an MCP tool's server and
// the last words of its name.
func fitMiddle(s string, width int) string {
	w := ansi.StringWidth(s)
	if w <= width || width < 5 {
		return fit(s, width)
	}
	head := (width - 1) / 2
	return ansi.Cut(s, 0, head) + "…" + ansi.Cut(s, w-(width-1-head), w)
}

// wrap soft-wraps styled text to width cells.
func wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Wrap(s, width, "")
}

// commas writes n with thousands separators: 195,996.
func commas(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// plural formats a count with its noun.
func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, one, many))
}

// pluralWord is the noun for a count of n.
func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func stripANSI(s string) string { return ansi.Strip(s) }

// box draws a rounded border around lines, each padded to the inner width; border is the style of the
// frame. It is hand-rolled rather than a lipgloss border because panels are redrawn on every frame while
// a command runs, and this costs one width measurement per line.
func box(lines []string, width int, border lipgloss.Style) []string {
	inner := max(width-4, 1)
	out := make([]string, 0, len(lines)+2)
	out = append(out, border.Render("╭"+strings.Repeat("─", inner+2)+"╮"))
	side := border.Render("│")
	for _, l := range lines {
		l = fit(l, inner)
		pad := inner - ansi.StringWidth(l)
		out = append(out, side+" "+l+strings.Repeat(" ", max(pad, 0))+" "+side)
	}
	out = append(out, border.Render("╰"+strings.Repeat("─", inner+2)+"╯"))
	return out
}

// spread puts left and right on one line of width cells, cutting left first.
func spread(left, right string, width int) string {
	rw := ansi.StringWidth(right)
	if rw >= width {
		return fit(right, width)
	}
	left = fit(left, width-rw-1)
	gap := width - rw - ansi.StringWidth(left)
	return left + strings.Repeat(" ", max(gap, 1)) + right
}
