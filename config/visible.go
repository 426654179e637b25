package config

import (
	"strings"
	"unicode/utf8"

	"github.com/warden-cli/warden/printable"
)

// What the trust prompt and `warden mcp list` show comes from files a repository chose, and is drawn on a
// terminal: a carriage return or an escape sequence in a command line could redraw it as something else,
// and a direction override could reorder it. Such characters are shown as escapes instead; which characters
// those are is printable's one table.

// ansiCQuote quotes s as bash's $'...', in which every hidden character is an escape, so that a command
// line holding one reads on screen as exactly what runs and can still be pasted into bash. A byte that is
// not UTF-8 is written as \xHH, which bash reads back as that byte.
func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(printable.Escape(s[i : i+1]))
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case printable.Hidden(r):
			b.WriteString(printable.EscapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}
