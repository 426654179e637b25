package permissions

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/printable"
	"mvdan.cc/sh/v3/syntax"
)

// MaxCommandLen is the longest command Classify reads. Longer ones are not read-only: nobody reviews a
// command that long by eye, and a cap keeps the cost of classifying bounded.
const MaxCommandLen = 16 << 10

// maxNesting bounds how deep `bash -c` bodies and here-documents fed to shells are parsed again.
const maxNesting = 8

// Classification is what Classify found in a command line.
type Classification struct {
	// ReadOnly is true when every part is read-only. A read-only command may still read secrets.
	ReadOnly bool
	// Secret is true when some part reads credentials or keys.
	Secret bool
	// Dangerous is true when some part is catastrophic.
	Dangerous bool
	// Parts are the simple commands found anywhere in the tree, in source order of discovery.
	Parts []shell.Part
	// Reason and Part name the first part that is not read-only (or, for a read-only command, the first
	// that reads a secret); both are empty for a plain read-only command.
	Reason string
	Part   string
}

var parserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}}

// posixParserPool parses bodies that /bin/sh runs: dash on Debian and Ubuntu, which has no $'...', no
// `&>`, no here-strings and no arrays.
var posixParserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangPOSIX), syntax.KeepComments(true))
}}

// Classify parses command as bash and decides, part by part, whether it only reads. It never runs
// anything and never writes; it may look at the file system to resolve symlinks and expand globs, as bash
// would right before running the command.
func Classify(command string, ctx shell.Context) Classification {
	if ctx.Memory == nil {
		ctx.Memory = shell.NewMemory()
	}
	c := &classifier{State: shell.State{Ctx: ctx, Defined: map[string]bool{}}, fds: map[string]bool{}}
	c.Judge = c
	sc := &shell.Scope{Cwd: ctx.Cwd}
	c.script(command, command, sc, 0, false)
	c.inputNames()
	c.asFunction()
	c.freshPaths()
	if c.catHeredoc && c.Defined["cat"] {
		c.fail(command, "the command defines a function `cat`, which may print something else than the here-document a word is made of")
	}
	if c.readIFS != "" && c.Defined["read"] {
		c.fail(c.readIFS, "`IFS=... read` may call a function named read, which splits words with that IFS")
	}
	c.arithVerdict()
	return c.result()
}

// classifier holds the state of one Classify call: what programs' judgements share (State) and what
// only the walker keeps.
type classifier struct {
	shell.State
	// arithRefs are the variables arithmetic reads (see shell/arith.go); State.Tainted says why some variable
	// may hold an array subscript.
	arithRefs []arithUse
	// fds are the descriptors `exec N>...` opened; execFDs is set while such a redirection is read.
	fds     map[string]bool
	execFDs bool
	// readIFS is the text of a `read` given its own IFS, which only the builtin may be given freely.
	readIFS string
	// loopRounds counts the loop bodies judged once per value (see maxLoopRounds).
	loopRounds int
	// untrusted is set while a body Warden reads only for deny and ask rules is classified: why its
	// parts are not read-only.
	untrusted string
	// catHeredoc is set once a word was taken to be the here-document cat prints (heredocCat).
	catHeredoc bool
	// funcBodies are the functions the command defines, the last definition of each; calling and
	// calls count the bodies judged again where they are called (functions.go).
	funcBodies map[string]shell.FuncDef
	calling    map[string]bool
	calls      int
}

// mayRun runs f on sc for code that may not run: sc's directory and variables follow it, but functions it
// defines are not certain to exist afterwards, while one it may have removed is gone.
func (c *classifier) mayRun(sc *shell.Scope, f func()) {
	before := sc.Funcs
	sc.Funcs = maps.Clone(before)
	f()
	after := sc.Funcs
	sc.Funcs = before
	for name, dir := range before {
		if after[name] != dir {
			delete(sc.Funcs, name)
		}
	}
}

// andList judges `A && B && C`. Each command runs only if those before it succeeded, so within the list a
// cd is followed; but any of them may fail, so after the list the directory is known only if no command
// but the first changed it (a cd into a directory that exists does not fail: see exec.cd). Functions
// defined after the first command are not certain to exist afterwards.
func (c *classifier) andList(lv *shell.Level, n *syntax.BinaryCmd, sc *shell.Scope) {
	var list []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt && !s.Negated && !s.Background &&
			len(s.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		list = append(list, s)
	}
	flatten(n.X)
	flatten(n.Y)
	c.stmt(lv, list[0], sc)
	certain := sc.Cwd
	c.mayRun(sc, func() {
		for _, s := range list[1:] {
			c.stmt(lv, s, sc)
		}
	})
	if sc.Cwd != certain {
		sc.Cwd = "" // the later cd may not have run
	}
}

func (c *classifier) result() Classification {
	out := Classification{ReadOnly: true, Parts: c.Parts}
	for _, p := range c.Parts {
		if p.Dangerous {
			out.Dangerous = true
		}
		if p.Secret {
			out.Secret = true
		}
		if !p.ReadOnly && out.ReadOnly {
			out.ReadOnly = false
			out.Reason, out.Part = p.Reason, p.Text
		}
	}
	if out.ReadOnly {
		for _, p := range c.Parts {
			if p.Secret {
				out.Reason, out.Part = p.Reason, p.Text
				break
			}
		}
	}
	return out
}

// fail records a part that is not read-only without looking further: what it does is unseen.
func (c *classifier) fail(text, reason string) {
	p := shell.Part{Text: text}
	p.Unsee(shell.UnseenUnread, reason)
	c.Parts = append(c.Parts, p)
}

// script parses src and classifies every statement in it. anchor is the text parts report. posix is set
// for a body a POSIX shell (sh, dash, ash) runs: it is classified only if a POSIX shell reads it exactly
// as bash does, since Warden judges the bash reading.
func (c *classifier) script(src, anchor string, sc *shell.Scope, depth int, posix bool) {
	if depth > maxNesting {
		c.fail(anchor, "commands nested too deeply to check")
		return
	}
	if len(src) > MaxCommandLen {
		c.fail(anchor, fmt.Sprintf("the command is longer than %d bytes", MaxCommandLen))
		return
	}
	if cc := controlIn(src); cc != "" {
		c.fail(anchor, fmt.Sprintf("the command contains the control character %s", cc))
		return
	}
	p := parserPool.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	parserPool.Put(p)
	if err != nil {
		c.fail(anchor, "the command does not parse as bash: "+err.Error())
		return
	}
	if posix {
		if reason := samePOSIX(src, f); reason != "" {
			c.fail(anchor, reason)
			return
		}
	}
	// A comment ends at the newline for bash even after a backslash, but the parser continues it onto the
	// next line and drops that line: `ls # \` then `rm x` would hide rm.
	hidden, early := false, false
	var substs [][2]uint
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Comment:
			hidden = hidden || strings.Contains(n.Text, "\n") || strings.HasSuffix(n.Text, `\`)
		case *syntax.CmdSubst, *syntax.ProcSubst:
			substs = append(substs, [2]uint{n.Pos().Offset(), n.End().Offset()})
		case *syntax.Redirect:
			early = early || shell.HdocEndsEarly(n, src, shell.InRanges(substs, n.Pos().Offset()))
		}
		return !hidden && !early
	})
	if hidden {
		c.fail(anchor, "a comment ends in a backslash, which bash and Warden read differently")
		return
	}
	if early {
		c.fail(anchor, "a here-document has a line bash may take as its end, where Warden reads on")
		return
	}
	lv := &shell.Level{Src: src, Depth: depth}
	if depth > 0 {
		lv.Anchor = anchor
	}
	c.stmts(lv, f.Stmts, sc)
	if len(f.Stmts) == 0 && depth == 0 && strings.TrimSpace(src) == "" {
		c.fail(anchor, "the command is empty")
	}
}

// samePOSIX reports why a POSIX shell may read src differently from the bash tree f, or "". The two trees
// are compared node by node, with the type and every field of each: `echo $'\\' ; touch x ; echo ' #'`
// is one echo for bash and three commands for dash.
func samePOSIX(src string, f *syntax.File) string {
	p := posixParserPool.Get().(*syntax.Parser)
	pf, err := p.Parse(strings.NewReader(src), "")
	posixParserPool.Put(p)
	if err != nil {
		return "`sh` runs the command as a POSIX shell, which does not read it: " + err.Error()
	}
	var a, b strings.Builder
	if syntax.DebugPrint(&a, f) != nil || syntax.DebugPrint(&b, pf) != nil || a.String() != b.String() {
		return "`sh` runs the command as a POSIX shell, which reads it differently from bash"
	}
	return ""
}

// controlIn names the first hidden character of s (printable.Hidden: a control character other than tab
// and newline, a bidi override, a zero-width or other format character) by its code point ("U+202E"), or
// returns "": such a character makes a command look different on screen from what bash runs.
func controlIn(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r != '\t' && r != '\n' && printable.Hidden(r) })
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return printable.CodePoint(r)
}

func (c *classifier) stmts(lv *shell.Level, list []*syntax.Stmt, sc *shell.Scope) {
	for _, s := range list {
		c.stmt(lv, s, sc)
	}
}

// sub classifies statements that bash runs in a subshell: changes of directory and functions defined
// do not leak out.
func (c *classifier) sub(lv *shell.Level, list []*syntax.Stmt, sc *shell.Scope) {
	c.stmts(lv, list, sc.Fork())
}

// branch runs f on a copy of the scope; if the branch may change directory, what follows runs in an
// unknown directory, because Warden cannot tell whether the branch ran. Functions the branch defines are
// not certain to exist afterwards.
func (c *classifier) branch(sc *shell.Scope, f func(*shell.Scope)) {
	c.mayRun(sc, func() {
		inner := sc.Fork()
		f(inner)
		if inner.Cwd != sc.Cwd {
			sc.Cwd = ""
		}
		// A function the branch removed or redefined may be gone.
		for name, dir := range sc.Funcs {
			if inner.Funcs[name] != dir {
				delete(sc.Funcs, name)
			}
		}
	})
}

func (c *classifier) stmt(lv *shell.Level, s *syntax.Stmt, sc *shell.Scope) {
	if s.Coprocess || s.Disown {
		c.fail(lv.Text(s), "coprocesses are not checked")
		return
	}
	if s.Background {
		// `cmd &` runs in a subshell: its cd and its functions stay there.
		sc = sc.Fork()
	}
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		c.call(lv, s, call, sc)
		return
	}
	if s.Cmd != nil {
		c.command(lv, s.Cmd, sc)
	}
	if len(s.Redirs) > 0 {
		p := shell.Part{Text: lv.Text(s), ReadOnly: true, Static: true}
		c.redirects(lv, s.Redirs, sc, &p)
		if !p.ReadOnly || p.Secret || len(p.Reads) > 0 {
			c.Parts = append(c.Parts, p)
		}
	}
}

// command dispatches on every compound command type the parser knows. A type it does not know is not
// read-only, so that a parser upgrade can only make Warden ask more.
func (c *classifier) command(lv *shell.Level, cmd syntax.Command, sc *shell.Scope) {
	switch n := cmd.(type) {
	case *syntax.CallExpr:
		c.call(lv, &syntax.Stmt{Cmd: n, Position: n.Pos()}, n, sc)
	case *syntax.BinaryCmd:
		if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
			c.pipeline(lv, n, sc)
			return
		}
		if n.Op == syntax.OrStmt {
			c.stmt(lv, n.X, sc)
			c.branch(sc, func(inner *shell.Scope) { c.stmt(lv, n.Y, inner) })
			return
		}
		c.andList(lv, n, sc)
	case *syntax.Block:
		c.stmts(lv, n.Stmts, sc)
	case *syntax.Subshell:
		c.sub(lv, n.Stmts, sc)
	case *syntax.IfClause:
		for cl := n; cl != nil; cl = cl.Else {
			c.branch(sc, func(inner *shell.Scope) {
				c.stmts(lv, cl.Cond, inner)
				c.stmts(lv, cl.Then, inner)
			})
		}
	case *syntax.WhileClause:
		c.branch(sc, func(inner *shell.Scope) {
			c.stmts(lv, n.Cond, inner)
			c.stmts(lv, n.Do, inner)
		})
	case *syntax.ForClause:
		if l, ok := n.Loop.(*syntax.WordIter); ok && !n.Select && l.InPos.IsValid() {
			if values, ok := c.loopValues(l, n.Do, sc); ok && c.loopRounds+len(values) <= maxLoopRounds {
				c.loopRounds += len(values)
				// Every value the variable takes is known: the body is judged once for each, in order, as
				// it runs, so that a `cd` in one round moves the next.
				c.assignName(lv, n, l.Name.Value)
				c.branch(sc, func(inner *shell.Scope) {
					if inner.Vars == nil {
						inner.Vars = map[string]string{}
					}
					for _, v := range values {
						inner.Vars[l.Name.Value] = v
						c.stmts(lv, n.Do, inner)
					}
				})
				break
			}
		}
		c.branch(sc, func(inner *shell.Scope) {
			switch l := n.Loop.(type) {
			case *syntax.WordIter:
				c.assignName(lv, n, l.Name.Value)
				// Judged once, the variable is unknown here, whatever an outer loop set it to.
				delete(inner.Vars, l.Name.Value)
				if n.Select || !l.InPos.IsValid() {
					c.Taint(fmt.Sprintf("`%s` takes values only known at run time", l.Name.Value))
				}
				for _, w := range l.Items {
					c.wordSubs(lv, w, inner)
					if v := shell.ResolveWord(w, "", ""); !shell.SafeValue(w) || v.Glob {
						c.Taint(fmt.Sprintf("`%s` takes values only known at run time", l.Name.Value))
					}
				}
			case *syntax.CStyleLoop:
				c.arithm(lv, n, l.Init, inner)
				c.arithm(lv, n, l.Cond, inner)
				c.arithm(lv, n, l.Post, inner)
			default:
				c.fail(lv.Text(n), fmt.Sprintf("unknown loop %T", l))
			}
			c.stmts(lv, n.Do, inner)
		})
	case *syntax.CaseClause:
		c.wordSubs(lv, n.Word, sc)
		for _, item := range n.Items {
			c.branch(sc, func(inner *shell.Scope) {
				for _, w := range item.Patterns {
					c.wordSubs(lv, w, inner)
				}
				c.stmts(lv, item.Stmts, inner)
			})
		}
	case *syntax.FuncDecl:
		if n.Name == nil {
			c.fail(lv.Text(n), "anonymous functions are not checked")
			return
		}
		c.funcDecl(lv, n, sc)
	case *syntax.ArithmCmd:
		c.arithm(lv, n, n.X, sc)
	case *syntax.TestClause:
		c.test(lv, n.X, sc)
	case *syntax.DeclClause:
		c.decl(lv, n, sc)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			c.arithm(lv, n, x, sc)
		}
	case *syntax.TimeClause:
		if n.Stmt != nil {
			c.stmt(lv, n.Stmt, sc)
		}
	case *syntax.CoprocClause:
		c.fail(lv.Text(n), "coprocesses are not checked")
	default:
		c.fail(lv.Text(cmd), fmt.Sprintf("`%T` is a construct Warden does not check", cmd))
	}
}

// wordSubs classifies the commands hidden inside a word: command and process substitutions, and the
// words and arithmetic inside parameter expansions.
func (c *classifier) wordSubs(lv *shell.Level, w *syntax.Word, sc *shell.Scope) {
	if w == nil {
		return
	}
	for _, part := range w.Parts {
		c.wordPart(lv, part, sc)
	}
}

func (c *classifier) wordPart(lv *shell.Level, part syntax.WordPart, sc *shell.Scope) {
	switch p := part.(type) {
	case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			c.wordPart(lv, q, sc)
		}
	case *syntax.CmdSubst:
		if p.TempFile || p.ReplyVar {
			c.fail(lv.Text(p), "mksh substitutions are not checked")
			return
		}
		before := len(c.Parts)
		c.sub(lv, p.Stmts, sc)
		if c.SubstParts == nil {
			c.SubstParts = map[*syntax.CmdSubst][2]int{}
		}
		c.SubstParts[p] = [2]int{before, len(c.Parts)}
	case *syntax.ProcSubst:
		c.sub(lv, p.Stmts, sc)
	case *syntax.ArithmExp:
		c.arithm(lv, p, p.X, sc)
	case *syntax.ParamExp:
		if p.NestedParam != nil {
			c.wordPart(lv, p.NestedParam, sc)
		}
		if p.Index != nil {
			c.arithm(lv, p, p.Index, sc)
		}
		if p.Slice != nil {
			c.arithm(lv, p, p.Slice.Offset, sc)
			c.arithm(lv, p, p.Slice.Length, sc)
		}
		if p.Repl != nil {
			c.wordSubs(lv, p.Repl.Orig, sc)
			c.wordSubs(lv, p.Repl.With, sc)
		}
		if p.Exp != nil {
			// ${x=value} and ${x:=value} assign.
			if p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull {
				if p.Param != nil {
					c.assignName(lv, p, p.Param.Value)
				}
				if !shell.SafeValue(p.Exp.Word) {
					c.Taint("a variable is assigned a value only known at run time")
				}
			}
			if p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P") {
				c.fail(lv.Text(p), "`${...@P}` expands the value like a prompt, which runs the commands in it")
			}
			c.wordSubs(lv, p.Exp.Word, sc)
		}
		if p.Excl && p.Param != nil && p.Names == 0 && !shell.IsAllIndex(p.Index) {
			// ${!name} reads the variable named by name's value; a subscript in it is evaluated.
			c.arithRef(lv, p, p.Param.Value)
		}
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			c.wordSubs(lv, e, sc)
		}
	default:
		c.fail(lv.Text(part), fmt.Sprintf("`%T` is a construct Warden does not check", part))
	}
}

// resolve resolves a word in the current scope.
func (c *classifier) resolve(lv *shell.Level, w *syntax.Word, sc *shell.Scope) shell.Word {
	v := shell.ResolveWordVars(w, c.Ctx.Home, sc.Cwd, sc.Vars)
	v.Syn = w
	if start, end := w.Pos().Offset(), w.End().Offset(); start <= end && int(end) <= len(lv.Src) {
		v.Raw = lv.Src[start:end]
	}
	if !v.Static {
		if text, ok := c.heredocCat(w); ok {
			v.Value, v.Static, v.Subst = text, true, nil
		}
	}
	if !v.Static {
		v.Value = v.Raw
	}
	return v
}

// specialBuiltins are found before functions in POSIX mode (sh, bash --posix), so a function of that name
// does not replace them there.
var specialBuiltins = map[string]bool{
	"break": true, ":": true, ".": true, "source": true, "continue": true, "eval": true, "exec": true,
	"exit": true, "export": true, "readonly": true, "return": true, "set": true, "shift": true, "times": true,
	"trap": true, "unset": true,
}

// funcDecl judges a function's body where it is defined. A body that is not read-only makes the command
// not read-only whether or not the function is called; a read-only one makes later calls in the same
// scope and directory read-only, since bash runs the function instead of the program of that name.
func (c *classifier) funcDecl(lv *shell.Level, n *syntax.FuncDecl, sc *shell.Scope) {
	name := n.Name.Value
	c.Defined[name] = true
	delete(sc.Funcs, name)
	if !compoundBody(n.Body) {
		// `f() { :; } | true` defines f in a subshell for bash, but the parser reads the pipeline as
		// f's body.
		c.fail(lv.Text(n), fmt.Sprintf("the definition of `%s` is read differently by bash", name))
		return
	}
	before := len(c.Parts)
	inner := sc.Fork()
	c.stmts(lv, []*syntax.Stmt{n.Body}, inner)
	if c.funcBodies == nil {
		c.funcBodies = map[string]shell.FuncDef{}
	}
	c.funcBodies[name] = shell.FuncDef{Dir: sc.Cwd, After: inner.Cwd, Body: n.Body, Level: lv}
	ok := true
	for _, p := range c.Parts[before:] {
		// Only the shell calls functions: `command f`, wrappers, xargs and find -exec run the program.
		first := p.Args
		if len(p.Layers) > 0 {
			first = p.Layers[0]
		}
		if len(first) > 0 && first[0] == name {
			c.Parts = append(c.Parts, shell.Part{Text: lv.Text(n), Dangerous: true,
				Reason: fmt.Sprintf("function `%s` calls itself (a fork bomb?)", name)})
			ok = false
			break
		}
		ok = ok && p.ReadOnly
	}
	if ok && name != "" && !specialBuiltins[name] && sc.Cwd != "" {
		if sc.Funcs == nil {
			sc.Funcs = map[string]shell.FuncDef{}
		}
		sc.Funcs[name] = shell.FuncDef{Dir: sc.Cwd, After: inner.Cwd, Body: n.Body, Level: lv}
	}
}

// compoundBody reports whether a function body is a single compound command, the only body bash accepts.
func compoundBody(s *syntax.Stmt) bool {
	if s == nil || s.Negated || s.Background || s.Coprocess || s.Disown {
		return false
	}
	switch s.Cmd.(type) {
	case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.TestClause, *syntax.ArithmCmd:
		return true
	}
	return false
}

// asFunction makes ask every part judged as a program whose name the command also defines as a function:
// bash runs the function wherever it was defined before the call, which Warden only follows where it is
// certain (same level, same directory); in a loop's next round, after a cd, or after a subshell it is not.
func (c *classifier) asFunction() {
	for i := range c.Parts {
		if p := &c.Parts[i]; p.Called != "" && c.Defined[p.Called] {
			p.NotRO(fmt.Sprintf("the command defines a function `%s`, which bash may run instead of the program", p.Called))
		}
	}
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
	if r.Op != syntax.Hdoc || r.N != nil || !shell.HdocQuoted(r) || r.Hdoc == nil {
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
	bounds, ok := c.SubstParts[cs]
	if !ok || bounds[1]-bounds[0] != 1 {
		return "", false
	}
	if p := c.Parts[bounds[0]]; !p.ReadOnly || len(p.Layers) != 1 || len(p.Args) != 1 || p.Args[0] != "cat" || p.Called != "cat" {
		return "", false
	}
	c.catHeredoc = true
	return strings.TrimRight(b.String(), "\n"), true
}
