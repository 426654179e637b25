package mdrender

import (
	"strings"
)

// style is how a piece of text is drawn; the zero style draws it as the terminal does.
type style struct {
	fg, bg                          string // SGR colour parameters: "38;5;252", "48;5;236", "38;2;196;196;196"
	bold, italic, underline, strike bool
	faint                           bool
}

// over is s drawn inside outer: what s sets wins, what it leaves unset comes from outer.
func (s style) over(outer style) style {
	if s.fg == "" {
		s.fg = outer.fg
	}
	if s.bg == "" {
		s.bg = outer.bg
	}
	s.bold = s.bold || outer.bold
	s.italic = s.italic || outer.italic
	s.underline = s.underline || outer.underline
	s.strike = s.strike || outer.strike
	s.faint = s.faint || outer.faint
	return s
}

// sgr is the sequence that turns s on from the terminal's defaults, "" for the zero style.
func (s style) sgr() string {
	var p []string
	if s.bold {
		p = append(p, "1")
	}
	if s.faint {
		p = append(p, "2")
	}
	if s.italic {
		p = append(p, "3")
	}
	if s.underline {
		p = append(p, "4")
	}
	if s.strike {
		p = append(p, "9")
	}
	if s.fg != "" {
		p = append(p, s.fg)
	}
	if s.bg != "" {
		p = append(p, s.bg)
	}
	if len(p) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(p, ";") + "m"
}

const reset = "\x1b[m"

// Theme is the look of rendered Markdown: Dark and Light keep the look of Glamour's styles of those names,
// Plain has no colour at all (NO_COLOR) and shows emphasis by its marks.
type Theme struct {
	name                            string
	text, heading, h1, h6           style
	code, codeBlock, link, linkText style
	image, imageText, rule          style
	strike, emph, strong            style
	// marks shows emphasis, strikethrough and code spans by their Markdown marks, as Plain does.
	marks bool
	// h1Marks writes a level-one heading "# Title"; the colour themes draw it on a band instead.
	h1Marks           bool
	ticked, unticked  string
	quote             string
	ruleText          string
	chroma            map[tokenClass]style
	tableBar, tableHz string
}

func c256(n string) string  { return "38;5;" + n }
func bg256(n string) string { return "48;5;" + n }
func hex(h string) string   { r, g, b := rgb(h); return "38;2;" + r + ";" + g + ";" + b }
func hexBG(h string) string { r, g, b := rgb(h); return "48;2;" + r + ";" + g + ";" + b }
func rgb(h string) (r, g, b string) {
	v := func(s string) string {
		n := 0
		for _, c := range s {
			n *= 16
			switch {
			case c >= '0' && c <= '9':
				n += int(c - '0')
			case c >= 'a' && c <= 'f':
				n += int(c-'a') + 10
			case c >= 'A' && c <= 'F':
				n += int(c-'A') + 10
			}
		}
		return itoa(n)
	}
	h = strings.TrimPrefix(h, "#")
	return v(h[0:2]), v(h[2:4]), v(h[4:6])
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [8]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Dark is for a dark background.
var Dark = &Theme{
	name: "dark",
	text: style{fg: c256("252")}, heading: style{fg: c256("39"), bold: true},
	h1: style{fg: c256("228"), bg: bg256("63"), bold: true}, h6: style{fg: c256("35")},
	code: style{fg: c256("203"), bg: bg256("236")}, codeBlock: style{fg: c256("244")},
	link: style{fg: c256("30"), underline: true}, linkText: style{fg: c256("35"), bold: true},
	image: style{fg: c256("212"), underline: true}, imageText: style{fg: c256("243")},
	rule: style{fg: c256("240")}, strike: style{strike: true}, emph: style{italic: true}, strong: style{bold: true},
	ticked: "[✓] ", unticked: "[ ] ", quote: "│ ", ruleText: "--------", tableBar: "│", tableHz: "─",
	chroma: map[tokenClass]style{
		tokText: {fg: hex("#C4C4C4")}, tokError: {fg: hex("#F1F1F1"), bg: hexBG("#F05B5B")},
		tokComment: {fg: hex("#676767")}, tokCommentPreproc: {fg: hex("#FF875F")},
		tokKeyword: {fg: hex("#00AAFF")}, tokKeywordReserved: {fg: hex("#FF5FD2")},
		tokKeywordNamespace: {fg: hex("#FF5F87")}, tokKeywordType: {fg: hex("#6E6ED8")},
		tokOperator: {fg: hex("#EF8080")}, tokPunctuation: {fg: hex("#E8E8A8")},
		tokName: {fg: hex("#C4C4C4")}, tokNameBuiltin: {fg: hex("#FF8EC7")}, tokNameTag: {fg: hex("#B083EA")},
		tokNameAttribute: {fg: hex("#7A7AE6")}, tokNameClass: {fg: hex("#F1F1F1"), underline: true, bold: true},
		tokNameDecorator: {fg: hex("#FFFF87")}, tokNameFunction: {fg: hex("#00D787")},
		tokLiteralNumber: {fg: hex("#6EEFC0")}, tokLiteralString: {fg: hex("#C69669")},
		tokLiteralStringEscape: {fg: hex("#AFFFD7")}, tokGenericDeleted: {fg: hex("#FD5B5B")},
		tokGenericEmph: {italic: true}, tokGenericInserted: {fg: hex("#00D787")}, tokGenericStrong: {bold: true},
		tokGenericSubheading: {fg: hex("#777777")},
	},
}

// Light is for a light background.
var Light = &Theme{
	name: "light",
	text: style{fg: c256("234")}, heading: style{fg: c256("27"), bold: true},
	h1: style{fg: c256("228"), bg: bg256("63"), bold: true}, h6: style{},
	code: style{fg: c256("203"), bg: bg256("254")}, codeBlock: style{fg: c256("242")},
	link: style{fg: c256("36"), underline: true}, linkText: style{fg: c256("29"), bold: true},
	image: style{fg: c256("205"), underline: true}, imageText: style{fg: c256("243")},
	rule: style{fg: c256("249")}, strike: style{strike: true}, emph: style{italic: true}, strong: style{bold: true},
	ticked: "[✓] ", unticked: "[ ] ", quote: "│ ", ruleText: "--------", tableBar: "│", tableHz: "─",
	chroma: map[tokenClass]style{
		tokText: {fg: hex("#2A2A2A")}, tokError: {fg: hex("#F1F1F1"), bg: hexBG("#FF5555")},
		tokComment: {fg: hex("#8D8D8D")}, tokCommentPreproc: {fg: hex("#FF875F")},
		tokKeyword: {fg: hex("#279EFC")}, tokKeywordReserved: {fg: hex("#FF5FD2")},
		tokKeywordNamespace: {fg: hex("#FB406F")}, tokKeywordType: {fg: hex("#7049C2")},
		tokOperator: {fg: hex("#FF2626")}, tokPunctuation: {fg: hex("#FA7878")},
		tokNameBuiltin: {fg: hex("#0A1BB1")}, tokNameTag: {fg: hex("#581290")},
		tokNameAttribute: {fg: hex("#8362CB")}, tokNameClass: {fg: hex("#212121"), underline: true, bold: true},
		tokNameConstant: {fg: hex("#581290")}, tokNameDecorator: {fg: hex("#A3A322")},
		tokNameFunction: {fg: hex("#019F57")}, tokLiteralNumber: {fg: hex("#22CCAE")},
		tokLiteralString: {fg: hex("#7E5B38")}, tokLiteralStringEscape: {fg: hex("#00AEAE")},
		tokGenericDeleted: {fg: hex("#FD5B5B")}, tokGenericEmph: {italic: true},
		tokGenericInserted: {fg: hex("#00D787")}, tokGenericStrong: {bold: true},
		tokGenericSubheading: {fg: hex("#777777")},
	},
}

// Plain draws no colour and no attribute: the marks of emphasis stay, as Glamour's notty style has them.
var Plain = &Theme{
	name: "plain", marks: true, h1Marks: true,
	ticked: "[x] ", unticked: "[ ] ", quote: "| ", ruleText: "--------", tableBar: "|", tableHz: "-",
}

// Name is the theme's name, "dark", "light" or "plain".
func (t *Theme) Name() string { return t.name }
