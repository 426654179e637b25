package shell

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A word only known at run time decides a path rule only where it names a path, and only if some rule
// could match what it may become. A path whose unknown parts each expand to one file name component
// (no `/`, no blank, no wildcard, never `.` or `..`) lies below the directory its known start names:
// `mkdir -p out/$(date +%F)` writes below out/, which Edit(./.github/**) cannot govern. Any other
// unknown path may be anything.

// LoosePath is a path the part reads or writes that is only known at run time: the directory its known
// start names and the components after it, each known or a pattern (segs), and whether it is read or
// written. dir is "" when the path may be anything.
type LoosePath struct {
	Dir    string
	Segs   []LooseSeg
	Access Access
	Shown  string
}

// Access is what a part does with a path: reads it, or writes it (creates, changes or removes it).
type Access bool

// The two accesses.
const (
	Reading Access = false
	Writing Access = true
)

// LooseSeg is one component of a loose path after its known directory: known text, or text only known at
// run time between a known start and end.
type LooseSeg struct {
	Text, Pre, Suf string
	Dynamic        bool
}

// UnknownPart stands, in a word's template, for an expansion that is one safe file name component.
const UnknownPart = "\x00"

// LoosePath describes the path a word only known at run time names.
func (e *Exec) LoosePath(w Word, a Access) LoosePath {
	lp := LoosePath{Access: a, Shown: w.Raw}
	template, component := WordShape(w, e.S.Defined)
	if !component {
		return lp
	}
	prefix, _, _ := strings.Cut(template, UnknownPart)
	dir, rest := ".", template
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir, rest = prefix[:i+1], template[i+1:]
	}
	if h := e.S.Ctx.Home; h != "" && (dir == "~/" || strings.HasPrefix(dir, "~/")) {
		dir = h + dir[1:]
	} else if strings.HasPrefix(dir, "~") {
		return lp
	}
	path := e.S.Abs(dir, e.Scope())
	if !filepath.IsAbs(path) {
		return lp
	}
	lp.Dir = path
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			continue
		}
		pre, after, dynamic := strings.Cut(seg, UnknownPart)
		if !dynamic {
			lp.Segs = append(lp.Segs, LooseSeg{Text: seg})
			continue
		}
		if i := strings.LastIndex(after, UnknownPart); i >= 0 {
			after = after[i+len(UnknownPart):]
		}
		lp.Segs = append(lp.Segs, LooseSeg{Pre: pre, Suf: after, Dynamic: true})
	}
	return lp
}

// WordShape returns, for a word only known at run time, its template: the text bash surely gives it,
// with UnknownPart for each expansion; and whether every expansion in it is one file name component
// (componentSafe) with no `..` or wildcard after the first. A known word is its own template. defined
// are the functions the command defines, which may stand for a command a substitution runs.
func WordShape(w Word, defined map[string]bool) (string, bool) {
	if w.Static {
		return w.Value, false
	}
	if w.Syn == nil {
		return "", false
	}
	var b strings.Builder
	dynamic, safe := false, true
	text := func(v string) {
		if dynamic && strings.Contains(v, "..") {
			safe = false
		}
		b.WriteString(v)
	}
	var walk func(parts []syntax.WordPart, quoted bool)
	walk = func(parts []syntax.WordPart, quoted bool) {
		for _, part := range parts {
			switch p := part.(type) {
			case *syntax.Lit:
				if quoted {
					text(unescapeDouble(p.Value))
					continue
				}
				v, glob := unescapeUnquoted(p.Value)
				if glob || hasBraceExpansion(p.Value) {
					safe = false
				}
				text(v)
			case *syntax.SglQuoted:
				v := p.Value
				if p.Dollar {
					var ok bool
					if v, ok = decodeANSIC(v); !ok {
						safe = false
					}
				}
				text(v)
			case *syntax.DblQuoted:
				walk(p.Parts, true)
			default:
				dynamic = true
				safe = safe && componentSafe(part, defined)
				b.WriteString(UnknownPart)
			}
		}
	}
	walk(w.Syn.Parts, false)
	return b.String(), safe && dynamic
}

// digitParams are bash's variables that always hold a number.
var digitParams = map[string]bool{
	"$": true, "RANDOM": true, "SECONDS": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"?": true, "#": true, "LINENO": true, "EPOCHSECONDS": true, "SRANDOM": true,
}

// componentSafe reports whether an expansion always gives one file name component that is not `.` or
// `..`: a variable that holds a number, arithmetic, or the output of a command whose output has that
// shape (date with a numeric format, git rev-parse of a revision, id -u, nproc, uname -m).
func componentSafe(part syntax.WordPart, defined map[string]bool) bool {
	switch p := part.(type) {
	case *syntax.ParamExp:
		return p.Param != nil && digitParams[p.Param.Value] && !p.Excl && !p.Length && p.Index == nil &&
			p.Slice == nil && p.Repl == nil && p.Exp == nil && len(p.Modifiers) == 0 && p.NestedParam == nil
	case *syntax.ArithmExp:
		return true
	case *syntax.CmdSubst:
		return shapedOutput(p, defined)
	}
	return false
}

// shapedOutput reports whether a command substitution is one of the few commands whose output is one
// safe file name component.
func shapedOutput(cs *syntax.CmdSubst, defined map[string]bool) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	s := cs.Stmts[0]
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || len(s.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		w := ResolveWord(a, "", "")
		if !w.Static || w.Glob {
			return false
		}
		args[i] = w.Value
	}
	if defined[args[0]] {
		return false // a function of the command's may print anything
	}
	switch args[0] {
	case "date":
		format := false
		for _, a := range args[1:] {
			switch {
			case a == "-u" || a == "--utc" || a == "--universal":
			case strings.HasPrefix(a, "+") && !format:
				if !safeDateFormat(a[1:]) {
					return false
				}
				format = true
			case a == "-I" || a == "--iso-8601" || strings.HasPrefix(a, "-I") || strings.HasPrefix(a, "--iso-8601="):
				format = true
			default:
				return false
			}
		}
		return format
	case "nproc", "whoami":
		return len(args) == 1
	case "id":
		return len(args) == 2 && (args[1] == "-u" || args[1] == "-g" || args[1] == "-ru" || args[1] == "-rg")
	case "uname":
		return len(args) == 2 && (args[1] == "-m" || args[1] == "-s" || args[1] == "-r")
	case "git":
		// git rev-parse prints the object's id, or with --verify nothing; a name it cannot resolve
		// without --verify is printed as given, which must then be safe itself.
		if len(args) < 3 || args[1] != "rev-parse" {
			return false
		}
		revs := 0
		for _, a := range args[2:] {
			switch {
			case a == "--verify" || a == "-q" || a == "--quiet" || a == "--short" || strings.HasPrefix(a, "--short="):
			case strings.HasPrefix(a, "-"):
				return false
			default:
				revs++
				if strings.ContainsAny(a, "/ \t\n*?[") || a == "." || a == ".." {
					return false
				}
			}
		}
		return revs == 1
	}
	return false
}

// safeDateFormat reports whether a date format prints one safe file name component: numeric and
// zone conversions, and literal letters, digits and `_.,:+=@-`, with at least one number.
func safeDateFormat(f string) bool {
	number := false
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.,:+=@-", c) >= 0) {
				return false
			}
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-0^#", f[i]) >= 0 {
			i++
		}
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i >= len(f) {
			return false
		}
		switch conv := f[i]; {
		case conv == '%':
		case strings.IndexByte("YmdHMSsjyuwVUWGgNCIFTz", conv) >= 0:
			number = true
		case conv == 'p' || conv == 'Z':
		default:
			return false
		}
	}
	return number
}
