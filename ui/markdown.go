package ui

import (
	"strings"

	"github.com/warden-cli/warden/ui/mdrender"
)

// markdown renders assistant messages (package mdrender); rendered messages are cached by the
// conversation, and their blocks by mdBlocks, not here.
type markdown struct {
	// renders counts the documents rendered, for the tests that keep streaming incremental.
	renders int
}

// markdownStyle names the theme answers are drawn in.
func markdownStyle(isDark, noColor bool) string {
	switch {
	case noColor:
		return mdrender.Plain.Name()
	case isDark:
		return mdrender.Dark.Name()
	}
	return mdrender.Light.Name()
}

func markdownTheme(style string) *mdrender.Theme {
	switch style {
	case mdrender.Plain.Name():
		return mdrender.Plain
	case mdrender.Light.Name():
		return mdrender.Light
	}
	return mdrender.Dark
}

// render returns text as styled lines no wider than width.
func (md *markdown) render(text, style string, width int) []string {
	// Tabs keep their columns, in code blocks too, expanded before the width of anything is measured.
	md.renders++
	lines := mdrender.Render(expandTabs(text), width, markdownTheme(style))
	if len(lines) == 0 {
		return []string{""}
	}
	return lines
}

// mdBlocks is the render cache of one message, block by block. Rendering a whole message again for every
// frame of its stream costs time in proportion to its length: at 70 KB, a quarter of a second a frame. A
// message is instead cut into top-level blocks (markdownBlocks) that render alone exactly as they do in
// the whole; each is rendered once and only the last, still growing, again.
type mdBlocks struct {
	style  string
	width  int
	blocks []mdBlock
}

type mdBlock struct {
	src   string
	lines []string
}

// renderBlocks renders text like render, reusing the blocks cache rendered before.
func (md *markdown) renderBlocks(cache *mdBlocks, text, style string, width int) []string {
	if cache.style != style || cache.width != width {
		*cache = mdBlocks{style: style, width: width}
	}
	srcs := markdownBlocks(text)
	var out []string
	for i, src := range srcs {
		if i < len(cache.blocks) && cache.blocks[i].src == src {
			out = appendBlock(out, cache.blocks[i].lines)
			continue
		}
		b := mdBlock{src: src, lines: md.render(src, style, width)}
		cache.blocks = append(cache.blocks[:i], b)
		out = appendBlock(out, b.lines)
	}
	cache.blocks = cache.blocks[:min(len(srcs), len(cache.blocks))]
	if out == nil {
		return []string{""}
	}
	return out
}

// appendBlock adds a block's lines after a blank line, as top-level blocks are separated.
func appendBlock(out, lines []string) []string {
	if len(lines) == 1 && lines[0] == "" {
		return out
	}
	if len(out) > 0 {
		out = append(out, "")
	}
	return append(out, lines...)
}

// markdownBlocks cuts Markdown into top-level blocks whose renders, joined by a blank line, are the
// render of the whole. It cuts only at a blank line outside a fenced code block that is followed by a
// whole line starting a new block at the left margin: not indented (a list item's continuation or
// indented code), not a list item (a loose list renders as one), not an HTML block (which may run on
// past blank lines). The last block is whatever follows the last cut, complete or not. A message holding a
// link reference or footnote definition, which changes how text far above it renders, is one block.
func markdownBlocks(text string) []string {
	var blocks []string
	var fence string // the opening fence of the code block we are in, "" outside
	start, blank := 0, false
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			break // an unfinished line: it cannot start a block yet
		}
		line := text[pos : pos+end]
		switch {
		case fence != "":
			if f := fenceOf(line); f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(line, " "))[len(f):] == "" {
				fence = ""
			}
		case strings.TrimSpace(line) == "":
			blank = true
		case isRefDefinition(line):
			return []string{text}
		default:
			if blank && pos > start && startsBlock(line) {
				blocks = append(blocks, text[start:pos])
				start = pos
			}
			blank = false
			fence = fenceOf(line)
		}
		pos += end + 1
	}
	return append(blocks, text[start:])
}

// isRefDefinition reports a line like "[id]: url" or "[^note]: text".
func isRefDefinition(line string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || !strings.HasPrefix(l, "[") {
		return false
	}
	i := strings.IndexByte(l, ']')
	return i > 1 && i+1 < len(l) && l[i+1] == ':'
}

// startsBlock reports a line that starts a new top-level block after a blank line, never continuing the
// one before it.
func startsBlock(line string) bool {
	c := line[0]
	switch {
	case c == ' ' || c == '\t' || c == '<':
		return false
	case c == '-' || c == '*' || c == '+':
		// A list item, unless it is a thematic break (---, ***) or has no space after the marker.
		return len(line) > 1 && line[1] != ' ' && line[1] != '\t'
	case c >= '0' && c <= '9':
		i := 0
		for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		return !(i < len(line) && (line[i] == '.' || line[i] == ')'))
	}
	return true
}

// fenceOf is the run of backticks or tildes that opens a fenced code block on line, "" if none.
func fenceOf(line string) string {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || len(l) < 3 || (l[0] != '`' && l[0] != '~') {
		return ""
	}
	n := 0
	for n < len(l) && l[n] == l[0] {
		n++
	}
	if n < 3 || (l[0] == '`' && strings.Contains(l[n:], "`")) {
		return ""
	}
	return l[:n]
}
