package printable

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every character one of Warden's earlier tables hid (the approval modal's, the trust prompt's, the
// command line's, the permission engine's) is hidden by the one table, so no screen shows less than before.
func TestEveryCharacterAnEarlierTableHidIsHidden(t *testing.T) {
	var want []rune
	span := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			want = append(want, r)
		}
	}
	span(0x00, 0x1f)
	span(0x7f, 0x9f)
	span(0x200b, 0x200f)
	span(0x202a, 0x202e)
	span(0x2060, 0x206f)
	span(0x2066, 0x2069)
	want = append(want, 0x2028, 0x2029, 0xfeff, 0x00ad, 0x061c, 0x180e)
	for _, r := range want {
		if !Hidden(r) {
			t.Errorf("%U is not hidden", r)
		}
	}
}

func TestHiddenNamesWhatRendersAsNothingAndNothingElse(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
		why  string
	}{
		{'\x1b', true, "escape starts a terminal sequence"},
		{'\r', true, "carriage return redraws the line"},
		{'\n', true, "line breaks are kept only by callers that say so"},
		{'\t', true, "so are tabs"},
		{0x9b, true, "C1 CSI"},
		{0x202e, true, "right-to-left override"},
		{0x2067, true, "right-to-left isolate"},
		{0x200d, true, "zero-width joiner"},
		{0x3164, true, "Hangul filler: blank, and a letter to a parser"},
		{0x115f, true, "Hangul choseong filler"},
		{0x034f, true, "combining grapheme joiner"},
		{0x2065, true, "reserved default-ignorable"},
		{0xe0041, true, "tag letter A"},
		{0xfff9, true, "interlinear annotation anchor"},
		{'a', false, "a letter"},
		{' ', false, "a space"},
		{0x00a0, true, "no-break space: a run of them hides a command's tail"},
		{'é', false, "a letter with an accent"},
		{'日', false, "an ideograph"},
		{0xfe0f, false, "variation selector: chooses an emoji's look"},
		{0xfe0e, false, "variation selector: chooses an emoji's text look"},
		{0xfe00, true, "variation selector 1: draws nothing"},
		{0x180b, true, "Mongolian free variation selector"},
		{0xe0100, true, "ideographic variation selector 17"},
		{0x2800, true, "braille pattern blank: a run of them hides a command's tail"},
		{0xfffc, true, "object replacement character: drawn as nothing by most terminals"},
		{0x2801, false, "a braille pattern with a dot shows"},
		{'😀', false, "an emoji"},
		{0xfffd, false, "the replacement character shows"},
	} {
		if got := Hidden(tc.r); got != tc.want {
			t.Errorf("Hidden(%U) = %v, want %v (%s)", tc.r, got, tc.want, tc.why)
		}
	}
}

// Index is Hidden over a string: for every code point, a string of it alone has a hidden character
// exactly when Hidden says so.
func TestIndexAgreesWithHiddenForEveryCodePoint(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := "ab" + string(r)
		want := -1
		if Hidden(r) {
			want = 2
		}
		if got := Index(s); got != want {
			t.Fatalf("Index(%q) = %d, want %d", s, got, want)
		}
	}
	if got := Index("ok\xffno"); got != 2 {
		t.Errorf("Index of a byte that is not UTF-8 = %d, want 2", got)
	}
}

func TestEscapeWritesWhatBashReadsBack(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                      "plain",
		"日本語 é":                      "日本語 é",
		"a\rb":                       `a\rb`,
		"\x1b[2J\a\b\f\v\t\n":        `\e[2J\a\b\f\v\t\n`,
		"\x00\x01\x7f":               `\x00\x01\x7f`,
		"\u0085\u009b":               `\u0085\u009b`,
		"\u202eevil\u2066":           `\u202eevil\u2066`,
		"tag\U000e0041":              `tag\U000e0041`,
		"half \xff byte":             `half \xff byte`,
		"back\\slash \u200b":         `back\slash \u200b`,
		"\u3164x = 1":                `\u3164x = 1`,
		"line\u2028separator\u2029.": `line\u2028separator\u2029.`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeLinesKeepsLineBreaksOnly(t *testing.T) {
	in := "error: \x1b[31mred\x1b[0m\n\tat line 2\r\n\u202eend"
	want := `error: \e[31mred\e[0m` + "\n" + `\tat line 2\r` + "\n" + `\u202eend`
	if got := EscapeLines(in); got != want {
		t.Errorf("EscapeLines(%q) = %q, want %q", in, got, want)
	}
}

func TestEscapeTextKeepsLinesTabsAndTheirReturns(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\twith a tab\n":        "plain text\n\twith a tab\n",
		"windows\r\nlines\r\n":              "windows\r\nlines\r\n",
		"hi \x1b]2;TITLE\a there":           `hi \e]2;TITLE\a there`,
		"f\rOVERWRITE\x1b[2J\n\u202eevil\r": `f\rOVERWRITE\e[2J` + "\n" + `\u202eevil\r`,
		"a\r\rb\r\n":                        `a\r\rb` + "\r\n",
	} {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCaretAndCodePoint(t *testing.T) {
	for r, want := range map[rune]string{
		'\r': "^M", 0x1b: "^[", 0x00: "^@", 0x1f: "^_", 0x7f: "^?",
		0x9b: "<U+009B>", 0x202e: "<U+202E>", 0xe0041: "<U+E0041>",
	} {
		if got := Caret(r); got != want {
			t.Errorf("Caret(%U) = %q, want %q", r, got, want)
		}
	}
	if got := CodePoint(0x200b); got != "U+200B" {
		t.Errorf("CodePoint = %q", got)
	}
}

// Text without a hidden character comes back as it was.
func TestEscapeReturnsCleanTextAsItIs(t *testing.T) {
	s := strings.Repeat("clean text, 日本語 ", 10)
	if got := Escape(s); got != s {
		t.Errorf("Escape changed clean text: %q", got)
	}
}

func ExampleEscape() {
	// A file name that would redraw its own line on a terminal.
	fmt.Println(Escape("f\rOVERWRITE\u202etxt.exe"))
	// Output: f\rOVERWRITE\u202etxt.exe
}

func ExampleEscapeText() {
	fmt.Printf("%q\n", EscapeText("name\tsize\r\n\x1b]2;title\a"))
	// Output: "name\tsize\r\n\\e]2;title\\a"
}

func ExampleCaret() {
	var b strings.Builder
	for _, r := range "rm -rf /\r# ok" {
		if Hidden(r) {
			b.WriteString(Caret(r))
			continue
		}
		b.WriteRune(r)
	}
	fmt.Println(b.String())
	// Output: rm -rf /^M# ok
}

// Every space but the ASCII one is hidden, so that a trust item or a command padded with thousands of
// no-break or typographic spaces shows them as escapes instead of a blank screen that hides its tail
// (": npx -y eslint-mcp", 9,000 U+00A0, "; touch M" was shown as its harmless start). Before, none of
// these was hidden.
func TestEverySpaceButTheASCIIOneIsHidden(t *testing.T) {
	spaces := []rune{0x00a0, 0x1680, 0x202f, 0x205f, 0x3000}
	for r := rune(0x2000); r <= 0x200a; r++ {
		spaces = append(spaces, r)
	}
	for _, r := range spaces {
		if !Hidden(r) || !Space(r) {
			t.Errorf("%U: Hidden %v, Space %v; want both", r, Hidden(r), Space(r))
		}
	}
	if Hidden(' ') || Space(' ') {
		t.Error("the ASCII space is hidden")
	}
	in := ": npx -y eslint-mcp" + strings.Repeat("\u00a0", 3) + "; touch M"
	if got, want := Escape(in), `: npx -y eslint-mcp\u00a0\u00a0\u00a0; touch M`; got != want {
		t.Errorf("Escape = %q, want %q", got, want)
	}
}
