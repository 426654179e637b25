// Package printable is the one table of what may reach a terminal as it is. Warden draws text that others
// chose: a command the model wrote, a file name a repository holds, a server's error, a project's settings.
// On a terminal a control character in it acts instead of showing (an escape sequence moves the cursor,
// clears the screen, sets the title or the clipboard; a carriage return redraws the line), and an invisible
// or direction-changing character makes what the person reads differ from what is there. Every place that
// shows such text asks Hidden, and writes what it hides in one of the forms here: bash's escapes (Escape,
// EscapeLines, EscapeText, EscapeRune), caret notation (Caret), or the code point (CodePoint).
//
// It is a leaf: it imports nothing of Warden's, so that every package may use it.
package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Control reports a control character: C0 (below U+0020, line breaks and tabs included), DEL, and C1
// (U+0080 to U+009F), which some terminals read as escape sequences of their own.
func Control(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
}

// Hidden reports a character that must not reach a terminal as it is:
//   - a control character (Control); callers that keep line breaks or tabs say so;
//   - the line and paragraph separators (U+2028, U+2029), which some terminals and editors break on;
//   - a format character (Unicode's Cf): the bidi marks, embeddings, overrides and isolates (U+200E, U+202A
//     to U+202E, U+2066 to U+2069, U+061C), zero-width spaces and joiners (U+200B to U+200D, U+2060), the
//     byte-order mark, the soft hyphen, the tag characters;
//   - the other code points Unicode says render as nothing (Other_Default_Ignorable_Code_Point): the Hangul
//     fillers, the combining grapheme joiner, U+2065 and the reserved ranges beside the tags;
//   - every space but U+0020 (Space): a run of no-break spaces reads as blank screen, and pushes the tail
//     of a command line (; touch M) out of sight while the person approves its harmless start;
//   - the letters and symbols drawn as nothing at all: the braille pattern blank (U+2800), the Hangul
//     fillers, the object replacement character (U+FFFC). A run of braille blanks pushes a tail out of
//     sight as no-break spaces do;
//   - the variation selectors but the two that choose an emoji's look (U+FE0E text, U+FE0F emoji), which
//     are everywhere in ordinary text: the others draw nothing, and a run of them makes two texts that
//     read alike differ.
func Hidden(r rune) bool {
	switch {
	case r < 0xa0:
		return Control(r)
	case r == 0x2028, r == 0x2029, r == 0x2800, r == 0xfffc:
		return true
	case r == 0xfe0e, r == 0xfe0f:
		return false
	}
	return Space(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// Space reports a space character other than U+0020 (Unicode's Zs): the no-break spaces (U+00A0, U+202F),
// the ogham space mark (U+1680), the typographic spaces U+2000 to U+200A, the medium mathematical space
// (U+205F) and the ideographic space (U+3000). Each looks like a space or like nothing, so a place that
// shows text as it is may show it as a plain space, and one that must show exactly what is there escapes
// it.
func Space(r rune) bool {
	return r != ' ' && unicode.Is(unicode.Zs, r)
}

// Index returns the index of the first hidden character of s, or of its first byte that is not UTF-8
// (a stray 0x9B is a C1 control to some terminals), or -1 when there is none.
func Index(s string) int {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Hidden(r) || r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// EscapeRune writes r the way bash's $'...' quoting reads it: \a \b \e \f \n \r \t \v for the controls that
// have a letter, \xHH for the other characters below U+0080, \uHHHH up to U+FFFF and \UHHHHHHHH above.
func EscapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case 0x1b:
		return `\e`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// Escape returns s with every hidden character written as EscapeRune writes it: for one line of text, a
// name, a command, a path. It is for reading, not for parsing back: a backslash already in s is left as it
// is.
func Escape(s string) string {
	return escape(s, func(string, int) bool { return false })
}

// EscapeLines is Escape for text of several lines (a server's error, its stderr): line breaks stay, every
// other hidden character is escaped.
func EscapeLines(s string) string {
	return escape(s, func(s string, i int) bool { return s[i] == '\n' })
}

// EscapeText is Escape for what Warden prints on the command line, which holds lines and tables: line
// breaks and tabs stay, and so does a carriage return just before a line break (it moves the cursor where
// the break would). Every other hidden character is escaped.
func EscapeText(s string) string {
	return escape(s, func(s string, i int) bool {
		switch s[i] {
		case '\n', '\t':
			return true
		case '\r':
			return i+1 < len(s) && s[i+1] == '\n'
		}
		return false
	})
}

// escape writes every hidden character of s as an escape, except those keep accepts (given s and the
// character's index). A byte that is not UTF-8 is written as \xHH, which bash reads back as that byte.
func escape(s string, keep func(s string, i int) bool) string {
	i := Index(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Hidden(r) && !keep(s, i):
			b.WriteString(EscapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Caret writes a hidden character as a screen shows it among ordinary text: caret notation for the C0
// controls (^M, ^[) and DEL (^?), and its code point in angle brackets for the rest (<U+202E>), so that it
// cannot be taken for the letters around it.
func Caret(r rune) string {
	switch {
	case r < 0x20:
		return "^" + string(r+'@')
	case r == 0x7f:
		return "^?"
	}
	return "<" + CodePoint(r) + ">"
}

// CodePoint names r by its code point: U+202E.
func CodePoint(r rune) string {
	return fmt.Sprintf("U+%04X", r)
}
