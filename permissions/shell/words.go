package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one shell word after the quote removal bash would do. A word whose value depends on the run time
// (parameter expansion, command substitution, brace expansion) is not static: its Value is only a best effort
// for display and must never be trusted for a decision.
type Word struct {
	Value string
	// Raw is the word's source text, for reasons.
	Raw string
	// Static is true when Value is exactly the string bash would pass to the program.
	Static bool
	// Glob is true when an unquoted *, ? or [ remains, so bash may replace the word with file names.
	Glob bool
	// Param names the variable when the word is exactly "$NAME" or "${NAME}" followed by a literal tail,
	// so that `rm -rf "$DIR"/` can be recognised as dangerous.
	Param string
	// ParamTail is the static text after the leading parameter, when Param is set.
	ParamTail string
	// ProcIn is true when the word is an input process substitution <(...), which bash replaces by a
	// /dev/fd path: reading it is harmless.
	ProcIn bool
	// Found is set for the {} of find -exec, which stands for each file found below the roots. Such a
	// word is not static; Value is the first root, and only a plain file operand may hold it.
	Found bool
	// Subst is the command substitution the word is made of, alone and unquoted (`$(git ls-files)`):
	// its output, split into fields, becomes the arguments.
	Subst *syntax.CmdSubst
	// Syn is the word as parsed, for the shape of what a word only known at run time may become
	// (loose.go); nil where the word was made up.
	Syn *syntax.Word
}

// ResolveWord computes the value of w the way bash would, as far as that can be known without running
// anything. home and pwd resolve `~` and `$HOME`/`$PWD`; an empty home leaves them unresolved.
func ResolveWord(w *syntax.Word, home, pwd string) Word {
	return ResolveWordVars(w, home, pwd, nil)
}

// ResolveWordVars is ResolveWord with variables whose values are known for certain (a loop's variable over
// literal words, see the engine's loopValues).
func ResolveWordVars(w *syntax.Word, home, pwd string, vars map[string]string) Word {
	var b strings.Builder
	out := Word{Static: true}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				// The tilde prefix runs to the first slash: ~ is home, ~+ the directory the word is
				// used in; ~- (OLDPWD), ~user and the directory stack's ~N are only known at run time.
				prefix, _, _ := strings.Cut(v, "/")
				switch {
				case prefix == v && len(w.Parts) > 1:
					// `~"/x"`, `~$u`: a quoted or expanded character joins the prefix and bash leaves the
					// tilde as it is; rare enough to leave to run time.
					out.Static = false
				case prefix == "~" && home != "":
					b.WriteString(home)
					v = v[1:]
				case prefix == "~+" && pwd != "":
					b.WriteString(pwd)
					v = v[2:]
				default:
					out.Static = false
				}
			}
			if hasBraceExpansion(v) {
				out.Static = false
			}
			s, glob := unescapeUnquoted(v)
			if glob {
				out.Glob = true
			}
			b.WriteString(s)
		case *syntax.SglQuoted:
			if p.Dollar {
				s, ok := decodeANSIC(p.Value)
				if !ok {
					out.Static = false
				}
				b.WriteString(s)
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				switch q := dp.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if v, ok := KnownParam(q, home, pwd, vars); ok {
						b.WriteString(v)
						continue
					}
					if i == 0 && b.Len() == 0 && q.Param != nil && out.Param == "" {
						out.Param = q.Param.Value
					}
					out.Static = false
				default:
					out.Static = false
				}
			}
		case *syntax.ParamExp:
			if v, ok := KnownParam(p, home, pwd, vars); ok {
				b.WriteString(v)
				continue
			}
			if i == 0 && p.Param != nil {
				out.Param = p.Param.Value
			}
			out.Static = false
		case *syntax.ProcSubst:
			if p.Op == syntax.CmdIn && len(w.Parts) == 1 {
				out.ProcIn = true
				b.WriteString("/dev/fd/63")
				continue
			}
			out.Static = false
		case *syntax.CmdSubst:
			if len(w.Parts) == 1 {
				out.Subst = p
			}
			out.Static = false
		default:
			// Arithmetic substitutions, extended globs and anything newer than this code: the value is
			// only known at run time.
			out.Static = false
		}
	}
	out.Value = b.String()
	if out.Param != "" && len(w.Parts) > 1 {
		tail := ResolveWord(&syntax.Word{Parts: w.Parts[1:]}, "", "")
		if tail.Static {
			out.ParamTail = tail.Value
		}
	}
	return out
}

// KnownParam resolves the few variables whose value Warden knows for certain: $HOME, $PWD and the bound
// vars, in their plain forms only.
func KnownParam(p *syntax.ParamExp, home, pwd string, vars map[string]string) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Exp != nil || p.Names != 0 || len(p.Modifiers) != 0 || p.NestedParam != nil {
		return "", false
	}
	if v, ok := vars[p.Param.Value]; ok {
		return v, true
	}
	switch p.Param.Value {
	case "HOME":
		return home, home != ""
	case "PWD":
		return pwd, pwd != ""
	}
	return "", false
}

// unescapeUnquoted removes backslashes the way bash does outside quotes, and reports whether an unescaped
// glob character remains.
func unescapeUnquoted(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
			continue
		case '*', '?':
			glob = true
		case '[':
			// A bracket is a pattern only when it closes; `[` alone is the test command.
			if strings.IndexByte(s[i+1:], ']') >= 0 {
				glob = true
			}
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// unescapeDouble removes the backslashes bash removes inside double quotes: only before $, `, ", \ and a
// newline.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasBraceExpansion reports whether an unquoted literal contains a brace expansion such as {a,b} or {1..3},
// which bash turns into several words.
func hasBraceExpansion(s string) bool {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return false
	}
	rest := s[open+1:]
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		return false
	}
	inner := rest[:end]
	return strings.Contains(inner, ",") || strings.Contains(inner, "..") || hasBraceExpansion(rest)
}

// decodeANSIC decodes the body of a $'...' word. It reports false for escapes it does not know, so that
// such a word is treated as unknown rather than guessed.
func decodeANSIC(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				return b.String(), false
			}
			n, err := strconv.ParseUint(s[i+1:j], 16, 32)
			if err != nil {
				return b.String(), false
			}
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				if !utf8.ValidRune(rune(n)) {
					return b.String(), false
				}
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 >= len(s) {
				return b.String(), false
			}
			i++
			b.WriteByte(s[i] & 0x1f)
		default:
			// bash keeps unknown escapes verbatim, backslash included.
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// SubstSafe reports whether a name comes out of a command substitution as itself: no blank (split), no
// wildcard (expanded) and no leading dash (an option).
func SubstSafe(name string) bool {
	return !strings.ContainsAny(name, " \t\n*?[") && !strings.HasPrefix(name, "-")
}
