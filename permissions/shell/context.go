package shell

import (
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
	// RootsResolved says that Workspace and AdditionalDirectories are already resolved (ResolvePath),
	// as an Engine's are.
	RootsResolved bool
	// Memory is what the engine remembers between classifications; nil gives a classification a
	// memory of its own, which it forgets.
	Memory *Memory
}

// Scope is what changes as bash runs through a list: the working directory. An empty cwd is unknown.
type Scope struct {
	Cwd string
	// Vars are variables whose value is known for certain where they are used: a loop's variable over
	// plain words or files (see the engine's loopValues).
	Vars map[string]string
	// Funcs are the functions bash is certain to have defined at this point, with read-only bodies. Calling
	// one in the directory its body was judged in is as read-only as its body; a function only perhaps
	// defined (in a subshell, a branch, after `&&`) leaves the name to the program.
	Funcs map[string]FuncDef
}

// FuncDef is a function with a read-only body: dir is where the body was judged, after where a call
// there leaves the shell. A function runs in the calling shell, so a cd in its body outlives the call;
// after is empty when that directory is unknown.
type FuncDef struct {
	Dir, After string
	// Body is the function's body and lv the source it was defined in: a call in another directory runs
	// it there (the engine's functions.go).
	Body  *syntax.Stmt
	Level *Level
}

// Fork returns a copy of the scope whose changes do not reach sc.
func (sc *Scope) Fork() *Scope {
	inner := *sc
	inner.Vars = maps.Clone(sc.Vars)
	inner.Funcs = maps.Clone(sc.Funcs)
	return &inner
}

// Level is one parsed source: the original command or a nested `bash -c` body.
type Level struct {
	Src string
	// Anchor is the text in the original command that parts of this level report, when nested.
	Anchor string
	Depth  int
}

// Text is the source a part reports for node n. A statement's text stops before its `;` or `&`.
func (lv *Level) Text(n syntax.Node) string {
	if lv.Anchor != "" {
		return lv.Anchor
	}
	start, end := n.Pos().Offset(), n.End().Offset()
	if s, ok := n.(*syntax.Stmt); ok && s.Cmd != nil {
		end = s.Cmd.End().Offset()
		for _, r := range s.Redirs {
			end = max(end, r.End().Offset())
		}
	}
	if start > end || int(end) > len(lv.Src) {
		return lv.Src
	}
	return lv.Src[start:end]
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
