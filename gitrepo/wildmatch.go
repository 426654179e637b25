package gitrepo

// Wildmatch matches text against a glob the way git's wildmatch does, for ignore rules, includeIf
// conditions and the like. With pathname set, `*`, `?` and
// brackets never match a slash and `**` matches across directories only as a whole path component
// (`**/x`, `x/**`, `x/**/y`); elsewhere `**` is a plain `*`. Without pathname, `*` matches slashes too.
// A malformed pattern (a trailing backslash, an unclosed bracket, an unknown [:class:]) matches nothing.
func Wildmatch(pattern, text string, pathname, fold bool) bool {
	w := wild{pattern: pattern, text: text, pathname: pathname, fold: fold}
	return w.match(0, 0) == matched
}

// wild is one match in progress. Its answer for a pattern position and a text position never depends on
// how it got there, so after a budget of steps those answers are remembered: a hostile pattern (many
// `**` against a deep path) costs at most pattern length times text length.
type wild struct {
	pattern, text  string
	pathname, fold bool
	steps          int
	memo           []outcome // (pi*(len(text)+1) + ti) -> outcome+1, once steps passed memoAfter
}

const memoAfter = 256

type outcome int

const (
	matched outcome = iota
	noMatch
	// abortAll says no later start of a `*` can match either: the text ran out.
	abortAll
	// abortToDoubleStar says only an outer `**` can still help, since a single `*` met a slash.
	abortToDoubleStar
)

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

// match matches pattern[pi:] against text[ti:].
func (w *wild) match(pi, ti int) outcome {
	w.steps++
	if w.steps > memoAfter && w.memo == nil {
		w.memo = make([]outcome, (len(w.pattern)+1)*(len(w.text)+1))
	}
	if w.memo == nil {
		return w.matchFrom(pi, ti)
	}
	k := pi*(len(w.text)+1) + ti
	if r := w.memo[k]; r != 0 {
		return r - 1
	}
	r := w.matchFrom(pi, ti)
	w.memo[k] = r + 1
	return r
}

func (w *wild) matchFrom(pi, ti int) outcome {
	pattern, text, pathname, fold := w.pattern, w.text, w.pathname, w.fold
	for ; pi < len(pattern); pi++ {
		pc := pattern[pi]
		if ti >= len(text) && pc != '*' {
			return abortAll
		}
		var tc byte
		if ti < len(text) {
			tc = text[ti]
		}
		if fold {
			tc, pc = lower(tc), lower(pc)
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(pattern) {
				return abortAll
			}
			// Like git, an escaped letter is not folded, although the text is.
			if tc != pattern[pi] {
				return noMatch
			}
		case '?':
			if pathname && tc == '/' {
				return noMatch
			}
		case '*':
			return w.star(pi, ti)
		case '[':
			next, ok, malformed := bracket(pattern, pi, text[ti], pathname, fold)
			if malformed {
				return abortAll
			}
			if !ok {
				return noMatch
			}
			pi = next
		default:
			if tc != pc {
				return noMatch
			}
		}
		ti++
	}
	if ti < len(text) {
		return noMatch
	}
	return matched
}

// star matches a run of asterisks starting at pattern[pi], followed by the rest of the pattern, against
// text[ti:].
func (w *wild) star(pi, ti int) outcome {
	pattern, text, pathname, fold := w.pattern, w.text, w.pathname, w.fold
	start := pi
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	crossSlash := !pathname
	if pathname && pi-start >= 2 {
		before := start == 0 || pattern[start-1] == '/'
		after := pi == len(pattern) || pattern[pi] == '/' ||
			(pattern[pi] == '\\' && pi+1 < len(pattern) && pattern[pi+1] == '/')
		if before && after {
			// `x/**/y` also matches `x/y`: try the `**/` as matching no directory at all.
			if pi < len(pattern) && pattern[pi] == '/' && w.match(pi+1, ti) == matched {
				return matched
			}
			crossSlash = true
		}
	}
	if pi == len(pattern) {
		if !crossSlash && containsSlash(text[ti:]) {
			return noMatch
		}
		return matched
	}
	if !crossSlash && pattern[pi] == '/' {
		// A single `*` before a slash covers the rest of this path component.
		slash := indexSlash(text[ti:])
		if slash < 0 {
			return noMatch
		}
		return w.match(pi, ti+slash)
	}
	for ; ti < len(text); ti++ {
		if pc := pattern[pi]; !isGlobSpecial(pc) {
			// A literal follows: skip straight to the next place it occurs in this component.
			if fold {
				pc = lower(pc)
			}
			for ti < len(text) && (crossSlash || text[ti] != '/') {
				tc := text[ti]
				if fold {
					tc = lower(tc)
				}
				if tc == pc {
					break
				}
				ti++
			}
			// Not found: no later start can work, and at a slash only an outer `**` still can.
			if ti >= len(text) {
				return abortAll
			}
			if !crossSlash && text[ti] == '/' {
				return abortToDoubleStar
			}
		}
		r := w.match(pi, ti)
		if r != noMatch {
			if !crossSlash || r != abortToDoubleStar {
				return r
			}
		} else if !crossSlash && text[ti] == '/' {
			return abortToDoubleStar
		}
	}
	return abortAll
}

// bracket matches one character against the bracket expression at pattern[pi] ('['). It returns the
// index of the closing ']' and whether c is in the set; malformed says the expression never closes or
// names an unknown class.
func bracket(pattern string, pi int, c byte, pathname, fold bool) (end int, ok, malformed bool) {
	if fold {
		c = lower(c)
	}
	pi++
	negated := false
	if pi < len(pattern) && (pattern[pi] == '!' || pattern[pi] == '^') {
		negated = true
		pi++
	}
	in := false
	var prev byte
	havePrev := false
	for first := true; ; first = false {
		if pi >= len(pattern) {
			return 0, false, true
		}
		pc := pattern[pi]
		if pc == ']' && !first {
			break
		}
		switch {
		case pc == '\\':
			pi++
			if pi >= len(pattern) {
				return 0, false, true
			}
			pc = pattern[pi]
			if pc == c {
				in = true
			}
			prev, havePrev = pc, true
		case pc == '-' && havePrev && pi+1 < len(pattern) && pattern[pi+1] != ']':
			pi++
			hi := pattern[pi]
			if hi == '\\' {
				pi++
				if pi >= len(pattern) {
					return 0, false, true
				}
				hi = pattern[pi]
			}
			if inRange(c, prev, hi, fold) {
				in = true
			}
			havePrev = false
		case pc == '[' && pi+1 < len(pattern) && pattern[pi+1] == ':':
			close := classEnd(pattern, pi+2)
			if close < 0 {
				// No closing ":]": git takes the '[' as a plain character.
				if c == '[' {
					in = true
				}
				prev, havePrev = '[', true
				break
			}
			name := pattern[pi+2 : close]
			member, known := inClass(name, c, fold)
			if !known {
				return 0, false, true
			}
			if member {
				in = true
			}
			pi = close + 1
			havePrev = false
		default:
			// Like git, only the text is folded here: [a] matches "A" but [A] matches neither.
			if pc == c {
				in = true
			}
			prev, havePrev = pc, true
		}
		pi++
	}
	if in == negated || (pathname && c == '/') {
		return pi, false, false
	}
	return pi, true, false
}

// classEnd finds the ":]" closing a character class name that starts at i, or -1.
func classEnd(pattern string, i int) int {
	for j := i; j+1 < len(pattern); j++ {
		if pattern[j] == ':' && pattern[j+1] == ']' {
			return j
		}
		if pattern[j] == ']' {
			return -1
		}
	}
	return -1
}

func inRange(c, lo, hi byte, fold bool) bool {
	if lo <= c && c <= hi {
		return true
	}
	// c is already lower case when folding; the range may be written in upper case.
	if fold && 'a' <= c && c <= 'z' {
		u := c - 'a' + 'A'
		return lo <= u && u <= hi
	}
	return false
}

func inClass(name string, c byte, fold bool) (member, known bool) {
	switch name {
	case "alnum":
		return isAlpha(c) || isDigit(c), true
	case "alpha":
		return isAlpha(c), true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit(c), true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return 'a' <= c && c <= 'z', true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c), true
	case "space":
		return c == ' ' || ('\t' <= c && c <= '\r'), true
	case "upper":
		return ('A' <= c && c <= 'Z') || (fold && 'a' <= c && c <= 'z'), true
	case "xdigit":
		return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}

func isAlpha(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func containsSlash(s string) bool { return indexSlash(s) >= 0 }

func indexSlash(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
