package permissions

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

// hdocEndsEarly reports whether bash may end the here-document of r before the parser did, given src,
// the source r was parsed from; inSubst says r is inside a command or process substitution.
func hdocEndsEarly(r *syntax.Redirect, src string, inSubst bool) bool {
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
	quoted := hdocQuoted(r)
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

// inside reports whether offset lies within one of the ranges.
func inside(ranges [][2]uint, offset uint) bool {
	for _, r := range ranges {
		if offset >= r[0] && offset < r[1] {
			return true
		}
	}
	return false
}

// heredocCat returns the value of a word made of a double-quoted substitution that only prints a quoted
// here-document with cat, `"$(cat <<'EOF'` … `EOF` `)"`, the way commit messages are written: the body,
// trailing newlines removed. The substitution's command must have been judged as the read-only cat
// program; Classify asks if the command defines a function named cat anywhere.
func (c *classifier) heredocCat(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	dq, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 {
		return "", false
	}
	cs, ok := dq.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || cs.TempFile || cs.ReplyVar {
		return "", false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) != 0 || len(call.Args) != 1 ||
		call.Args[0].Lit() != "cat" || len(st.Redirs) != 1 {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != syntax.Hdoc || r.N != nil || !hdocQuoted(r) || r.Hdoc == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	bounds, ok := c.substParts[cs]
	if !ok || bounds[1]-bounds[0] != 1 {
		return "", false
	}
	if p := c.parts[bounds[0]]; !p.ReadOnly || len(p.Layers) != 1 || len(p.Args) != 1 || p.Args[0] != "cat" || p.called != "cat" {
		return "", false
	}
	c.catHeredoc = true
	return strings.TrimRight(b.String(), "\n"), true
}
