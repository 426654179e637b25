package config

import (
	"fmt"
	"strings"
	"unicode"
)

// What the trust prompt and `warden mcp list` show comes from files a repository chose, and is drawn on a
// terminal: a carriage return or an escape sequence in a command line could redraw it as something else,
// and a direction override could reorder it. Such characters are shown as escapes instead.

// hidden reports a character that must not reach the screen as it is: control characters (line breaks
// too, which would start what looks like another item), and characters that are invisible or change the
// direction of the text around them.
func hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x206f, r == 0xfeff, r == 0x00ad:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Printable returns s with every hidden character written as an escape: \r, \n, \t, \e, \xHH below 0x80
// and \uXXXX above. It is for reading, not for parsing back: a backslash already in s is left as it is.
func Printable(s string) string {
	if strings.IndexFunc(s, hidden) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			b.WriteString(escapeRune(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escapeRune writes r the way bash's $'...' quoting reads it.
func escapeRune(r rune) string {
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
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// ansiCQuote quotes s as bash's $'...', in which every hidden character is an escape, so that a command
// line holding one reads on screen as exactly what runs and can still be pasted into bash.
func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range s {
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case hidden(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("'")
	return b.String()
}
