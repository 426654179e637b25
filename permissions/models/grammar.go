package models

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The promise's model of a command line (the engine's promise.go). While deny or ask rules are in force, the
// engine allows a part that does more than read (by yolo, an allow rule, accept-edits or the sandbox) only
// when Warden models it word by word: the program is one it knows, with every option it accepts in every
// spelling, each option's value and each operand given a role (data, a path read or written, code...), and
// every path resolved and checked against the path rules. The walker marks a part unmodelled wherever its
// model ends (Part.notRO does so by default); a program's model below accounts for every word of the program
// or says why it cannot, and only then is the program's own "not read-only" taken as modelled.

// role says what a word given to a program is to it.
type role uint8

const (
	// rNone: the option takes no value.
	rNone role = iota
	// rData: a value or operand that is data (a message, a number, a name, a pattern).
	rData
	// rRead: a path the program reads.
	rRead
	// rWrite: a path the program writes, creates or removes.
	rWrite
	// rEdit: a path the program reads and rewrites.
	rEdit
	// rInto: a directory below which the program writes (cp -t, go test -outputdir).
	rInto
	// rHanded: a path below which the program may read or write anything (a project's own tools).
	rHanded
	// rDir: the directory the program works in (make -C, go -C): later paths resolve there.
	rDir
	// rScript: a file the program runs as code, the project's own if it is on disk before the command.
	rScript
	// rCode: code in a language Warden does not read (python -c, make --eval).
	rCode
	// rCommand: a shell command the program runs (go -toolexec): read as bash for deny and ask rules.
	rCommand
	// rUnseen: something the program does that Warden does not follow.
	rUnseen
)

// opt is one option of a grammar: the role of its value (rNone for a flag) and whether the value is only
// ever attached to it (`--opt=value`, `-oVALUE`).
type opt struct {
	role     role
	optional bool
}

// grammar is what Warden knows of a program's command line.
type grammar struct {
	// short are the one-letter options, which cluster (`-abc`); long the long ones, by name without
	// dashes.
	short map[byte]opt
	long  map[string]opt
	// abbrev says the program takes any unambiguous prefix of a long option (GNU getopt_long, git's
	// parse-options): a prefix is resolved against long, and one that is ambiguous or unknown is unseen.
	abbrev bool
	// goFlags says options are Go's flag package's: `-name` or `--name`, no clusters, no abbreviations,
	// a boolean taking `=true`.
	goFlags bool
	// permute says options may follow operands (GNU); otherwise the first operand ends them.
	permute bool
	// operand is the role of every operand, unless judge says otherwise.
	operand role
	// judge, when set, judges the parsed command (its operands, what the options mean together, the
	// inputs the program reads by itself) and returns why it cannot, or "".
	judge func(e *shell.Exec, a *modelArgs) string
	// subs are the subcommands, picked by the first operand; sub is judged with the words after it.
	subs map[string]*grammar
	// needsSub says a command without a known subcommand is unseen.
	needsSub bool
	// custom, when set, judges the words itself (the program first), for command lines no option table
	// describes (python's -c and -m end its options; git's global options are not parse-options').
	custom func(e *shell.Exec, words []shell.Word) string
}

// modelArgs is a command line parsed by a grammar.
type modelArgs struct {
	// words is the command, the program (or subcommand) first.
	words []shell.Word
	opts  []modelOpt
	// operands are the words that are not options, at their indexes in words; dashdash is the number of
	// them before `--`, or -1.
	operands []shell.Word
	at       []int
	dashdash int
}

// modelOpt is one option given: its name as the grammar knows it ("-x", "--long") and its value.
type modelOpt struct {
	name  string
	value shell.Word
	has   bool
}

// has reports whether one of the options names was given.
func (a *modelArgs) has(names ...string) bool {
	for _, o := range a.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// value returns the value of the last of the options names given.
func (a *modelArgs) value(names ...string) (shell.Word, bool) {
	var v shell.Word
	found := false
	for _, o := range a.opts {
		for _, n := range names {
			if o.name == n && o.has {
				v, found = o.value, true
			}
		}
	}
	return v, found
}

// gram builds a grammar from a compact option spec: `-x` is a flag, `-x=` takes a value, `-x?` an
// optional attached value; `--name`, `--name=` and `--name?` the same for long options. Values are data
// unless roles gives the option (by any of its names) another role.
func gram(spec string, roles map[string]role) *grammar {
	g := &grammar{short: map[byte]opt{}, long: map[string]opt{}, permute: true, abbrev: true, operand: rData}
	for _, tok := range strings.Fields(spec) {
		o := opt{}
		name := tok
		switch {
		case strings.HasSuffix(tok, "="):
			name, o.role = strings.TrimSuffix(tok, "="), rData
		case strings.HasSuffix(tok, "?"):
			name, o.role, o.optional = strings.TrimSuffix(tok, "?"), rData, true
		}
		if r, ok := roles[name]; ok {
			o.role = r
		}
		if long, ok := strings.CutPrefix(name, "--"); ok {
			g.long[long] = o
		} else if len(name) == 2 && name[0] == '-' {
			g.short[name[1]] = o
		} else {
			panic("gram: bad option " + tok)
		}
	}
	return g
}

// with returns a copy of g with its fields changed by f, for grammars that share options.
func (g *grammar) with(f func(*grammar)) *grammar {
	c := *g
	f(&c)
	return &c
}

// longOpt resolves a long option as typed (without dashes) to the one it stands for.
func (g *grammar) longOpt(typed string) (string, opt, string) {
	if o, ok := g.long[typed]; ok {
		return typed, o, ""
	}
	if !g.abbrev || typed == "" {
		return "", opt{}, fmt.Sprintf("`--%s` is an option Warden does not know", typed)
	}
	var found []string
	for n := range g.long {
		if strings.HasPrefix(n, typed) {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return "", opt{}, fmt.Sprintf("`--%s` is an option Warden does not know", typed)
	case 1:
		return found[0], g.long[found[0]], ""
	}
	sort.Strings(found)
	return "", opt{}, fmt.Sprintf("`--%s` may stand for `--%s` or `--%s`", typed, found[0], found[1])
}

// mayBeOption reports whether a word may be taken as an option: known, it starts with a dash; only known
// at run time, nothing before its first expansion rules that out.
func mayBeOption(w shell.Word) bool {
	if w.Static {
		return len(w.Value) > 1 && w.Value[0] == '-'
	}
	template, _ := shell.WordShape(w, nil)
	return template == "" || template[0] == '-' || strings.HasPrefix(template, shell.UnknownPart)
}

// parse splits words (the program first) by the grammar, applying each option's role as it goes, so
// that a directory an option names applies to the paths after it. It returns why the words are not all
// understood, or "".
func parseModel(e *shell.Exec, g *grammar, words []shell.Word) (*modelArgs, string) {
	a := &modelArgs{words: words, dashdash: -1}
	name := filepath.Base(words[0].Value)
	rest := words[1:]
	take := func(o opt, typed string, value shell.Word) string {
		a.opts = append(a.opts, modelOpt{name: typed, value: value, has: true})
		return takes(e, o.role, value, fmt.Sprintf("`%s %s`", name, typed))
	}
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		optsDone := a.dashdash >= 0 || !g.permute && len(a.operands) > 0
		operand := func() {
			a.operands = append(a.operands, w)
			a.at = append(a.at, i+1)
		}
		if optsDone {
			operand()
			continue
		}
		if !w.Static {
			if mayBeOption(w) {
				return a, fmt.Sprintf("`%s` is given `%s`, only known at run time, which may be an option", name, w.Raw)
			}
			operand()
			continue
		}
		v := w.Value
		switch {
		case v == "--":
			a.dashdash = len(a.operands)
		case v == "-" || !strings.HasPrefix(v, "-"):
			operand()
		case g.goFlags || strings.HasPrefix(v, "--"):
			typed, val, hasVal := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
			long, o, why := g.longOpt(typed)
			if why != "" {
				return a, fmt.Sprintf("`%s`: %s", name, why)
			}
			shown := "--" + long
			if g.goFlags {
				shown = "-" + long
			}
			switch {
			case o.role == rNone && hasVal:
				if !g.goFlags || (val != "true" && val != "false") {
					return a, fmt.Sprintf("`%s %s` is given a value Warden does not follow", name, v)
				}
				a.opts = append(a.opts, modelOpt{name: shown, value: shell.Word{Value: val, Static: true}, has: true})
			case o.role == rNone:
				a.opts = append(a.opts, modelOpt{name: shown})
			case hasVal:
				if why := take(o, shown, shell.Word{Value: val, Raw: val, Static: true}); why != "" {
					return a, why
				}
			case o.optional:
				a.opts = append(a.opts, modelOpt{name: shown})
			case i+1 < len(rest):
				i++
				if why := take(o, shown, rest[i]); why != "" {
					return a, why
				}
			}
		default:
			for j := 1; j < len(v); j++ {
				o, ok := g.short[v[j]]
				if !ok {
					return a, fmt.Sprintf("`%s -%c` is an option Warden does not know", name, v[j])
				}
				shown := "-" + string(v[j])
				if o.role == rNone {
					a.opts = append(a.opts, modelOpt{name: shown})
					continue
				}
				switch attached := v[j+1:]; {
				case attached != "":
					if why := take(o, shown, shell.Word{Value: attached, Raw: attached, Static: true}); why != "" {
						return a, why
					}
				case o.optional:
					a.opts = append(a.opts, modelOpt{name: shown})
				case i+1 < len(rest):
					i++
					if why := take(o, shown, rest[i]); why != "" {
						return a, why
					}
				}
				break
			}
		}
	}
	return a, ""
}

// model judges words (the program first) by the grammar g and returns why they are not all understood,
// or "". A subcommand is judged by its own grammar, with the words after it.
func model(e *shell.Exec, g *grammar, words []shell.Word) string {
	if g.custom != nil {
		return g.custom(e, words)
	}
	if g.subs != nil {
		g = g.with(func(g *grammar) { g.permute = false })
	}
	a, why := parseModel(e, g, words)
	if why != "" {
		return why
	}
	name := filepath.Base(words[0].Value)
	if g.subs != nil && len(a.operands) > 0 && a.dashdash != 0 {
		first := a.operands[0]
		if !first.Static {
			return fmt.Sprintf("`%s` runs a subcommand only known at run time", name)
		}
		if sub, ok := g.subs[first.Value]; ok {
			named := shell.Word{Value: name + " " + first.Value, Raw: name + " " + first.Value, Static: true}
			return model(e, sub, append([]shell.Word{named}, words[a.at[0]+1:]...))
		}
		if g.needsSub {
			return fmt.Sprintf("`%s %s` is a subcommand Warden does not model", name, first.Value)
		}
	} else if g.needsSub && g.judge == nil {
		return fmt.Sprintf("`%s` without a subcommand Warden models", name)
	}
	if g.judge != nil {
		return g.judge(e, a)
	}
	return each(e, g.operand, a.operands, "`"+name+"`")
}

// ModelOf judges words (the program first) by the model of the program name, when Warden has one: it
// returns why they are not all understood, or "".
func ModelOf(e *shell.Exec, name string, words []shell.Word) (string, bool) {
	g, ok := models[name]
	if !ok {
		return "", false
	}
	return model(e, g, words), true
}

// takes applies what role says a word is to the part, and returns why Warden cannot follow it, or "".
// what names the word's place for reasons (`make -f`).
func takes(e *shell.Exec, r role, w shell.Word, what string) string {
	switch r {
	case rNone, rData:
		return ""
	case rRead:
		return pathTaken(e, w, shell.Reading, what)
	case rWrite:
		return pathTaken(e, w, shell.Writing, what)
	case rEdit:
		if why := pathTaken(e, w, shell.Reading, what); why != "" {
			return why
		}
		return pathTaken(e, w, shell.Writing, what)
	case rInto:
		e.P.Effect(fmt.Sprintf("%s writes into `%s`", what, w.Raw))
		if !w.Static {
			e.P.Loose = append(e.P.Loose, e.LoosePath(w, shell.Writing))
			e.P.Writes = append(e.P.Writes, w.Raw) // somewhere only known at run time
			return ""
		}
		paths, why := expanded(e, w, what)
		e.P.HandedWrites = append(e.P.HandedWrites, paths...)
		e.P.WritesInto = append(e.P.WritesInto, paths...)
		return why
	case rHanded:
		e.P.Effect(fmt.Sprintf("%s may write below `%s`", what, w.Raw))
		if !w.Static {
			e.P.Loose = append(e.P.Loose, e.LoosePath(w, shell.Reading), e.LoosePath(w, shell.Writing))
			return ""
		}
		if name, value, ok := strings.Cut(w.Value, "="); ok && !strings.Contains(name, "/") {
			w = shell.Word{Value: value, Raw: value, Static: true, Glob: w.Glob}
		}
		paths, why := expanded(e, w, what)
		for _, path := range paths {
			e.P.HandedReads = append(e.P.HandedReads, path)
			e.P.HandedWrites = append(e.P.HandedWrites, path)
		}
		return why
	case rDir:
		if !w.Static || w.Glob {
			return fmt.Sprintf("%s is given `%s`, a directory only known at run time", what, w.Raw)
		}
		e.Chdir(w.Value)
		if e.Scope().Cwd == "" {
			return fmt.Sprintf("%s is given `%s` in a directory Warden lost track of", what, w.Value)
		}
		return ""
	case rScript:
		RunsFile(e, w)
		return ""
	case rCode:
		e.P.Unsee(shell.UnseenInlineCode, fmt.Sprintf("%s runs code Warden does not read", what))
		return ""
	case rCommand:
		why := fmt.Sprintf("%s runs a command", what)
		e.P.Unsee(shell.UnseenGivenCommand, why)
		if w.Static {
			e.Untrusted(w.Value, why)
		}
		return ""
	}
	return fmt.Sprintf("%s is given `%s`, which Warden does not follow", what, w.Raw)
}

// pathTaken records a path the program reads or writes: a glob is expanded as bash will, a word only
// known at run time is a loose path (the engine's promise.go decides whether a rule could match it).
func pathTaken(e *shell.Exec, w shell.Word, a shell.Access, what string) string {
	switch {
	case w.ProcIn:
		return ""
	case w.Found:
		return fmt.Sprintf("%s is given `{}`, every file find finds", what)
	case !w.Static:
		if a != shell.Reading {
			e.P.Effect(fmt.Sprintf("%s writes `%s`, only known at run time", what, w.Raw))
			e.P.Writes = append(e.P.Writes, w.Raw) // somewhere only known at run time
		}
		e.P.Loose = append(e.P.Loose, e.LoosePath(w, a))
		return ""
	case w.Value == "-" || w.Value == "":
		return ""
	}
	paths, why := expanded(e, w, what)
	for _, path := range paths {
		if a == shell.Reading {
			e.S.ReadOne(e.P, w.Value, path, e.Scope(), true)
			continue
		}
		e.P.WriteFile(w.Value, path)
	}
	return why
}

// expanded returns the absolute paths a word names: a glob expanded against the file system as bash
// will, with the pattern itself when nothing matches. A relative path in a directory Warden lost track
// of stays relative, which the engine's promise.go treats as unseen.
func expanded(e *shell.Exec, w shell.Word, what string) ([]string, string) {
	sc := e.Scope()
	names := []string{w.Value}
	if w.Glob {
		var ok bool
		if names, ok = e.S.ExpandGlob(w.Value, sc); !ok {
			return nil, fmt.Sprintf("%s is given `%s`, a pattern Warden could not expand", what, w.Value)
		}
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, e.S.Abs(n, sc))
	}
	return out, ""
}
