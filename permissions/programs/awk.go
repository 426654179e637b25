package programs

import "strings"

// The awk scanner. Whether `>` redirects output and whether `|` opens a pipe depends on where those
// characters stand: inside a string, a regular expression or a comment they are text, and a `>` outside a
// print statement compares. Telling a regular expression from a division is the hard part, since a `"`
// inside /"/ must not start a string for the scanner: awk decides by what comes before the `/`, and where
// the awks (gawk, mawk, one-true-awk) decide differently, the program is ambiguous.

// awkScan is what scanning an awk program found.
type awkScan struct {
	// redirect: a `>` or `>>` that redirects a print statement's output.
	redirect bool
	// pipe: a `|` that is not `||` (print | "cmd", "cmd" | getline, |&).
	pipe bool
	// at: gawk's @: indirect calls (@f()), @include, @load, @namespace.
	at bool
	// ambiguous: a `/` the awks may read either as division or as the start of a regular expression,
	// or a regular expression with a `/` inside brackets, which they end at different places.
	ambiguous bool
	// broken: an unterminated string or regular expression.
	broken bool
}

// awkKeywords are the words after which a `/` starts a regular expression.
var awkKeywords = map[string]bool{
	"BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true, "function": true, "func": true, "if": true,
	"else": true, "while": true, "for": true, "do": true, "break": true, "continue": true, "next": true,
	"nextfile": true, "exit": true, "return": true, "delete": true, "print": true, "printf": true, "in": true,
	"switch": true, "case": true, "default": true,
}

// awkBuiltins are functions; `length` may go without parentheses, and after any of them a `/` is read
// differently by different awks.
var awkBuiltins = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true, "gsub": true, "match": true,
	"sprintf": true, "sin": true, "cos": true, "atan2": true, "exp": true, "log": true, "sqrt": true, "int": true,
	"rand": true, "srand": true, "tolower": true, "toupper": true, "system": true, "close": true, "fflush": true,
	"getline": true, "gensub": true, "strftime": true, "systime": true, "mktime": true, "patsplit": true,
	"asort": true, "asorti": true, "isarray": true, "typeof": true, "and": true, "or": true, "xor": true,
	"compl": true, "lshift": true, "rshift": true, "strtonum": true,
}

// awkLexer holds the scanner's state.
type awkLexer struct {
	p   string
	i   int
	out awkScan
	// operand is true after a token that ends an operand: a `/` after it divides.
	operand bool
	// unsure is true after a token where the awks disagree about what a `/` means.
	unsure bool
	// continues is true after a token that lets the statement go on past a newline.
	continues bool
	// parens stacks the open parentheses: true for the condition of if, while, for and switch.
	parens []bool
	// word is the last identifier, when it was the last token.
	word string
	// printDepth is the parenthesis depth of the print statement being read, or -1.
	printDepth int
}

func scanAwk(p string) awkScan {
	l := &awkLexer{p: p, printDepth: -1}
	for l.i < len(l.p) && !l.out.broken {
		l.token()
	}
	return l.out
}

// set records the kind of the token just read.
func (l *awkLexer) set(operand, unsure, continues bool, word string) {
	l.operand, l.unsure, l.continues, l.word = operand, unsure, continues, word
}

func (l *awkLexer) token() {
	c := l.p[l.i]
	switch {
	case c == ' ' || c == '\t' || c == '\r':
		l.i++
	case c == '\\' && l.i+1 < len(l.p) && l.p[l.i+1] == '\n':
		l.i += 2 // a continued line
	case c == '\n':
		l.i++
		// A newline inside parentheses does not end a print statement here, whatever awk makes of it.
		if !l.continues && len(l.parens) == 0 {
			l.endStatement()
		}
	case c == '#':
		for l.i < len(l.p) && l.p[l.i] != '\n' {
			l.i++
		}
	case c == '"':
		l.i++
		l.skipString()
		l.set(true, false, false, "")
	case c == '/':
		if l.unsure {
			l.out.ambiguous = true
		}
		if l.operand {
			l.i++
			l.set(false, false, true, "")
			return
		}
		l.i++
		l.skipRegex()
		l.set(true, false, false, "")
	case isAwkIdentStart(c):
		j := l.i
		for j < len(l.p) && (isAwkIdentStart(l.p[j]) || l.p[j] >= '0' && l.p[j] <= '9') {
			j++
		}
		w := l.p[l.i:j]
		l.i = j
		switch {
		case w == "print" || w == "printf":
			l.printDepth = len(l.parens)
			l.set(false, false, false, w)
		case awkKeywords[w]:
			l.set(false, false, w == "do" || w == "else", w)
		case awkBuiltins[w]:
			l.set(true, true, false, w)
		default:
			l.set(true, false, false, w)
		}
	case c >= '0' && c <= '9' || c == '.':
		for l.i < len(l.p) && (l.p[l.i] >= '0' && l.p[l.i] <= '9' || l.p[l.i] == '.' || isAwkIdentStart(l.p[l.i])) {
			l.i++
		}
		l.set(true, false, false, "")
	default:
		l.operator()
	}
}

func (l *awkLexer) operator() {
	c := l.p[l.i]
	two := ""
	if l.i+1 < len(l.p) {
		two = l.p[l.i : l.i+2]
	}
	switch {
	case two == "||" || two == "&&":
		l.i += 2
		l.set(false, false, true, "")
		return
	case two == "++" || two == "--":
		l.i += 2
		l.set(true, false, false, "")
		return
	case c == '|':
		l.out.pipe = true
	case c == '>':
		if l.printDepth >= 0 && len(l.parens) <= l.printDepth {
			l.out.redirect = true
		}
	case c == '@':
		l.out.at = true
	case c == '(':
		l.parens = append(l.parens, l.word == "if" || l.word == "while" || l.word == "for" || l.word == "switch")
		l.i++
		l.set(false, false, false, "")
		return
	case c == ')':
		header := false
		if n := len(l.parens); n > 0 {
			header = l.parens[n-1]
			l.parens = l.parens[:n-1]
		}
		l.i++
		// After `if (...)` gawk reads /re/, mawk a division.
		l.set(!header, header, false, "")
		return
	case c == ']':
		l.i++
		l.set(true, false, false, "")
		return
	case c == '$':
		l.i++
		l.set(false, true, false, "")
		return
	case c == ';' || c == '{' || c == '}':
		l.i++
		l.endStatement()
		l.set(false, false, c == '{', "")
		return
	}
	l.i++
	// gawk goes on past a newline after `,` and, in a conditional expression, after `?` and `:`.
	l.set(false, false, c == ',' || c == '?' || c == ':', "")
}

// endStatement ends a print statement; a new statement may start with a regular expression.
func (l *awkLexer) endStatement() {
	l.printDepth = -1
	l.set(false, false, false, "")
}

func (l *awkLexer) skipString() {
	for l.i < len(l.p) {
		c := l.p[l.i]
		l.i++
		switch c {
		case '\\':
			l.i++
		case '"':
			return
		case '\n':
			l.out.broken = true
			return
		}
	}
	l.out.broken = true
}

// skipRegex skips a regular expression after its opening `/`. gawk and one-true-awk do not end it at a
// `/` inside a bracket expression; whether mawk does depends on its version, so such a `/` is ambiguous.
func (l *awkLexer) skipRegex() {
	inBracket := false
	for l.i < len(l.p) {
		c := l.p[l.i]
		l.i++
		switch {
		case c == '\\':
			l.i++
		case c == '\n':
			l.out.broken = true
			return
		case inBracket && c == ']':
			inBracket = false
		case c == '[' && !inBracket:
			inBracket = true
			// A `]` first in the bracket (or after `^`) is a member, not the end.
			if strings.HasPrefix(l.p[l.i:], "^") {
				l.i++
			}
			if strings.HasPrefix(l.p[l.i:], "]") {
				l.i++
			}
		case c == '/' && inBracket:
			l.out.ambiguous = true
		case c == '/':
			return
		}
	}
	l.out.broken = true
}

func isAwkIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
