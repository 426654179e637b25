package shell

// Where a here-document ends. The parser and bash must agree on the line that closes a body: a line
// bash takes as the end while the parser reads on would hide the commands after it inside the body,
// where nothing is judged (a quoted body) or only its expansions are. Two rules of bash's make it end
// earlier than the parser does:
//   - inside a command substitution, a line that starts with the delimiter and has a `)` after it ends
//     the body, and the rest of the line is read as shell (`$(cat <<'EOF'` … `EOF)` then `touch x`);
//   - in an unquoted body, a backslash at the end of a line joins it to the next before the line is
//     compared with the delimiter (`EO\` then `F`).
// Warden does not follow bash there: a body with such a line asks.

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// HdocEndsEarly reports whether bash may end the here-document of r before the parser did, given src,
// the source r was parsed from; inSubst says r is inside a command or process substitution.
func HdocEndsEarly(r *syntax.Redirect, src string, inSubst bool) bool {
	if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc || r.Word == nil {
		return false
	}
	if r.Hdoc == nil {
		return false
	}
	ws, we := int(r.Word.Pos().Offset()), int(r.Word.End().Offset())
	bs, be := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if ws > we || we > len(src) || bs > be || be > len(src) {
		return true
	}
	delim, ok := hdocDelimiter(src[ws:we])
	if !ok {
		return true
	}
	quoted := HdocQuoted(r)
	lines := strings.Split(src[bs:be], "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		joined := false
		if !quoted {
			// bash joins a line that ends in an unescaped backslash with the next one.
			for endsInBackslash(line) && i+1 < len(lines) {
				i++
				line = line[:len(line)-1] + lines[i]
				joined = true
			}
		}
		if r.Op == syntax.DashHdoc {
			line = strings.TrimLeft(line, "\t")
		}
		if !strings.HasPrefix(line, delim) {
			continue
		}
		rest := line[len(delim):]
		if rest == "" && (joined || i < len(lines)-1) || inSubst && strings.Contains(rest, ")") {
			return true
		}
	}
	return false
}

// endsInBackslash reports whether line ends in an odd run of backslashes.
func endsInBackslash(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// hdocDelimiter is a here-document's delimiter as bash compares it: the word with its quotes removed
// and nothing expanded. ok is false for a word Warden does not read the way bash does.
func hdocDelimiter(w string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch c := w[i]; c {
		case '\\':
			if i+1 < len(w) {
				i++
				b.WriteByte(w[i])
			}
		case '\'':
			end := strings.IndexByte(w[i+1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(w[i+1 : i+1+end])
			i += end + 1
		case '"':
			j := i + 1
			for ; j < len(w) && w[j] != '"'; j++ {
				if w[j] == '\\' && j+1 < len(w) && strings.IndexByte("$`\"\\\n", w[j+1]) >= 0 {
					j++
				}
				b.WriteByte(w[j])
			}
			if j >= len(w) {
				return "", false
			}
			i = j
		case '$':
			if i+1 < len(w) && (w[i+1] == '\'' || w[i+1] == '"') {
				// $'...' and $"...": bash's reading of these as delimiters differs between versions.
				return "", false
			}
			b.WriteByte(c)
		case '`':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// InRanges reports whether offset lies within one of the ranges.
func InRanges(ranges [][2]uint, offset uint) bool {
	for _, r := range ranges {
		if offset >= r[0] && offset < r[1] {
			return true
		}
	}
	return false
}

// HdocQuoted reports whether a here-document's delimiter is quoted in any part (`'EOF'`, `\EOF`,
// `E'O'F`): bash then feeds the body as it is written, expanding nothing.
func HdocQuoted(r *syntax.Redirect) bool {
	if r.Word == nil {
		return false
	}
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// HeredocBody is the text bash feeds from a here-document. With a quoted delimiter the body is literal
// (taken from the source, since the parser may have read expansions into it); otherwise a backslash only
// escapes $, `, \ and a newline, and any expansion makes the body unknown.
func HeredocBody(r *syntax.Redirect, src string) Word {
	out := Word{Static: true}
	if r.Hdoc == nil {
		return out
	}
	quoted := HdocQuoted(r)
	allLit := true
	for _, p := range r.Hdoc.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			allLit = false
		}
	}
	if quoted && !allLit {
		// The parser read expansions into a body bash leaves alone (`<<E'O'F`): take the source, up to
		// the delimiter's line.
		start, end := r.Hdoc.Pos().Offset(), r.Hdoc.End().Offset()
		if start > end || int(end) > len(src) {
			out.Static = false
			return out
		}
		body := src[start:end]
		delim := ResolveWord(r.Word, "", "").Value
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if n := len(lines); n > 0 && strings.TrimLeft(lines[n-1], "\t") == delim {
			lines = lines[:n-1]
		}
		out.Value = strings.Join(lines, "\n")
		if len(lines) > 0 {
			out.Value += "\n"
		}
		return out
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			out.Static = false
			continue
		}
		if quoted {
			b.WriteString(lit.Value)
			continue
		}
		v := lit.Value
		for i := 0; i < len(v); i++ {
			if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\\\n", v[i+1]) >= 0 {
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
				continue
			}
			b.WriteByte(v[i])
		}
	}
	out.Value = b.String()
	return out
}
