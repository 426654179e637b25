package permissions

import (
	"path/filepath"
	"slices"

	"github.com/warden-cli/warden/permissions/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Loops. `for f in src/*.go; do wc -l "$f"; done` is how agents look at several files, and judging `$f` as
// unknown would ask about every such loop. When every value the variable can take is known, the body is
// judged once for each value instead. That holds only when all of these do:
//   - every item is a plain word or a glob over existing files, expanded here the way bash will;
//   - every value is made of characters that neither split, glob, start an option nor carry an arithmetic
//     subscript, so using it unquoted, or in arithmetic, does what its text says (a file named
//     `x[$(rm y)]` in the repository must not be able to run anything);
//   - the body never names the variable except to read it plainly: no assignment, `read`, `unset`,
//     `declare`, `${f:=…}` or nested loop over it, which would change what `$f` is at run time;
//   - a glob's values are not used where anything is evaluated as arithmetic, since a file created after
//     this check joins them at run time.
// Anything else leaves the variable unknown, as before, and the command asks.

// maxLoopValues bounds how many times a body is judged.
const maxLoopValues = 32

// maxLoopRounds bounds how many loop bodies one command judges once per value, nested loops included:
// seven nested loops over ten values would be judged ten million times. Past it a loop's body is judged
// once with its variable unknown, which asks wherever the value matters.
const maxLoopRounds = 1000

// loopValues returns the values a for loop's variable takes, and whether they are all known for certain.
func (c *classifier) loopValues(l *syntax.WordIter, body []*syntax.Stmt, sc *shell.Scope) ([]string, bool) {
	name := l.Name.Value
	if shell.SensitiveVar(name) != "" || !readsOnly(body, name) {
		return nil, false
	}
	var values []string
	globbed := false
	for _, item := range l.Items {
		w := shell.ResolveWordVars(item, c.Ctx.Home, sc.Cwd, sc.Vars)
		if !w.Static || w.ProcIn {
			return nil, false
		}
		if !w.Glob {
			values = append(values, w.Value)
			continue
		}
		if sc.Cwd == "" {
			return nil, false
		}
		globbed = true
		matches, ok := c.ExpandGlob(w.Value, sc)
		if !ok || len(matches) == 1 && matches[0] == w.Value {
			// bash would pass the pattern itself on; that is not a value to trust.
			return nil, false
		}
		slices.Sort(matches)
		for _, m := range matches {
			if !filepath.IsAbs(w.Value) {
				if rel, err := filepath.Rel(sc.Cwd, m); err == nil {
					m = rel
				}
			}
			values = append(values, m)
		}
	}
	if len(values) == 0 || len(values) > maxLoopValues {
		return nil, false
	}
	// A file created between this check and the run joins a glob's values; in arithmetic its name is
	// evaluated, and a subscript in it runs commands. Globbed values are never trusted there.
	if globbed && hasArithmetic(body) {
		return nil, false
	}
	for _, v := range values {
		if !plainValue(v) {
			return nil, false
		}
	}
	return values, true
}

// plainValue reports whether a value means exactly its text wherever a variable holding it is used.
func plainValue(v string) bool {
	if v == "" || v[0] == '-' || v[0] == '~' {
		return false
	}
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '.', r == '_', r == '/', r == '-', r == '+', r == ',', r == ':', r == '@', r == '%':
		default:
			return false
		}
	}
	return true
}

// readsOnly reports whether the statements use the variable name only by reading it plainly ($name or
// ${name}). Any word that is the bare name (an argument to read, unset, declare, printf -v, an assignment,
// an arithmetic operand, a nested loop's variable) or any expansion of it with an operator counts as more.
func readsOnly(stmts []*syntax.Stmt, name string) bool {
	ok := true
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *syntax.Lit:
				if n.Value == name {
					ok = false
				}
			case *syntax.ParamExp:
				if n.Excl || n.NestedParam != nil {
					ok = false // ${!x} and nested forms reach variables by name
					return false
				}
				if n.Param != nil && n.Param.Value == name {
					// A plain $name has nothing more to look at; any operator on it disqualifies.
					if _, plain := shell.KnownParam(n, "", "", map[string]string{name: ""}); !plain {
						ok = false
					}
					return false
				}
			}
			return ok
		})
	}
	return ok
}

// hasArithmetic reports whether the statements may evaluate anything as arithmetic: $(( )), (( )), let,
// [[ ]], C-style loops, array subscripts and slices, and declarations (declare -i evaluates what it is
// given).
func hasArithmetic(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.TestClause, *syntax.CStyleLoop,
				*syntax.DeclClause:
				found = true
			case *syntax.ParamExp:
				found = n.Index != nil || n.Slice != nil
			case *syntax.Assign:
				found = n.Index != nil
			}
			return !found
		})
	}
	return found
}
