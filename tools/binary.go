package tools

import (
	"strings"
	"unicode/utf8"
)

// One test of text against binary for what the tools show the model: a command's output as it streams
// (package bash) and a file's first bytes (package files).

// LooksBinary says whether a chunk of text is binary: more than 30% of it is NUL, control characters no
// text uses, or invalid UTF-8. Chunks under 16 bytes are too small to tell and count as text. The first n
// bytes are known to be plain text.
func LooksBinary(p []byte, n int) bool {
	if len(p) < 16 || n == len(p) {
		return false
	}
	bad := 0
	for i := n; i < len(p); {
		b := p[i]
		if b < utf8.RuneSelf {
			if b == 0 || b == 0x7f || (b < 0x20 && !strings.ContainsRune("\t\n\r\b\a\f\v\x1b", rune(b))) {
				bad++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(p[i:]) {
				break // split across chunks
			}
			bad++
		}
		i += size
	}
	return bad*10 > len(p)*3
}
