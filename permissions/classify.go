package permissions

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/warden-cli/warden/gitrepo"
	"mvdan.cc/sh/v3/syntax"
)

// MaxCommandLen is the longest command Classify reads. Longer ones are not read-only: nobody reviews a
// command that long by eye, and a cap keeps the cost of classifying bounded.
const MaxCommandLen = 16 << 10

// maxNesting bounds how deep `bash -c` bodies and here-documents fed to shells are parsed again.
const maxNesting = 8

// Context is where a command runs: the directories it resolves relative paths against and the
// boundaries of the workspace. Empty fields mean "unknown", which only ever makes answers stricter.
type Context struct {
	// Cwd is the directory the command starts in; relative paths resolve against it.
	Cwd string
	// Workspace is the project root that `cd` may move within.
	Workspace string
	// AdditionalDirectories are further roots the person allowed, treated like the workspace.
	AdditionalDirectories []string
	// Home is the person's home directory, for `~` and `$HOME`.
	Home string
	// Env looks a variable up in the environment commands inherit; nil means Warden's own. Programs
	// read some of their configuration from it (GIT_CONFIG_GLOBAL, RIPGREP_CONFIG_PATH, GOFLAGS...).
	Env func(name string) (string, bool)
	// ReadOnlyJail is set when commands judged read-only run inside the read-only jail (no writes
	// outside a private directory, no network, no secrets): a program whose only risk is running
	// project code (eslint's configuration, pytest's conftest.py) is then read-only too.
	ReadOnlyJail bool
	// rootsResolved says that Workspace and AdditionalDirectories are already resolved (ResolvePath),
	// as an Engine's are.
	rootsResolved bool
}

// Part is one simple command of a classified command line (or a redirection of a compound command),
// with what it was found to do.
type Part struct {
	// Text is the exact substring of the classified command this part comes from, for highlighting.
	// A part found inside a `bash -c` body or a here-document carries the text of the outer command.
	Text string
	// Args is the argument vector after wrappers are peeled and quotes removed. Words only known at run
	// time appear as their source text. It is empty for a redirection of a compound command.
	Args []string
	// Layers lists the argument vector at each wrapper level, outermost first; the last one is Args.
	Layers [][]string
	// Static is true when every word of the part was resolved without running anything.
	Static bool
	// ReadOnly is true when the part changes nothing: no writes, no programs Warden cannot see through.
	ReadOnly bool
	// Reason says, for a part that is not read-only or that reads a secret, why.
	Reason string
	// Reads and Writes are the absolute paths the part is known to read or write. A relative path whose
	// directory is unknown (after `cd -`, say) is kept relative.
	Reads, Writes []string
	// Secret is true when the part reads credentials or keys.
	Secret bool
	// Dangerous is true for catastrophic commands: wiping / or home, mkfs, writing block devices, fork bombs.
	Dangerous bool
	// Privileged is true when the part runs through sudo or doas; rules for the inner command never allow it.
	Privileged bool
	// EditOnly is true when the part's only effect is writing the files in Writes, all of them known.
	EditOnly bool

	// supplied is why the program would run what the working tree supplies (a program the repository's
	// git configuration names, a toolchain path in rust-toolchain.toml): a Bash allow rule names the
	// program as the person knows it, not that, so it does not cover the part.
	supplied string

	// redirWrites are the files written by redirections, which a Bash allow rule for the program does
	// not cover on its own.
	redirWrites []string
	// fromFind is set for the command of find -exec: its {} stands for every file found, so no rule
	// written from its words would mean what the person saw.
	fromFind bool
	// actsItself is set when a wrapper acts itself (sudo, strace): rules for the inner command do not allow.
	actsItself bool
	// unseen names the kinds of thing the part does that Warden cannot see (unseen.go); unseenWhy says,
	// for the first one marked, what it is.
	unseen    unseenKind
	unseenWhy string
	// unmodelled says why Warden's model of the part ends (model.go), or is empty when the part is
	// read-only or every word of it is modelled: while deny or ask rules are in force, such a part asks.
	unmodelled string
	// loose are the paths the part reads or writes that are only known at run time (loose.go).
	loose []loosePath
	// inputs are files the program reads as code by itself when they exist (a Makefile, package.json,
	// .git/hooks), and runsBelow directories whose files it runs (go test, pytest): what the same
	// command writes there is code written and run in one call (unseen_fresh.go).
	inputs, runsBelow []string
	// runGlobs are patterns naming what the part runs, to be matched against what the same command
	// writes: bash expands them when the part runs, after the writes.
	runGlobs []string
	// envModel are variables the command line gives the program that its model must read as its own
	// options (modelledVars); any left when the part is judged are unseen.
	envModel []string
	// runs are the files the part runs as code (a program by its path, a script given to a shell or an
	// interpreter, a sourced file), for unseen.go's check that the same command does not write them.
	runs []string
	// handedReads and handedWrites are the paths the part gives a program whose reads and writes Warden
	// does not model (tar, zip, git add -A, make -C): it may read or write anything there.
	handedReads, handedWrites []string
	// writesInto are the directories a modelled program writes files of names Warden does not know into
	// (cp -t DIR): what it writes there counts as written in the command, code included.
	writesInto []string
	// gitTakes are the paths git takes into the repository as it finds them below (git add, stash -u):
	// what git ignores there it leaves out.
	gitTakes []string
	// layerStatic says, per layer and per word, whether the word was known before running.
	layerStatic [][]bool
	// openTail is set under xargs: more arguments come at run time, so exact rules cannot match.
	openTail bool
	// marks counts the times the part was found not read-only.
	marks int
	// trees are the directories the part reads recursively.
	trees []treeRead
	// objects are the repositories whose object store the part reads.
	objects []gitrepo.Repo
	// readsInput is set when xargs gives the program file names from its input, which it reads;
	// inputOpts when those words may be options that read files (du --files0-from). namesKnown is set
	// when pipedNames found out what the names are; inputDir is where the program resolves them.
	readsInput, inputOpts, namesKnown bool
	inputDir                          string
	// scriptFromInput is set for a shell that runs the commands its input holds.
	scriptFromInput bool
	// called is the name a command was called by when it was judged as the program of that name, not
	// as a function.
	called string
	// producers are the programs pipedNames trusted to tell the names: the producer and the stages
	// between it and xargs.
	producers []string
	// xargsRaw is set when xargs splits its input at NULs or a delimiter (-0, -d), not at blanks; argFile
	// when it reads them from a file (-a), not from its input.
	xargsRaw, argFile bool
	// lists are the files find prints, for a pipeline that feeds them to xargs.
	lists []treeRead
	// static says, per word of Args, whether it was resolved without running anything; glob, whether
	// bash replaces it with the file names it matches, in dir.
	static, glob []bool
	dir          string
}

// Classification is what Classify found in a command line.
type Classification struct {
	// ReadOnly is true when every part is read-only. A read-only command may still read secrets.
	ReadOnly bool
	// Secret is true when some part reads credentials or keys.
	Secret bool
	// Dangerous is true when some part is catastrophic.
	Dangerous bool
	// Parts are the simple commands found anywhere in the tree, in source order of discovery.
	Parts []Part
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
func Classify(command string, ctx Context) Classification {
	c := &classifier{ctx: ctx, defined: map[string]bool{}, fds: map[string]bool{}}
	sc := &scope{cwd: ctx.Cwd}
	c.script(command, command, sc, 0, false)
	c.inputNames()
	c.asFunction()
	c.freshPaths()
	if c.catHeredoc && c.defined["cat"] {
		c.fail(command, "the command defines a function `cat`, which may print something else than the here-document a word is made of")
	}
	if c.readIFS != "" && c.defined["read"] {
		c.fail(c.readIFS, "`IFS=... read` may call a function named read, which splits words with that IFS")
	}
	c.arithVerdict()
	return c.result()
}

// classifier holds the state of one Classify call.
type classifier struct {
	ctx   Context
	parts []Part
	// defined names every function declared anywhere in the command, whether or not it ran.
	defined map[string]bool
	// roots are the resolved workspace and additional directories, computed on first use.
	roots []string
	// arithRefs are the variables arithmetic reads; tainted says why some variable may hold an array
	// subscript (see arith.go).
	arithRefs []arithUse
	tainted   string
	// fds are the descriptors `exec N>...` opened; execFDs is set while such a redirection is read.
	fds     map[string]bool
	execFDs bool
	// walked counts the entries looked at below recursively read directories.
	walked int
	// followed are the directories walks reached through links; dirs caches resolved directories of
	// names git lists.
	followed map[string]bool
	dirs     map[string]string
	// readIFS is the text of a `read` given its own IFS, which only the builtin may be given freely.
	readIFS string
	// loopRounds counts the loop bodies judged once per value (see maxLoopRounds).
	loopRounds int
	// substParts are, per command substitution, the parts its commands were judged as.
	substParts map[*syntax.CmdSubst][2]int
	// untrusted is set while a body Warden reads only for deny and ask rules is classified: why its
	// parts are not read-only.
	untrusted string
	// repos remembers the repositories found for directories during this classification.
	repos map[string]foundRepo
	// catHeredoc is set once a word was taken to be the here-document cat prints (heredocCat).
	catHeredoc bool
	// funcBodies are the functions the command defines, the last definition of each; calling and
	// calls count the bodies judged again where they are called (functions.go).
	funcBodies map[string]funcDef
	calling    map[string]bool
	calls      int
	// exports is set once the command exports a variable (export, declare -x): programs after it get
	// it in their environment.
	exports bool
}

// scope is what changes as bash runs through a list: the working directory. An empty cwd is unknown.
type scope struct {
	cwd string
	// vars are variables whose value is known for certain where they are used: a loop's variable over
	// plain words or files (see loopValues).
	vars map[string]string
	// funcs are the functions bash is certain to have defined at this point, with read-only bodies. Calling
	// one in the directory its body was judged in is as read-only as its body; a function only perhaps
	// defined (in a subshell, a branch, after `&&`) leaves the name to the program.
	funcs map[string]funcDef
}

// funcDef is a function with a read-only body: dir is where the body was judged, after where a call
// there leaves the shell. A function runs in the calling shell, so a cd in its body outlives the call;
// after is empty when that directory is unknown.
type funcDef struct {
	dir, after string
	// body is the function's body and lv the source it was defined in: a call in another directory runs
	// it there (functions.go).
	body *syntax.Stmt
	lv   *level
}

// fork returns a copy of the scope whose changes do not reach sc.
func (sc *scope) fork() *scope {
	inner := *sc
	inner.vars = maps.Clone(sc.vars)
	inner.funcs = maps.Clone(sc.funcs)
	return &inner
}

// mayRun runs f on sc for code that may not run: sc's directory and variables follow it, but functions it
// defines are not certain to exist afterwards, while one it may have removed is gone.
func (c *classifier) mayRun(sc *scope, f func()) {
	before := sc.funcs
	sc.funcs = maps.Clone(before)
	f()
	after := sc.funcs
	sc.funcs = before
	for name, dir := range before {
		if after[name] != dir {
			delete(sc.funcs, name)
		}
	}
}

// andList judges `A && B && C`. Each command runs only if those before it succeeded, so within the list a
// cd is followed; but any of them may fail, so after the list the directory is known only if no command
// but the first changed it (a cd into a directory that exists does not fail: see exec.cd). Functions
// defined after the first command are not certain to exist afterwards.
func (c *classifier) andList(lv *level, n *syntax.BinaryCmd, sc *scope) {
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
	certain := sc.cwd
	c.mayRun(sc, func() {
		for _, s := range list[1:] {
			c.stmt(lv, s, sc)
		}
	})
	if sc.cwd != certain {
		sc.cwd = "" // the later cd may not have run
	}
}

// level is one parsed source: the original command or a nested `bash -c` body.
type level struct {
	src string
	// anchor is the text in the original command that parts of this level report, when nested.
	anchor string
	depth  int
}

func (c *classifier) result() Classification {
	out := Classification{ReadOnly: true, Parts: c.parts}
	for _, p := range c.parts {
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
		for _, p := range c.parts {
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
	p := Part{Text: text}
	p.unsee(unseenUnread, reason)
	c.parts = append(c.parts, p)
}

// script parses src and classifies every statement in it. anchor is the text parts report. posix is set
// for a body a POSIX shell (sh, dash, ash) runs: it is classified only if a POSIX shell reads it exactly
// as bash does, since Warden judges the bash reading.
func (c *classifier) script(src, anchor string, sc *scope, depth int, posix bool) {
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
			early = early || hdocEndsEarly(n, src, inside(substs, n.Pos().Offset()))
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
	lv := &level{src: src, depth: depth}
	if depth > 0 {
		lv.anchor = anchor
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

// controlIn names the first control character of s by its code point ("U+202E"), or returns "".
func controlIn(s string) string {
	i := strings.IndexFunc(s, isControl)
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return fmt.Sprintf("U+%04X", r)
}

// isControl reports control characters other than tab and newline: a carriage return or escape sequence
// can make a command look different on screen from what bash runs.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
		r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0xfeff
}

// text is the source a part reports for node n. A statement's text stops before its `;` or `&`.
func (lv *level) text(n syntax.Node) string {
	if lv.anchor != "" {
		return lv.anchor
	}
	start, end := n.Pos().Offset(), n.End().Offset()
	if s, ok := n.(*syntax.Stmt); ok && s.Cmd != nil {
		end = s.Cmd.End().Offset()
		for _, r := range s.Redirs {
			end = max(end, r.End().Offset())
		}
	}
	if start > end || int(end) > len(lv.src) {
		return lv.src
	}
	return lv.src[start:end]
}

func (c *classifier) stmts(lv *level, list []*syntax.Stmt, sc *scope) {
	for _, s := range list {
		c.stmt(lv, s, sc)
	}
}

// sub classifies statements that bash runs in a subshell: changes of directory and functions defined
// do not leak out.
func (c *classifier) sub(lv *level, list []*syntax.Stmt, sc *scope) {
	c.stmts(lv, list, sc.fork())
}

// branch runs f on a copy of the scope; if the branch may change directory, what follows runs in an
// unknown directory, because Warden cannot tell whether the branch ran. Functions the branch defines are
// not certain to exist afterwards.
func (c *classifier) branch(sc *scope, f func(*scope)) {
	c.mayRun(sc, func() {
		inner := sc.fork()
		f(inner)
		if inner.cwd != sc.cwd {
			sc.cwd = ""
		}
		// A function the branch removed or redefined may be gone.
		for name, dir := range sc.funcs {
			if inner.funcs[name] != dir {
				delete(sc.funcs, name)
			}
		}
	})
}

func (c *classifier) stmt(lv *level, s *syntax.Stmt, sc *scope) {
	if s.Coprocess || s.Disown {
		c.fail(lv.text(s), "coprocesses are not checked")
		return
	}
	if s.Background {
		// `cmd &` runs in a subshell: its cd and its functions stay there.
		sc = sc.fork()
	}
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		c.call(lv, s, call, sc)
		return
	}
	if s.Cmd != nil {
		c.command(lv, s.Cmd, sc)
	}
	if len(s.Redirs) > 0 {
		p := Part{Text: lv.text(s), ReadOnly: true, Static: true}
		c.redirects(lv, s.Redirs, sc, &p)
		if !p.ReadOnly || p.Secret || len(p.Reads) > 0 {
			c.parts = append(c.parts, p)
		}
	}
}

// command dispatches on every compound command type the parser knows. A type it does not know is not
// read-only, so that a parser upgrade can only make Warden ask more.
func (c *classifier) command(lv *level, cmd syntax.Command, sc *scope) {
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
			c.branch(sc, func(inner *scope) { c.stmt(lv, n.Y, inner) })
			return
		}
		c.andList(lv, n, sc)
	case *syntax.Block:
		c.stmts(lv, n.Stmts, sc)
	case *syntax.Subshell:
		c.sub(lv, n.Stmts, sc)
	case *syntax.IfClause:
		for cl := n; cl != nil; cl = cl.Else {
			c.branch(sc, func(inner *scope) {
				c.stmts(lv, cl.Cond, inner)
				c.stmts(lv, cl.Then, inner)
			})
		}
	case *syntax.WhileClause:
		c.branch(sc, func(inner *scope) {
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
				c.branch(sc, func(inner *scope) {
					if inner.vars == nil {
						inner.vars = map[string]string{}
					}
					for _, v := range values {
						inner.vars[l.Name.Value] = v
						c.stmts(lv, n.Do, inner)
					}
				})
				break
			}
		}
		c.branch(sc, func(inner *scope) {
			switch l := n.Loop.(type) {
			case *syntax.WordIter:
				c.assignName(lv, n, l.Name.Value)
				// Judged once, the variable is unknown here, whatever an outer loop set it to.
				delete(inner.vars, l.Name.Value)
				if n.Select || !l.InPos.IsValid() {
					c.taint(fmt.Sprintf("`%s` takes values only known at run time", l.Name.Value))
				}
				for _, w := range l.Items {
					c.wordSubs(lv, w, inner)
					if v := resolveWord(w, "", ""); !safeValue(w) || v.Glob {
						c.taint(fmt.Sprintf("`%s` takes values only known at run time", l.Name.Value))
					}
				}
			case *syntax.CStyleLoop:
				c.arithm(lv, n, l.Init, inner)
				c.arithm(lv, n, l.Cond, inner)
				c.arithm(lv, n, l.Post, inner)
			default:
				c.fail(lv.text(n), fmt.Sprintf("unknown loop %T", l))
			}
			c.stmts(lv, n.Do, inner)
		})
	case *syntax.CaseClause:
		c.wordSubs(lv, n.Word, sc)
		for _, item := range n.Items {
			c.branch(sc, func(inner *scope) {
				for _, w := range item.Patterns {
					c.wordSubs(lv, w, inner)
				}
				c.stmts(lv, item.Stmts, inner)
			})
		}
	case *syntax.FuncDecl:
		if n.Name == nil {
			c.fail(lv.text(n), "anonymous functions are not checked")
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
		c.fail(lv.text(n), "coprocesses are not checked")
	default:
		c.fail(lv.text(cmd), fmt.Sprintf("`%T` is a construct Warden does not check", cmd))
	}
}

// wordSubs classifies the commands hidden inside a word: command and process substitutions, and the
// words and arithmetic inside parameter expansions.
func (c *classifier) wordSubs(lv *level, w *syntax.Word, sc *scope) {
	if w == nil {
		return
	}
	for _, part := range w.Parts {
		c.wordPart(lv, part, sc)
	}
}

func (c *classifier) wordPart(lv *level, part syntax.WordPart, sc *scope) {
	switch p := part.(type) {
	case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			c.wordPart(lv, q, sc)
		}
	case *syntax.CmdSubst:
		if p.TempFile || p.ReplyVar {
			c.fail(lv.text(p), "mksh substitutions are not checked")
			return
		}
		before := len(c.parts)
		c.sub(lv, p.Stmts, sc)
		if c.substParts == nil {
			c.substParts = map[*syntax.CmdSubst][2]int{}
		}
		c.substParts[p] = [2]int{before, len(c.parts)}
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
				if !safeValue(p.Exp.Word) {
					c.taint("a variable is assigned a value only known at run time")
				}
			}
			if p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P") {
				c.fail(lv.text(p), "`${...@P}` expands the value like a prompt, which runs the commands in it")
			}
			c.wordSubs(lv, p.Exp.Word, sc)
		}
		if p.Excl && p.Param != nil && p.Names == 0 && !isAllIndex(p.Index) {
			// ${!name} reads the variable named by name's value; a subscript in it is evaluated.
			c.arithRef(lv, p, p.Param.Value)
		}
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			c.wordSubs(lv, e, sc)
		}
	default:
		c.fail(lv.text(part), fmt.Sprintf("`%T` is a construct Warden does not check", part))
	}
}

// resolve resolves a word in the current scope.
func (c *classifier) resolve(lv *level, w *syntax.Word, sc *scope) word {
	v := resolveWordVars(w, c.ctx.Home, sc.cwd, sc.vars)
	v.Syn = w
	if start, end := w.Pos().Offset(), w.End().Offset(); start <= end && int(end) <= len(lv.src) {
		v.Raw = lv.src[start:end]
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

// abs makes a path operand absolute against the scope's directory. A relative path in an unknown
// directory stays relative, which no workspace check and no absolute rule will match.
//
// A `..` is applied the way the kernel does, after the symlinks before it: `lnk/../x` with `lnk -> deep/a`
// is deep/x. Cleaning it as text would name another file than the one read.
func (c *classifier) abs(p string, sc *scope) string {
	if p == "" {
		return p
	}
	if !filepath.IsAbs(p) && sc.cwd == "" {
		return filepath.Clean(p)
	}
	if hasDotDot(p) {
		return c.resolvedFrom(sc.cwd, p)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(sc.cwd, p)
}

// hasDotDot reports whether a path has a `..` component.
func hasDotDot(p string) bool {
	for _, comp := range strings.Split(p, "/") {
		if comp == ".." {
			return true
		}
	}
	return false
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
func (c *classifier) funcDecl(lv *level, n *syntax.FuncDecl, sc *scope) {
	name := n.Name.Value
	c.defined[name] = true
	delete(sc.funcs, name)
	if !compoundBody(n.Body) {
		// `f() { :; } | true` defines f in a subshell for bash, but the parser reads the pipeline as
		// f's body.
		c.fail(lv.text(n), fmt.Sprintf("the definition of `%s` is read differently by bash", name))
		return
	}
	before := len(c.parts)
	inner := sc.fork()
	c.stmts(lv, []*syntax.Stmt{n.Body}, inner)
	if c.funcBodies == nil {
		c.funcBodies = map[string]funcDef{}
	}
	c.funcBodies[name] = funcDef{dir: sc.cwd, after: inner.cwd, body: n.Body, lv: lv}
	ok := true
	for _, p := range c.parts[before:] {
		// Only the shell calls functions: `command f`, wrappers, xargs and find -exec run the program.
		first := p.Args
		if len(p.Layers) > 0 {
			first = p.Layers[0]
		}
		if len(first) > 0 && first[0] == name {
			c.parts = append(c.parts, Part{Text: lv.text(n), Dangerous: true,
				Reason: fmt.Sprintf("function `%s` calls itself (a fork bomb?)", name)})
			ok = false
			break
		}
		ok = ok && p.ReadOnly
	}
	if ok && name != "" && !specialBuiltins[name] && sc.cwd != "" {
		if sc.funcs == nil {
			sc.funcs = map[string]funcDef{}
		}
		sc.funcs[name] = funcDef{dir: sc.cwd, after: inner.cwd, body: n.Body, lv: lv}
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
	for i := range c.parts {
		if p := &c.parts[i]; p.called != "" && c.defined[p.called] {
			p.notRO(fmt.Sprintf("the command defines a function `%s`, which bash may run instead of the program", p.called))
		}
	}
}
