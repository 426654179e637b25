package ui

import (
	"strings"

	"charm.land/glamour/v2"
	glamourstyles "charm.land/glamour/v2/styles"
)

// markdown renders assistant messages with Glamour. Building a renderer parses a whole style sheet, so one
// is kept per (style, width) and rebuilt only when either changes; rendered messages are cached by the
// conversation, not here.
type markdown struct {
	style string
	width int
	tr    *glamour.TermRenderer
}

func markdownStyle(isDark, noColor bool) string {
	switch {
	case noColor:
		return glamourstyles.NoTTYStyle
	case isDark:
		return glamourstyles.DarkStyle
	}
	return glamourstyles.LightStyle
}

// render returns text as styled lines no wider than width. A renderer failure falls back to the plain
// text, wrapped: the person must always see what the model said.
func (md *markdown) render(text, style string, width int) string {
	if md.tr == nil || md.style != style || md.width != width {
		tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
		if err != nil {
			return wrap(text, width)
		}
		md.tr, md.style, md.width = tr, style, width
	}
	out, err := md.tr.Render(text)
	if err != nil {
		return wrap(text, width)
	}
	return trimBlankLines(out)
}

// trimBlankLines drops the empty lines Glamour puts around a document, and trailing spaces it pads with.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	start, end := 0, len(lines)
	for start < end && strings.TrimSpace(stripANSI(lines[start])) == "" {
		start++
	}
	for end > start && strings.TrimSpace(stripANSI(lines[end-1])) == "" {
		end--
	}
	return strings.Join(lines[start:end], "\n")
}
