package mdrender

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/warden-cli/warden/printable"
)

// margin is the document's margin on the left and on the right, as Glamour's styles have it; a code
// block is indented by as much again.
const margin = 2

var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(parser.WithAttribute()))

// Render draws src as lines no wider than width, in theme t; top-level blocks are separated by a blank
// line and nothing blank comes first or last.
func Render(src string, width int, t *Theme) []string {
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	r := &renderer{src: source, t: t}
	inner := max(width-2*margin, 1)
	lines := r.blocks(doc, inner)
	pad := strings.Repeat(" ", margin)
	for i, l := range lines {
		if l == "" {
			continue
		}
		l = pad + l
		if ansi.StringWidth(l) > width {
			// Only a table too wide to fit even with its columns narrowed gets here.
			l = ansi.Truncate(l, width, "")
		}
		lines[i] = l
	}
	return lines
}

type renderer struct {
	src []byte
	t   *Theme
}

// blocks draws the children of a container, a blank line between each two.
func (r *renderer) blocks(parent ast.Node, width int) []string {
	var out []string
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		lines := r.block(n, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (r *renderer) block(n ast.Node, width int) []string {
	t := r.t
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrapRuns(r.inlines(n, t.text), width)
	case *ast.Heading:
		return r.heading(n, width)
	case *ast.ThematicBreak:
		return []string{drawRuns([]run{{text: t.ruleText, style: t.rule}})}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return r.code(n, width)
	case *ast.Blockquote:
		inner := r.blocks(n, width-ansi.StringWidth(t.quote))
		for i, l := range inner {
			inner[i] = t.quote + l
		}
		return inner
	case *ast.List:
		return r.list(n, width)
	case *ast.HTMLBlock:
		var lines []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			lines = append(lines, wrapRuns([]run{{text: visible(strings.TrimRight(string(seg.Value(r.src)), "\n")), style: t.text}}, width)...)
		}
		if n.HasClosure() {
			lines = append(lines, wrapRuns([]run{{text: visible(strings.TrimRight(string(n.ClosureLine.Value(r.src)), "\n")), style: t.text}}, width)...)
		}
		return lines
	case *east.Table:
		return r.table(n, width)
	}
	// A block this renderer does not know: its text, as a paragraph.
	return wrapRuns(r.inlines(n, t.text), width)
}

func (r *renderer) heading(n *ast.Heading, width int) []string {
	t := r.t
	runs := r.inlines(n, t.heading.over(t.text))
	switch {
	case n.Level == 1 && !t.h1Marks:
		s := t.h1
		for i := range runs {
			runs[i].style = s.over(runs[i].style)
		}
		runs = append(append([]run{{text: "\u00a0", style: s}}, runs...), run{text: "\u00a0", style: s})
	case n.Level == 6 && t.h6 != (style{}):
		runs = append([]run{{text: "###### ", style: t.h6}}, r.inlines(n, t.h6)...)
	default:
		runs = append([]run{{text: strings.Repeat("#", n.Level) + " ", style: t.heading.over(t.text)}}, runs...)
	}
	return wrapRuns(runs, width)
}

func (r *renderer) code(n ast.Node, width int) []string {
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(r.src))
	}
	language := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		language = string(f.Language(r.src))
	}
	pad := strings.Repeat(" ", margin)
	var out []string
	for _, l := range highlight(visible(sb.String()), visible(language), r.t) {
		// A line wider than the block is cut into pieces rather than wrapped by the terminal.
		for ansi.StringWidth(l) > width-margin && width-margin > 0 {
			out = append(out, pad+ansi.Truncate(l, width-margin, ""))
			l = ansi.TruncateLeft(l, width-margin, "")
		}
		if l == "" {
			out = append(out, "")
		} else {
			out = append(out, pad+l)
		}
	}
	return out
}

func (r *renderer) list(n *ast.List, width int) []string {
	t := r.t
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		if box := taskBox(item); box != nil {
			marker = t.unticked
			if box.IsChecked {
				marker = t.ticked
			}
		}
		mw := ansi.StringWidth(marker)
		var inner []string
		if n.IsTight {
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				inner = append(inner, r.block(c, width-mw)...)
			}
		} else {
			inner = r.blocks(item, width-mw)
		}
		if len(inner) == 0 {
			inner = []string{""}
		}
		if !n.IsTight && len(out) > 0 {
			out = append(out, "")
		}
		ms := drawRuns([]run{{text: marker, style: t.text}})
		indent := strings.Repeat(" ", mw)
		for i, l := range inner {
			switch {
			case i == 0:
				out = append(out, ms+l)
			case l == "":
				out = append(out, "")
			default:
				out = append(out, indent+l)
			}
		}
	}
	return out
}

// taskBox is the check box a task list item starts with, nil for an ordinary item.
func taskBox(item ast.Node) *east.TaskCheckBox {
	if first := item.FirstChild(); first != nil {
		if box, ok := first.FirstChild().(*east.TaskCheckBox); ok {
			return box
		}
	}
	return nil
}

// inlines gathers the inline content of n as runs, in base as the surrounding style.
func (r *renderer) inlines(n ast.Node, base style) []run {
	var runs []run
	r.inline(n, base, "", &runs)
	return runs
}

func (r *renderer) inline(parent ast.Node, s style, link string, runs *[]run) {
	t := r.t
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			*runs = append(*runs, run{text: visible(string(n.Segment.Value(r.src))), style: s, link: link})
			switch {
			case n.HardLineBreak():
				*runs = append(*runs, run{hard: true})
			case n.SoftLineBreak():
				*runs = append(*runs, run{text: " ", style: s, link: link})
			}
		case *ast.String:
			*runs = append(*runs, run{text: visible(string(n.Value)), style: s, link: link})
		case *ast.CodeSpan:
			code := visible(codeSpanText(n, r.src))
			if t.marks {
				*runs = append(*runs, run{text: "`" + code + "`", style: s, link: link})
				continue
			}
			// The padding is drawn in the span's colours, so it must not be taken for a space to wrap at.
			*runs = append(*runs, run{text: "\u00a0" + code + "\u00a0", style: t.code.over(s), link: link})
		case *ast.Emphasis:
			es, mark := t.emph, "*"
			if n.Level >= 2 {
				es, mark = t.strong, "**"
			}
			r.marked(n, es.over(s), link, mark, runs)
		case *east.Strikethrough:
			r.marked(n, t.strike.over(s), link, "~~", runs)
		case *ast.Link:
			dest := cleanURL(string(n.Destination))
			before := len(*runs)
			r.inline(n, t.linkText.over(s), dest, runs)
			label := ""
			for _, rr := range (*runs)[before:] {
				label += rr.text
			}
			if dest != "" && dest != label {
				*runs = append(*runs, run{text: " ", style: s}, run{text: dest, style: t.link.over(s), link: dest})
			}
		case *ast.AutoLink:
			dest := cleanURL(string(n.URL(r.src)))
			*runs = append(*runs, run{text: visible(string(n.Label(r.src))), style: t.link.over(s), link: dest})
		case *ast.Image:
			dest := cleanURL(string(n.Destination))
			*runs = append(*runs, run{text: "Image:", style: t.imageText.over(s)}, run{text: " ", style: s})
			r.inline(n, t.imageText.over(s), "", runs)
			*runs = append(*runs, run{text: " →", style: t.imageText.over(s)}, run{text: " ", style: s},
				run{text: dest, style: t.image.over(s), link: dest})
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				*runs = append(*runs, run{text: visible(string(seg.Value(r.src))), style: s, link: link})
			}
		case *east.TaskCheckBox:
			// Drawn as the item's marker (list).
		default:
			r.inline(n, s, link, runs)
		}
	}
}

// marked draws an emphasis: in its style, or between its marks in a theme without styles.
func (r *renderer) marked(n ast.Node, s style, link, mark string, runs *[]run) {
	if r.t.marks {
		*runs = append(*runs, run{text: mark, style: s, link: link})
	}
	r.inline(n, s, link, runs)
	if r.t.marks {
		*runs = append(*runs, run{text: mark, style: s, link: link})
	}
}

// cleanURL drops what must never reach the terminal inside a hyperlink's escape sequence.
func cleanURL(u string) string {
	return strings.Map(func(r rune) rune {
		if printable.Hidden(r) {
			return -1
		}
		return r
	}, u)
}

// visible writes the characters of the model's text that would act on the terminal instead of showing
// (an escape that sets the title or the clipboard, a carriage return, a direction override) as a screen
// shows them among ordinary text (^[, <U+202E>); line breaks and tabs are the text's own.
func visible(s string) string {
	if printable.Index(s) < 0 {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if r != '\n' && r != '\t' && printable.Hidden(r) {
			sb.WriteString(printable.Caret(r))
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// codeSpanText is a code span's text as written: its children are the segments of the source it spans.
func codeSpanText(n *ast.CodeSpan, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		}
	}
	return b.String()
}
