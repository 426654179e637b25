package permissions

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic, test clauses and declarations: the places where bash evaluates a variable's value a second
// time (an array subscript inside it runs commands), so the classifier must see what they name and assign.

var arithAssign = map[syntax.BinAritOperator]bool{
	syntax.Assgn: true, syntax.AddAssgn: true, syntax.SubAssgn: true, syntax.MulAssgn: true, syntax.QuoAssgn: true,
	syntax.RemAssgn: true, syntax.AndAssgn: true, syntax.OrAssgn: true, syntax.XorAssgn: true, syntax.ShlAssgn: true,
	syntax.ShrAssgn: true, syntax.AndBoolAssgn: true, syntax.OrBoolAssgn: true, syntax.XorBoolAssgn: true,
	syntax.PowAssgn: true,
}

// arithm walks an arithmetic expression: it may assign variables and hide substitutions in words.
func (c *classifier) arithm(lv *shell.Level, at syntax.Node, x syntax.ArithmExpr, sc *shell.Scope) {
	switch n := x.(type) {
	case nil:
	case *syntax.BinaryArithm:
		if arithAssign[n.Op] {
			c.arithmTarget(lv, at, n.X)
		}
		c.arithm(lv, at, n.X, sc)
		c.arithm(lv, at, n.Y, sc)
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			c.arithmTarget(lv, at, n.X)
		}
		c.arithm(lv, at, n.X, sc)
	case *syntax.ParenArithm:
		c.arithm(lv, at, n.X, sc)
	case *syntax.FlagsArithm:
		c.arithm(lv, at, n.X, sc)
	case *syntax.Word:
		c.arithOperand(lv, at, n)
		c.wordSubs(lv, n, sc)
	default:
		c.fail(lv.Text(at), fmt.Sprintf("`%T` is an arithmetic construct Warden does not check", x))
	}
}

func (c *classifier) arithmTarget(lv *shell.Level, at syntax.Node, x syntax.ArithmExpr) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return
	}
	if lit := w.Lit(); lit != "" {
		c.assignName(lv, at, lit)
		return
	}
	if len(w.Parts) == 1 {
		if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param != nil {
			c.assignName(lv, at, p.Param.Value)
		}
	}
}

// assignName records a part when a variable that changes how programs behave is assigned.
func (c *classifier) assignName(lv *shell.Level, at syntax.Node, name string) {
	if reason := shell.SensitiveVar(name); reason != "" {
		p := shell.Part{Text: lv.Text(at), Static: true}
		// Exported or assigned for every program after it: no one program's model reads it.
		p.Effect(reason)
		p.UnseeVar(name, reason)
		c.Parts = append(c.Parts, p)
	}
}

// test walks a [[ ]] expression for substitutions; the test itself only looks at files.
func (c *classifier) test(lv *shell.Level, x syntax.TestExpr, sc *shell.Scope) {
	switch n := x.(type) {
	case nil:
	case *syntax.BinaryTest:
		if n.Op >= syntax.TsEql && n.Op <= syntax.TsGtr {
			for _, x := range []syntax.TestExpr{n.X, n.Y} {
				if w, ok := x.(*syntax.Word); ok {
					c.arithTestOperand(lv, n, w, sc)
				}
			}
		}
		c.test(lv, n.X, sc)
		c.test(lv, n.Y, sc)
	case *syntax.UnaryTest:
		if w, ok := n.X.(*syntax.Word); ok && (n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar) {
			if r := shell.VarNameOperand(c.resolve(lv, w, sc)); r != "" {
				c.fail(lv.Text(n), r)
			}
		}
		c.test(lv, n.X, sc)
	case *syntax.ParenTest:
		c.test(lv, n.X, sc)
	case *syntax.Word:
		c.wordSubs(lv, n, sc)
	default:
		c.fail(lv.Text(n), fmt.Sprintf("`%T` is a test construct Warden does not check", x))
	}
}

// decl handles declare, local, export, readonly, typeset and nameref.
func (c *classifier) decl(lv *shell.Level, n *syntax.DeclClause, sc *shell.Scope) {
	text := lv.Text(n)
	if n.Variant.Value == "nameref" {
		c.fail(text, "`nameref` makes one variable stand for another")
		return
	}
	if n.Variant.Value == "export" {
		// What is exported reaches every program after it (make takes it as a variable).
		c.Exports = true
	}
	// Options come first: -i makes every value assigned to the names arithmetic, -a and -A re-read a
	// quoted "(...)" value as an array assignment.
	integer, array := false, false
	for _, a := range n.Args {
		if a.Naked && a.Name == nil {
			if w := shell.ResolveWord(a.Value, "", ""); w.Static && (strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+")) {
				integer = integer || strings.ContainsRune(w.Value, 'i')
				array = array || strings.ContainsAny(w.Value, "aA")
				c.Exports = c.Exports || strings.HasPrefix(w.Value, "-") && strings.ContainsRune(w.Value, 'x')
			}
		}
	}
	if integer {
		c.arithRefs = append(c.arithRefs, arithUse{text: text, name: n.Variant.Value + " -i"})
	}
	for _, a := range n.Args {
		c.assignSubs(lv, n, a, sc)
		if a.Naked && a.Name == nil {
			// An option or a name given as a word.
			w := shell.ResolveWord(a.Value, "", "")
			if !w.Static {
				c.fail(text, "`"+n.Variant.Value+"` with an argument only known at run time")
				continue
			}
			if strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+") {
				if strings.ContainsAny(w.Value, "n") {
					c.fail(text, "`"+n.Variant.Value+" -n` makes one variable stand for another")
				}
				continue
			}
			name, value, hasValue := strings.Cut(w.Value, "=")
			if r := shell.VarNameOperand(shell.Word{Value: strings.TrimSuffix(name, "+"), Static: true}); r != "" {
				c.fail(text, r)
			}
			if hasValue {
				if strings.HasPrefix(value, "(") {
					c.fail(text, "`"+n.Variant.Value+"` reads a quoted `(...)` as an array assignment")
				}
				if strings.ContainsRune(value, '[') {
					c.Taint("a variable is assigned a value with a subscript")
				}
			}
			c.assignName(lv, n, name)
			continue
		}
		if a.Value != nil && !shell.SafeValue(a.Value) {
			c.Taint(fmt.Sprintf("`%s` is assigned a value only known at run time", a.Name.Value))
			if array {
				c.fail(text, "`"+n.Variant.Value+"` may read a value only known at run time as an array assignment")
			}
		}
		if array && a.Value != nil {
			if v := shell.ResolveWord(a.Value, "", ""); v.Static && strings.HasPrefix(v.Value, "(") {
				c.fail(text, "`"+n.Variant.Value+"` reads a quoted `(...)` as an array assignment")
			}
		}
		if a.Name != nil {
			c.assignName(lv, n, a.Name.Value)
		}
	}
}

// arithRef records a variable read by arithmetic; it is checked against taint once the whole command is
// seen. A variable bash fills with chosen text is not read-only at once.
func (c *classifier) arithRef(lv *shell.Level, at syntax.Node, name string) {
	if shell.UnsafeArithNames[name] || shell.IsPositional(name) {
		c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", name, shell.ArithRisk))
		return
	}
	c.arithRefs = append(c.arithRefs, arithUse{text: lv.Text(at), name: name})
}

type arithUse struct {
	text, name string
}

// arithOperand judges one word operand of an arithmetic expression.
func (c *classifier) arithOperand(lv *shell.Level, at syntax.Node, w *syntax.Word) {
	if len(w.Parts) != 1 {
		c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), shell.ArithRisk))
		return
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		c.arithLiteral(lv, at, p.Value)
	case *syntax.SglQuoted:
		c.arithLiteral(lv, at, p.Value)
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return
		}
		if lit, ok := p.Parts[0].(*syntax.Lit); ok && len(p.Parts) == 1 {
			c.arithLiteral(lv, at, lit.Value)
			return
		}
		c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), shell.ArithRisk))
	case *syntax.ParamExp:
		c.arithParam(lv, at, p)
	case *syntax.ArithmExp:
		// A number; its own operands are checked when it is walked.
	default:
		c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), shell.ArithRisk))
	}
}

// arithLiteral judges literal text that bash evaluates as arithmetic (after removing quotes, expanding
// what is inside them): a number is harmless, a name reads a variable, anything that may expand is not.
func (c *classifier) arithLiteral(lv *shell.Level, at syntax.Node, v string) {
	switch {
	case strings.ContainsAny(v, "$`[\\"):
		c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", v, shell.ArithRisk))
	case shell.IsIdent(v):
		c.arithRef(lv, at, v)
	}
}

// arithParam judges a parameter expansion used as an arithmetic operand.
func (c *classifier) arithParam(lv *shell.Level, at syntax.Node, p *syntax.ParamExp) {
	if p.Param == nil {
		c.fail(lv.Text(at), "a parameter expansion Warden cannot read "+shell.ArithRisk)
		return
	}
	name := p.Param.Value
	switch {
	case p.Length || shell.NumericParams[name] && p.Exp == nil && p.Repl == nil && p.Slice == nil:
		return
	case p.Excl || p.Width || p.IsSet || p.Names != 0 || p.Repl != nil || p.Slice != nil || len(p.Modifiers) != 0:
		c.fail(lv.Text(at), fmt.Sprintf("`${%s...}` %s", name, shell.ArithRisk))
		return
	case p.Exp != nil:
		// ${x:-0}: the default must be a plain number.
		if p.Exp.Word != nil {
			if lit := p.Exp.Word.Lit(); lit == "" || strings.Trim(lit, "0123456789") != "" {
				c.fail(lv.Text(at), fmt.Sprintf("`${%s...}` %s", name, shell.ArithRisk))
				return
			}
		}
	}
	c.arithRef(lv, at, name)
}

// arithTestOperand judges an operand of [[ a -eq b ]]: it is expanded like any word, and then its value
// is evaluated as arithmetic.
func (c *classifier) arithTestOperand(lv *shell.Level, at syntax.Node, w *syntax.Word, sc *shell.Scope) {
	v := c.resolve(lv, w, sc)
	if v.Static {
		c.arithLiteral(lv, at, v.Value)
		return
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.ParamExp:
			c.arithParam(lv, at, p)
			return
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				if pe, ok := p.Parts[0].(*syntax.ParamExp); ok {
					c.arithParam(lv, at, pe)
					return
				}
			}
		case *syntax.ArithmExp:
			return
		}
	}
	c.fail(lv.Text(at), fmt.Sprintf("`%s` %s", v.Raw, shell.ArithRisk))
}

func wordText(lv *shell.Level, w *syntax.Word) string {
	if start, end := w.Pos().Offset(), w.End().Offset(); start <= end && int(end) <= len(lv.Src) {
		return lv.Src[start:end]
	}
	return "?"
}

// arithVerdict adds the part that arithmetic on a tainted variable needs, once the command is walked.
func (c *classifier) arithVerdict() {
	if c.Tainted == "" || len(c.arithRefs) == 0 {
		return
	}
	r := c.arithRefs[0]
	c.fail(r.text, fmt.Sprintf("`%s` %s, and %s", r.name, shell.ArithRisk, c.Tainted))
}
