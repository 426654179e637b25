package permissions

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// A function's body runs where the function is called, not where it was defined: `g() { cp key.txt
// /tmp/o; }; cd secrets; g` copies secrets/key.txt. A body is judged where it is defined (classify.go);
// a call in another directory judges it again there, in the calling shell, so that its cd moves the
// caller. A call of a function bash may or may not have defined is judged as the program of its name,
// and the body is read there as well, for deny and ask rules only.

// maxFunctionCalls bounds how many bodies one command makes Warden judge again.
const maxFunctionCalls = 64

// callFunction judges the body of the function name where it is called, in sc. untrusted, when set,
// says why its parts are read for deny and ask rules only.
func (c *classifier) callFunction(name string, fn funcDef, sc *scope, untrusted string) {
	if fn.body == nil || fn.lv == nil {
		return
	}
	if c.calling[name] {
		c.fail(fn.lv.text(fn.body), fmt.Sprintf("the function `%s` calls itself", name))
		return
	}
	c.calls++
	if c.calls > maxFunctionCalls {
		c.fail(fn.lv.text(fn.body), "the command calls functions too often to follow each call")
		return
	}
	if c.calling == nil {
		c.calling = map[string]bool{}
	}
	c.calling[name] = true
	defer delete(c.calling, name)
	if untrusted != "" {
		before := c.untrusted
		c.untrusted = untrusted
		defer func() { c.untrusted = before }()
	}
	c.stmts(fn.lv, []*syntax.Stmt{fn.body}, sc)
}
