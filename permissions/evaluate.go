package permissions

import (
	"fmt"
	"strings"

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
func (c *classifier) arithm(lv *level, at syntax.Node, x syntax.ArithmExpr, sc *scope) {
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
		c.fail(lv.text(at), fmt.Sprintf("`%T` is an arithmetic construct Warden does not check", x))
	}
}

func (c *classifier) arithmTarget(lv *level, at syntax.Node, x syntax.ArithmExpr) {
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
func (c *classifier) assignName(lv *level, at syntax.Node, name string) {
	if reason := sensitiveVar(name); reason != "" {
		p := Part{Text: lv.text(at), Static: true}
		// Exported or assigned for every program after it: no one program's model reads it.
		p.effect(reason)
		p.unseeVar(name, reason)
		c.parts = append(c.parts, p)
	}
}

// test walks a [[ ]] expression for substitutions; the test itself only looks at files.
func (c *classifier) test(lv *level, x syntax.TestExpr, sc *scope) {
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
			if r := varNameOperand(c.resolve(lv, w, sc)); r != "" {
				c.fail(lv.text(n), r)
			}
		}
		c.test(lv, n.X, sc)
	case *syntax.ParenTest:
		c.test(lv, n.X, sc)
	case *syntax.Word:
		c.wordSubs(lv, n, sc)
	default:
		c.fail(lv.text(n), fmt.Sprintf("`%T` is a test construct Warden does not check", x))
	}
}

// decl handles declare, local, export, readonly, typeset and nameref.
func (c *classifier) decl(lv *level, n *syntax.DeclClause, sc *scope) {
	text := lv.text(n)
	if n.Variant.Value == "nameref" {
		c.fail(text, "`nameref` makes one variable stand for another")
		return
	}
	if n.Variant.Value == "export" {
		// What is exported reaches every program after it (make takes it as a variable).
		c.exports = true
	}
	// Options come first: -i makes every value assigned to the names arithmetic, -a and -A re-read a
	// quoted "(...)" value as an array assignment.
	integer, array := false, false
	for _, a := range n.Args {
		if a.Naked && a.Name == nil {
			if w := resolveWord(a.Value, "", ""); w.Static && (strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+")) {
				integer = integer || strings.ContainsRune(w.Value, 'i')
				array = array || strings.ContainsAny(w.Value, "aA")
				c.exports = c.exports || strings.HasPrefix(w.Value, "-") && strings.ContainsRune(w.Value, 'x')
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
			w := resolveWord(a.Value, "", "")
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
			if r := varNameOperand(word{Value: strings.TrimSuffix(name, "+"), Static: true}); r != "" {
				c.fail(text, r)
			}
			if hasValue {
				if strings.HasPrefix(value, "(") {
					c.fail(text, "`"+n.Variant.Value+"` reads a quoted `(...)` as an array assignment")
				}
				if strings.ContainsRune(value, '[') {
					c.taint("a variable is assigned a value with a subscript")
				}
			}
			c.assignName(lv, n, name)
			continue
		}
		if a.Value != nil && !safeValue(a.Value) {
			c.taint(fmt.Sprintf("`%s` is assigned a value only known at run time", a.Name.Value))
			if array {
				c.fail(text, "`"+n.Variant.Value+"` may read a value only known at run time as an array assignment")
			}
		}
		if array && a.Value != nil {
			if v := resolveWord(a.Value, "", ""); v.Static && strings.HasPrefix(v.Value, "(") {
				c.fail(text, "`"+n.Variant.Value+"` reads a quoted `(...)` as an array assignment")
			}
		}
		if a.Name != nil {
			c.assignName(lv, n, a.Name.Value)
		}
	}
}
