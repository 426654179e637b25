package shell

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

// UnsafeArithNames are variables that bash fills with text the command chose: the last argument of the
// previous command, regex matches, the arguments of the script, input lines.
var UnsafeArithNames = map[string]bool{
	"_": true, "REPLY": true, "OPTARG": true, "BASH_REMATCH": true, "BASH_ARGV": true, "BASH_COMMAND": true,
	"BASH_EXECUTION_STRING": true, "MAPFILE": true, "COMPREPLY": true, "FUNCNAME": true, "BASH_SOURCE": true,
	"READLINE_LINE": true, "@": true, "*": true, "0": true,
}

// NumericParams are special parameters that always hold a number.
var NumericParams = map[string]bool{"#": true, "?": true, "$": true, "!": true}

const ArithRisk = "is evaluated as arithmetic, where an array subscript in its value runs commands"

func IsIdent(s string) bool {
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

func IsPositional(name string) bool {
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

// Taint records that the command gives a variable a value that may hold an array subscript.
func (c *State) Taint(why string) {
	if c.Tainted == "" {
		c.Tainted = why
	}
}

// VarNameOperand judges a variable name given to a builtin as a word (printf -v, test -v, unset, wait -p,
// declare 'a[i]=x'): a subscript in it is evaluated, so only a number or @/* may be there.
func VarNameOperand(w Word) string {
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
	return fmt.Sprintf("the subscript of `%s` %s", name, ArithRisk)
}

// SafeValue reports whether a value assigned to a variable is plain text that cannot hold an array
// subscript: literal words and quotes without `[`, numbers from arithmetic, and plain copies of other
// variables (which are tainted themselves if they matter).
func SafeValue(w *syntax.Word) bool {
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
		if p.Param == nil || UnsafeArithNames[p.Param.Value] || IsPositional(p.Param.Value) {
			return false
		}
		return !p.Excl && p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Names == 0 && len(p.Modifiers) == 0
	}
	return false
}

// IsAllIndex reports whether a subscript is @ or *, which lists keys or elements without evaluating.
func IsAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || w == nil {
		return false
	}
	lit := w.Lit()
	return lit == "@" || lit == "*"
}
