package permissions

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates the value of a variable used in arithmetic ($((x)), ((x)), let, [[ x -eq y ]], array
// subscripts, ${s:x}, declare -i) as an arithmetic expression in turn, and an array subscript in that
// value is expanded: x='a[$(rm -rf ~)]'; echo $((x)) runs rm. The same holds for names given to builtins
// that assign or test variables (printf -v, declare, unset, test -v, wait -p) and for ${!x} and ${x@P}.
//
// So an arithmetic operand is only harmless when its value cannot hold such a subscript. Warden does not
// track variables' values; it records the variables used in arithmetic (arithRefs) and whether anything in
// the command gives some variable a value that is not plain literal text without a subscript (taint).
// When both happen anywhere in the command, in any order, the command is not read-only. Operands whose text
// is itself only known at run time (a command substitution, a positional parameter, $_, BASH_REMATCH) are
// not read-only at once.

// unsafeArithNames are variables that bash fills with text the command chose: the last argument of the
// previous command, regex matches, the arguments of the script, input lines.
var unsafeArithNames = map[string]bool{
	"_": true, "REPLY": true, "OPTARG": true, "BASH_REMATCH": true, "BASH_ARGV": true, "BASH_COMMAND": true,
	"BASH_EXECUTION_STRING": true, "MAPFILE": true, "COMPREPLY": true, "FUNCNAME": true, "BASH_SOURCE": true,
	"READLINE_LINE": true, "@": true, "*": true, "0": true,
}

// numericParams are special parameters that always hold a number.
var numericParams = map[string]bool{"#": true, "?": true, "$": true, "!": true}

const arithRisk = "is evaluated as arithmetic, where an array subscript in its value runs commands"

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isPositional(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// arithRef records a variable read by arithmetic; it is checked against taint once the whole command is
// seen. A variable bash fills with chosen text is not read-only at once.
func (c *classifier) arithRef(lv *level, at syntax.Node, name string) {
	if unsafeArithNames[name] || isPositional(name) {
		c.fail(lv.text(at), fmt.Sprintf("`%s` %s", name, arithRisk))
		return
	}
	c.arithRefs = append(c.arithRefs, arithUse{text: lv.text(at), name: name})
}

// taint records that the command gives a variable a value that may hold an array subscript.
func (c *State) taint(why string) {
	if c.tainted == "" {
		c.tainted = why
	}
}

type arithUse struct {
	text, name string
}

// arithOperand judges one word operand of an arithmetic expression.
func (c *classifier) arithOperand(lv *level, at syntax.Node, w *syntax.Word) {
	if len(w.Parts) != 1 {
		c.fail(lv.text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), arithRisk))
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
		c.fail(lv.text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), arithRisk))
	case *syntax.ParamExp:
		c.arithParam(lv, at, p)
	case *syntax.ArithmExp:
		// A number; its own operands are checked when it is walked.
	default:
		c.fail(lv.text(at), fmt.Sprintf("`%s` %s", wordText(lv, w), arithRisk))
	}
}

// arithLiteral judges literal text that bash evaluates as arithmetic (after removing quotes, expanding
// what is inside them): a number is harmless, a name reads a variable, anything that may expand is not.
func (c *classifier) arithLiteral(lv *level, at syntax.Node, v string) {
	switch {
	case strings.ContainsAny(v, "$`[\\"):
		c.fail(lv.text(at), fmt.Sprintf("`%s` %s", v, arithRisk))
	case isIdent(v):
		c.arithRef(lv, at, v)
	}
}

// arithParam judges a parameter expansion used as an arithmetic operand.
func (c *classifier) arithParam(lv *level, at syntax.Node, p *syntax.ParamExp) {
	if p.Param == nil {
		c.fail(lv.text(at), "a parameter expansion Warden cannot read "+arithRisk)
		return
	}
	name := p.Param.Value
	switch {
	case p.Length || numericParams[name] && p.Exp == nil && p.Repl == nil && p.Slice == nil:
		return
	case p.Excl || p.Width || p.IsSet || p.Names != 0 || p.Repl != nil || p.Slice != nil || len(p.Modifiers) != 0:
		c.fail(lv.text(at), fmt.Sprintf("`${%s...}` %s", name, arithRisk))
		return
	case p.Exp != nil:
		// ${x:-0}: the default must be a plain number.
		if p.Exp.Word != nil {
			if lit := p.Exp.Word.Lit(); lit == "" || strings.Trim(lit, "0123456789") != "" {
				c.fail(lv.text(at), fmt.Sprintf("`${%s...}` %s", name, arithRisk))
				return
			}
		}
	}
	c.arithRef(lv, at, name)
}

// arithTestOperand judges an operand of [[ a -eq b ]]: it is expanded like any word, and then its value
// is evaluated as arithmetic.
func (c *classifier) arithTestOperand(lv *level, at syntax.Node, w *syntax.Word, sc *scope) {
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
	c.fail(lv.text(at), fmt.Sprintf("`%s` %s", v.Raw, arithRisk))
}

// varNameOperand judges a variable name given to a builtin as a word (printf -v, test -v, unset, wait -p,
// declare 'a[i]=x'): a subscript in it is evaluated, so only a number or @/* may be there.
func varNameOperand(w word) string {
	if !w.Static {
		return fmt.Sprintf("the variable name `%s` is only known at run time", w.Value)
	}
	name := w.Value
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return ""
	}
	sub := strings.TrimSuffix(name[open+1:], "]")
	if sub == "@" || sub == "*" || sub != "" && strings.Trim(sub, "0123456789") == "" {
		return ""
	}
	return fmt.Sprintf("the subscript of `%s` %s", name, arithRisk)
}

// safeValue reports whether a value assigned to a variable is plain text that cannot hold an array
// subscript: literal words and quotes without `[`, numbers from arithmetic, and plain copies of other
// variables (which are tainted themselves if they matter).
func safeValue(w *syntax.Word) bool {
	if w == nil {
		return true
	}
	for _, part := range w.Parts {
		if !safeValuePart(part) {
			return false
		}
	}
	return true
}

func safeValuePart(part syntax.WordPart) bool {
	switch p := part.(type) {
	case *syntax.Lit:
		return !strings.ContainsAny(p.Value, "[")
	case *syntax.SglQuoted:
		if p.Dollar {
			s, ok := decodeANSIC(p.Value)
			return ok && !strings.ContainsAny(s, "[")
		}
		return !strings.ContainsAny(p.Value, "[")
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if !safeValuePart(q) {
				return false
			}
		}
		return true
	case *syntax.ArithmExp:
		return true
	case *syntax.ParamExp:
		if p.Param == nil || unsafeArithNames[p.Param.Value] || isPositional(p.Param.Value) {
			return false
		}
		return !p.Excl && p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Names == 0 && len(p.Modifiers) == 0
	}
	return false
}

func wordText(lv *level, w *syntax.Word) string {
	if start, end := w.Pos().Offset(), w.End().Offset(); start <= end && int(end) <= len(lv.src) {
		return lv.src[start:end]
	}
	return "?"
}

// arithVerdict adds the part that arithmetic on a tainted variable needs, once the command is walked.
func (c *classifier) arithVerdict() {
	if c.tainted == "" || len(c.arithRefs) == 0 {
		return
	}
	r := c.arithRefs[0]
	c.fail(r.text, fmt.Sprintf("`%s` %s, and %s", r.name, arithRisk, c.tainted))
}

// isAllIndex reports whether a subscript is @ or *, which lists keys or elements without evaluating.
func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || w == nil {
		return false
	}
	lit := w.Lit()
	return lit == "@" || lit == "*"
}
