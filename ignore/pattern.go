package ignore

import (
	"bytes"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
)

// Pattern is one rule of an ignore file, parsed the way git parses it.
type Pattern struct {
	// Text is the line as written, after trailing spaces are trimmed; it is what check-ignore -v shows.
	Text string
	// glob is what is matched: without the leading "!", a leading "/" and a trailing "/".
	glob string
	// literal is the length of glob's leading run without special characters.
	literal int
	negated bool
	dirOnly bool
	// basename says the glob has no slash, so it matches the last path component at any depth.
	basename bool
	// suffix says the glob is "*" followed by a literal, matched as a plain string suffix.
	suffix bool
}

// ParsePattern parses one line of an ignore file. It reports false for a line that holds no rule: a blank
// line or a comment.
func ParsePattern(line string) (Pattern, bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return Pattern{}, false
	}
	line = trimTrailingSpaces(line)
	p := Pattern{Text: line}
	glob := line
	if strings.HasPrefix(glob, "!") {
		p.negated = true
		glob = glob[1:]
	}
	if strings.HasSuffix(glob, "/") {
		p.dirOnly = true
		glob = glob[:len(glob)-1]
	}
	p.basename = !strings.Contains(glob, "/")
	p.literal = literalPrefix(glob)
	if !p.basename && strings.HasPrefix(glob, "/") {
		glob = glob[1:]
		p.literal--
		if p.literal < 0 {
			p.literal = 0
		}
	}
	p.glob = glob
	p.suffix = strings.HasPrefix(glob, "*") && literalPrefix(glob[1:]) == len(glob)-1
	return p, true
}

// Negated reports whether the pattern re-includes what it matches ("!pattern").
func (p Pattern) Negated() bool { return p.negated }

// DirOnly reports whether the pattern matches directories only ("pattern/").
func (p Pattern) DirOnly() bool { return p.dirOnly }

// Match reports whether the pattern matches path, which is slash-separated and relative to the
// directory of the file the pattern came from. isDir says whether path names a directory (a symbolic
// link to one is not a directory). fold matches ASCII letters regardless of case (core.ignoreCase).
func (p Pattern) Match(path string, isDir, fold bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.basename {
		name := path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			name = path[i+1:]
		}
		switch {
		case p.literal == len(p.glob):
			return equal(p.glob, name, fold)
		case p.suffix:
			return len(name) >= len(p.glob)-1 && equal(p.glob[1:], name[len(name)-len(p.glob)+1:], fold)
		}
		return gitrepo.Wildmatch(p.glob, name, false, fold)
	}
	// git compares the literal head as a string and matches only the rest as a glob; a `**` that the
	// head ends right before counts as starting the pattern.
	if p.literal > 0 {
		if p.literal > len(path) || !equal(p.glob[:p.literal], path[:p.literal], fold) {
			return false
		}
		if p.literal == len(p.glob) {
			return p.literal == len(path)
		}
		return gitrepo.Wildmatch(p.glob[p.literal:], path[p.literal:], true, fold)
	}
	return gitrepo.Wildmatch(p.glob, path, true, fold)
}

func equal(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b) && asciiFoldEqual(a, b)
	}
	return a == b
}

// asciiFoldEqual compares byte by byte with ASCII letters folded, as git does; strings.EqualFold alone
// would also fold non-ASCII letters.
func asciiFoldEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isGlobSpecial is git's set of characters that end a literal run.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// literalPrefix is the length of s's leading run without glob special characters.
func literalPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// trimTrailingSpaces drops trailing spaces that no backslash escapes; a line ending in a lone backslash
// is left as it is.
func trimTrailingSpaces(s string) string {
	end := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if end < 0 {
				end = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			end = -1
		default:
			end = -1
		}
	}
	if end >= 0 {
		return s[:end]
	}
	return s
}

// parseFile parses the content of an ignore file: lines split on "\n", a byte-order mark skipped.
func parseFile(data []byte) []Pattern {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var out []Pattern
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if p, ok := ParsePattern(string(line)); ok {
			out = append(out, p)
		}
	}
	return out
}
