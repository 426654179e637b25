package skills

import (
	"errors"
	"strconv"
	"strings"
)

// The front matter of a SKILL.md is YAML, and skills written for other agents use more of it than
// one-line values: a description folded over lines (">" or "|"), quoted strings with escapes, allowed-tools
// as a list. frontMatter reads that subset of YAML, the keys at the top level with string or list values,
// and passes over what it does not use (a nested metadata map); it never fails on a value's shape, only on
// front matter that is never closed, so that a skill is not lost to YAML it does not need.

// meta is the front matter's values by key (lower-cased): a scalar is one string, a list several.
type meta map[string][]string

// str is the scalar value of key, "" when absent.
func (m meta) str(key string) string {
	if v := m[key]; len(v) > 0 {
		return strings.Join(v, " ")
	}
	return ""
}

// flag is the boolean value of key, def when absent or not a boolean.
func (m meta) flag(key string, def bool) bool {
	switch strings.ToLower(m.str(key)) {
	case "true":
		return true
	case "false":
		return false
	}
	return def
}

var errUnclosed = errors.New("the front matter opened with --- is never closed with ---")

// frontMatter splits a SKILL.md into its front matter's values and its body. A file that does not open
// with "---" has no front matter.
func frontMatter(text string) (meta, string, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return meta{}, text, nil
	}
	var lines []string
	for {
		line, after, found := strings.Cut(rest, "\n")
		if strings.TrimRight(line, " \t") == "---" {
			return parseYAML(lines), after, nil
		}
		if !found {
			return nil, "", errUnclosed
		}
		lines, rest = append(lines, line), after
	}
}

// parseYAML reads the top-level keys of lines.
func parseYAML(lines []string) meta {
	m := meta{}
	for i := 0; i < len(lines); {
		line := lines[i]
		i++
		if indent(line) > 0 || isBlankOrComment(line) || strings.HasPrefix(line, "- ") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(unquote(strings.TrimSpace(key))))
		value = strings.TrimSpace(value)
		// What belongs to this key: the lines after it that are indented, blank lines among them.
		j := i
		for j < len(lines) && (indent(lines[j]) > 0 || strings.TrimSpace(lines[j]) == "" || strings.HasPrefix(lines[j], "- ")) {
			j++
		}
		more := lines[i:j]
		i = j
		switch {
		case value == "" || strings.HasPrefix(value, "#"):
			if items, ok := blockList(more); ok {
				m[key] = items
			}
		case value[0] == '|' || value[0] == '>':
			m[key] = []string{blockScalar(value, more)}
		case value[0] == '"' || value[0] == '\'':
			m[key] = []string{quoted(value + joinLines(more))}
		case value[0] == '[' && key == "argument-hint":
			// Written as a hint to show ("[version]"), which YAML would read as a list.
			m[key] = []string{stripComment(value)}
		case value[0] == '[':
			m[key] = flowList(value + " " + joinLines(more))
		default:
			m[key] = []string{plain(value, more)}
		}
	}
	return m
}

func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

func isBlankOrComment(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// joinLines joins continuation lines of a quoted or flow value the way YAML folds them: each line break
// becomes a space, and a blank line a line break.
func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if t := strings.TrimSpace(l); t == "" {
			b.WriteString("\n")
		} else {
			b.WriteString(" " + t)
		}
	}
	return b.String()
}

// blockList reads "- item" lines; anything else (a nested map) is not a list of strings.
func blockList(lines []string) ([]string, bool) {
	var items []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
		case t == "-":
			items = append(items, "")
		case strings.HasPrefix(t, "- "):
			items = append(items, scalar(strings.TrimSpace(t[2:])))
		default:
			return nil, false
		}
	}
	return items, len(items) > 0
}

// blockScalar reads a "|" (literal) or ">" (folded) value from its indented lines.
func blockScalar(header string, lines []string) string {
	folded := header[0] == '>'
	min := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && (min < 0 || indent(l) < min) {
			min = indent(l)
		}
	}
	var b strings.Builder
	prevBlank := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			b.WriteString("\n")
			prevBlank = true
			continue
		}
		l = l[min:]
		switch {
		case !folded:
			b.WriteString(l + "\n")
		case prevBlank || indent(l) > 0:
			b.WriteString(l)
		default:
			b.WriteString(" " + l)
		}
		prevBlank = false
		if folded && indent(l) > 0 {
			b.WriteString("\n")
			prevBlank = true
		}
	}
	return strings.TrimSpace(b.String())
}

// plain reads an unquoted value, which may go on over more indented lines.
func plain(first string, more []string) string {
	v := stripComment(first)
	if rest := strings.TrimSpace(joinLines(more)); rest != "" {
		v += " " + rest
	}
	return v
}

// stripComment drops a " #" comment from an unquoted value.
func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// scalar reads one value of a list: quoted or plain.
func scalar(s string) string {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		return quoted(s)
	}
	return stripComment(s)
}

// quoted reads a value that starts with a quote, up to its closing quote; what follows is ignored. A quote
// never closed gives everything after the opening one.
func quoted(s string) string {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case q == '\'' && c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String()
		case q == '"' && c == '\\' && i+1 < len(s):
			n, adv := unescape(s[i+1:])
			b.WriteString(n)
			i += adv
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescape reads one escape of a double-quoted value (after the backslash) and says how many bytes it took.
func unescape(s string) (string, int) {
	switch s[0] {
	case 'n':
		return "\n", 1
	case 't':
		return "\t", 1
	case 'r':
		return "\r", 1
	case '0':
		return "\x00", 1
	case 'u', 'U', 'x':
		size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
		if len(s) > size {
			if r, err := strconv.ParseUint(s[1:1+size], 16, 32); err == nil {
				return string(rune(r)), 1 + size
			}
		}
	}
	return s[:1], 1
}

// unquote drops the quotes around a key.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return quoted(s)
	}
	return s
}

// flowList reads "[a, 'b c', d]".
func flowList(s string) []string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "[")
	var items []string
	var cur strings.Builder
	var quote byte
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			items = append(items, scalar(t))
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			cur.WriteByte(c)
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
			cur.WriteByte(c)
		case c == ',':
			flush()
		case c == ']':
			flush()
			return items
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return items
}
