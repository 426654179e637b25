package mdrender

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Inline text is gathered as runs of one style each, then broken into lines: every line opens the styles
// its words need and closes them at its end, so that a margin or a prefix added in front of a line is
// never drawn in the style of a word that wrapped.

// run is text in one style; link, when set, makes it an OSC 8 hyperlink to that address.
type run struct {
	text  string
	style style
	link  string
	// hard ends the line after the run (a hard line break); the run's text is then empty.
	hard bool
}

// word is a piece of a line that wrapping does not cut unless it is wider than a line: the parts of
// the runs between two spaces.
type word struct {
	parts []run
	width int
	// gap is how many spaces stood before the word: one, or more where the text had more (a tab the
	// caller expanded, columns lined up by hand). None is drawn at the start of a line.
	gap int
}

// words splits runs at spaces (and soft breaks, which are spaces here) into words; a hard break is a
// word of its own with hard set.
func words(runs []run) []word {
	var out []word
	var cur word
	gap := 0
	flush := func() {
		if len(cur.parts) > 0 {
			cur.gap = max(gap, 1)
			out = append(out, cur)
			gap = 0
		}
		cur = word{}
	}
	for _, r := range runs {
		if r.hard {
			flush()
			out = append(out, word{parts: []run{r}})
			gap = 0
			continue
		}
		text := r.text
		for text != "" {
			i := strings.IndexAny(text, " \n")
			if i < 0 {
				cur.parts = append(cur.parts, run{text: text, style: r.style, link: r.link})
				cur.width += textWidth(text)
				break
			}
			if i > 0 {
				cur.parts = append(cur.parts, run{text: text[:i], style: r.style, link: r.link})
				cur.width += textWidth(text[:i])
			}
			flush()
			gap++
			text = text[i+1:]
		}
	}
	flush()
	return out
}

// wrapRuns breaks runs into lines no wider than width, a space between words.
func wrapRuns(runs []run, width int) []string {
	width = max(width, 1)
	var lines []string
	var line []run
	lineW := 0
	end := func() {
		lines = append(lines, drawRuns(line))
		line, lineW = nil, 0
	}
	for _, w := range words(runs) {
		if len(w.parts) == 1 && w.parts[0].hard {
			end()
			continue
		}
		if lineW > 0 && lineW+w.gap+w.width > width {
			end()
		}
		if lineW > 0 {
			// Between two words of one style (or one link) the space takes it, so that an underline or a
			// background runs on; between two styles it has none.
			prev, next := line[len(line)-1], w.parts[0]
			space := run{text: strings.Repeat(" ", w.gap)}
			if prev.style == next.style {
				space.style = prev.style
			}
			if prev.link == next.link {
				space.link = prev.link
			}
			line = append(line, space)
			lineW += w.gap
		}
		for w.width > width-lineW && w.width > 0 {
			// A word wider than the line is cut where the line ends.
			head, rest := cutWord(w, width-lineW)
			line = append(line, head.parts...)
			end()
			w = rest
		}
		line = append(line, w.parts...)
		lineW += w.width
	}
	if len(line) > 0 || len(lines) == 0 {
		end()
	}
	return lines
}

// cutWord splits w after n columns (at least one grapheme, so that a line always takes something).
func cutWord(w word, n int) (head, rest word) {
	for i, p := range w.parts {
		pw := textWidth(p.text)
		if head.width+pw <= n {
			head.parts = append(head.parts, p)
			head.width += pw
			continue
		}
		room := n - head.width
		left := ansi.Cut(p.text, 0, room)
		if left == "" && head.width == 0 {
			left = ansi.Cut(p.text, 0, textWidth(firstGrapheme(p.text)))
		}
		if left != "" {
			head.parts = append(head.parts, run{text: left, style: p.style, link: p.link})
			head.width += textWidth(left)
		}
		if right := p.text[len(left):]; right != "" {
			rest.parts = append(rest.parts, run{text: right, style: p.style, link: p.link})
			rest.width += textWidth(right)
		}
		for _, q := range w.parts[i+1:] {
			rest.parts = append(rest.parts, q)
			rest.width += textWidth(q.text)
		}
		return head, rest
	}
	return head, rest
}

func firstGrapheme(s string) string {
	g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return g
}

// drawRuns writes runs as one line: each change of style or link opens its own, and the line closes
// what is open at its end.
func drawRuns(runs []run) string {
	var sb strings.Builder
	n := 0
	for _, r := range runs {
		n += len(r.text) + 16
	}
	sb.Grow(n)
	open, link := "", ""
	var openStyle style
	for _, r := range runs {
		if r.link != link {
			if link != "" {
				sb.WriteString(ansi.ResetHyperlink())
			}
			if r.link != "" {
				sb.WriteString(ansi.SetHyperlink(r.link))
			}
			link = r.link
		}
		if r.style != openStyle || (open == "" && r.style != style{}) {
			if sgr := r.style.sgr(); sgr != open {
				if open != "" {
					sb.WriteString(reset)
				}
				sb.WriteString(sgr)
				open = sgr
			}
			openStyle = r.style
		}
		sb.WriteString(r.text)
	}
	if link != "" {
		sb.WriteString(ansi.ResetHyperlink())
	}
	if open != "" {
		sb.WriteString(reset)
	}
	return sb.String()
}

// plainWidth is the width of runs drawn on one line.
func plainWidth(runs []run) int {
	n := 0
	for _, r := range runs {
		n += textWidth(r.text)
	}
	return n
}

// textWidth is the width of plain text in columns; ASCII, most of what models write, is counted without
// segmenting graphemes.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
