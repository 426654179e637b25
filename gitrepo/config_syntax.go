package gitrepo

import (
	"errors"
	"strings"
)

// ParseConfig reads git's configuration syntax the way git's own parser does, calling visit for every
// variable in order with its canonical key (section and name lower-cased, a subsection as written) and
// its line. On what git would refuse it returns an error and the line, having visited the variables
// before it.
//
// The syntax, as git reads it: `#` and `;` start comments; `[section]`, `[section "subsection"]` (a
// backslash escapes the next character) and the old `[section.subsection]` start sections, and a
// variable may follow on the same line; a variable is a letter then letters, digits and dashes, alone
// (true) or followed by `=` and a value. In a value, double quotes group, `\n`, `\t`, `\b`, `\\` and `\"`
// are escapes, a backslash before a newline continues the line, any other escape is an error, whitespace
// outside quotes becomes spaces (none at the ends), and a comment character outside quotes ends it.
// A UTF-8 byte-order mark is skipped and CR LF is a newline.
func ParseConfig(data []byte, visit func(line int, key, value string, noValue bool)) (int, error) {
	s := string(data)
	s = strings.TrimPrefix(s, "\ufeff")
	p := &gitConfigParser{s: s, line: 1}
	section := ""
	for {
		c, eof := p.next()
		if eof {
			return p.line, nil
		}
		switch {
		case c == '\n' || configSpace(c):
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			name, err := p.header()
			if err != nil {
				return p.line, err
			}
			section = name
		case isAlpha(c):
			line := p.line
			name := p.name(c)
			key := name
			if section != "" {
				// git reads a variable before any section too, under its bare name.
				key = section + "." + name
			}
			value, noValue, err := p.value()
			if err != nil {
				return p.line, err
			}
			visit(line, key, value, noValue)
		default:
			return p.line, errors.New("unexpected character")
		}
	}
}

type gitConfigParser struct {
	s    string
	i    int
	line int
	// eof is set once the end has been read; like git, the end reads as a newline.
	eof bool
}

// next returns the next character, CR LF read as LF. At the end it returns a newline once with eof
// false, then eof.
func (p *gitConfigParser) next() (byte, bool) {
	if p.i >= len(p.s) {
		if p.eof {
			return '\n', true
		}
		p.eof = true
		return '\n', false
	}
	c := p.s[p.i]
	p.i++
	if c == '\r' && p.i < len(p.s) && p.s[p.i] == '\n' {
		c = '\n'
		p.i++
	}
	if c == '\n' {
		p.line++
	}
	return c, false
}

func (p *gitConfigParser) unread(c byte) {
	if p.eof && p.i >= len(p.s) {
		p.eof = false
		return
	}
	if c == '\n' {
		p.line--
		if p.i >= 2 && p.s[p.i-2] == '\r' && p.s[p.i-1] == '\n' {
			p.i--
		}
	}
	p.i--
}

func (p *gitConfigParser) skipLine() {
	for {
		c, eof := p.next()
		if eof || c == '\n' {
			return
		}
	}
}

// header reads a section header after its `[`.
func (p *gitConfigParser) header() (string, error) {
	var b strings.Builder
	for {
		c, eof := p.next()
		if eof || p.eof && c == '\n' {
			return "", errors.New("a section header without `]`")
		}
		if c == ']' {
			name := b.String()
			if name == "" {
				return "", errors.New("an empty section name")
			}
			// `[a.b]` is the old spelling of a subsection, lower-cased whole.
			return name, nil
		}
		if configSpace(c) {
			return p.subsection(b.String())
		}
		if !configKeyChar(c) && c != '.' {
			return "", errors.New("a bad character in a section name")
		}
		b.WriteByte(lower(c))
	}
}

// subsection reads `"name"]` after a section name and the blanks that follow it.
func (p *gitConfigParser) subsection(section string) (string, error) {
	c, _ := p.next()
	for configSpace(c) && !p.eof {
		c, _ = p.next()
	}
	if c != '"' {
		return "", errors.New("a section header with a bad subsection")
	}
	var b strings.Builder
	for {
		c, eof := p.next()
		if eof || c == '\n' {
			return "", errors.New("a subsection without its closing quote")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c, _ = p.next(); c == '\n' {
				return "", errors.New("a subsection without its closing quote")
			}
		}
		b.WriteByte(c)
	}
	if c, _ := p.next(); c != ']' {
		return "", errors.New("a section header without `]`")
	}
	return section + "." + b.String(), nil
}

// name reads a variable's name, whose first letter is c.
func (p *gitConfigParser) name(c byte) string {
	var b strings.Builder
	b.WriteByte(lower(c))
	for {
		c, eof := p.next()
		if eof {
			return b.String()
		}
		if !configKeyChar(c) {
			p.unread(c)
			return b.String()
		}
		b.WriteByte(lower(c))
	}
}

// value reads what follows a variable's name: nothing (true) or `= value`.
func (p *gitConfigParser) value() (string, bool, error) {
	c, _ := p.next()
	for c == ' ' || c == '\t' {
		c, _ = p.next()
	}
	if c == '\n' {
		return "", true, nil
	}
	if c != '=' {
		return "", false, errors.New("a variable followed by something other than `=`")
	}
	var b strings.Builder
	quote, comment := false, false
	spaces := 0
	for {
		c, _ := p.next()
		if c == '\n' {
			if quote {
				return "", false, errors.New("a value without its closing quote")
			}
			return b.String(), false, nil
		}
		if comment {
			continue
		}
		if configSpace(c) && !quote {
			if b.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			e, _ := p.next()
			switch e {
			case '\n':
				continue
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case '\\', '"':
				b.WriteByte(e)
			default:
				return "", false, errors.New("an unknown escape in a value")
			}
		case '"':
			quote = !quote
		default:
			b.WriteByte(c)
		}
	}
}

func configSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func configKeyChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' }
