package permissions

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"mvdan.cc/sh/v3/syntax"
)

// assignSubs classifies what an assignment runs while it is evaluated: its subscript, its value and the
// elements of an array value. A `declare` and a plain `x=1` share it.
func (c *classifier) assignSubs(lv *shell.Level, n syntax.Node, a *syntax.Assign, sc *shell.Scope) {
	if a.Index != nil {
		c.arithm(lv, n, a.Index, sc)
	}
	c.wordSubs(lv, a.Value, sc)
	if a.Array == nil {
		return
	}
	for _, e := range a.Array.Elems {
		c.arithm(lv, n, e.Index, sc)
		c.wordSubs(lv, e.Value, sc)
		if !shell.SafeValue(e.Value) {
			c.Taint("an array is assigned a value only known at run time")
		}
	}
}

// call classifies one simple command with its redirections.
func (c *classifier) call(lv *shell.Level, s *syntax.Stmt, call *syntax.CallExpr, sc *shell.Scope) {
	p := shell.Part{Text: lv.Text(s), ReadOnly: true, Static: true}
	// `IFS= read -r line` sets IFS for read alone, which only changes how it splits the line.
	// A function named read would run its body with that IFS, which was judged with the usual one.
	// Classify checks at the end that no function of that name was defined.
	readIFS := len(call.Args) > 0 && call.Args[0].Lit() == "read"
	if readIFS {
		c.readIFS = lv.Text(s)
	}
	for _, a := range call.Assigns {
		c.assignSubs(lv, s, a, sc)
		if a.Name != nil {
			if reason := shell.SensitiveVar(a.Name.Value); reason != "" && !(readIFS && a.Name.Value == "IFS") {
				// A rule for the program does not cover it running with another PATH or LD_PRELOAD.
				p.ActsItself = true
				p.SensitiveAssign(a.Name.Value, reason)
			}
			if !shell.SafeValue(a.Value) {
				c.Taint(fmt.Sprintf("`%s` is assigned a value only known at run time", a.Name.Value))
			}
		}
	}
	for _, w := range call.Args {
		c.wordSubs(lv, w, sc)
	}
	var stdin *shell.Word
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			// `bash 3<<<ls <<<'rm x'` runs what fd 0 holds, not fd 3. Another descriptor's input is
			// not stdin, but makes what stdin is less certain.
			if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
				continue
			}
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			w := shell.HeredocBody(r, lv.Src)
			stdin = &w
		case syntax.WordHdoc:
			w := shell.ResolveWord(r.Word, c.Ctx.Home, sc.Cwd)
			stdin = &w
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut:
			stdin = nil
		}
	}
	words := make([]shell.Word, len(call.Args))
	for i, w := range call.Args {
		words[i] = c.resolve(lv, w, sc)
	}
	c.execFDs = len(words) == 1 && words[0].Static && words[0].Value == "exec"
	c.redirects(lv, s.Redirs, sc, &p)
	c.execFDs = false
	if len(words) > 0 {
		e := &shell.Exec{S: &c.State, Lv: lv, Sc: sc, P: &p, Stdin: stdin}
		for _, a := range call.Assigns {
			if a.Name == nil || a.Index != nil || a.Array != nil {
				continue
			}
			v := shell.Word{Static: true}
			if a.Value != nil {
				v = c.resolve(lv, a.Value, sc)
			}
			if a.Append {
				old, _ := e.LookupEnv(a.Name.Value)
				v.Value = old + v.Value
			}
			if v.Static {
				e.SetEnv(a.Name.Value, v.Value)
			}
		}
		c.run(e, words)
	}
	for _, name := range p.EnvModel {
		p.Unsee(shell.UnseenProgramEnv, fmt.Sprintf("sets `%s` for a program that is not the one reading it as its options", name))
	}
	if c.untrusted != "" {
		p.Unsee(shell.UnseenForeignBody, c.untrusted)
		p.Static = false
	}
	if !p.ReadOnly && p.Reason == "" {
		p.Reason = fmt.Sprintf("`%s` is not read-only", p.Text)
	}
	c.Parts = append(c.Parts, p)
}

// redirects applies a statement's redirections to its part: writes to anything but /dev/null and fd
// duplications are writes; input redirections are reads.
func (c *classifier) redirects(lv *shell.Level, rs []*syntax.Redirect, sc *shell.Scope, p *shell.Part) {
	// opened are the descriptors earlier redirections of this command set; `exec 3>&1` keeps them for
	// the rest of the command.
	opened := map[string]bool{}
	prev := ""
	defer func() {
		opened[prev] = true
		if c.execFDs {
			for n := range opened {
				c.fds[n] = true
			}
		}
	}()
	for _, r := range rs {
		opened[prev] = true
		prev = ""
		if r.N != nil {
			prev = r.N.Value
		}
		c.wordSubs(lv, r.Word, sc)
		if r.Hdoc != nil && !shell.HdocQuoted(r) {
			// A quoted delimiter leaves the body as it is: nothing in it runs.
			c.wordSubs(lv, r.Hdoc, sc)
		}
		if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
			c.assignName(lv, r, strings.Trim(r.N.Value, "{}"))
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue
		}
		w := c.resolve(lv, r.Word, sc)
		switch r.Op {
		case syntax.RdrIn:
			if !w.Static {
				// Not read-only, but a path the promise can judge (shell/loose.go).
				p.Effect(fmt.Sprintf("reads `%s`, only known at run time", w.Value))
				e := &shell.Exec{S: &c.State, Sc: sc, P: p}
				p.Loose = append(p.Loose, e.LoosePath(w, shell.Reading))
				continue
			}
			for _, name := range c.redirectNames(p, w, sc) {
				if isNetPath(c.Abs(name, sc)) {
					p.NotRO(fmt.Sprintf("`< %s` opens a network connection", w.Value))
					continue
				}
				c.Read(p, name, sc)
			}
		case syntax.DplIn, syntax.DplOut:
			if w.Static && w.Value == "-" {
				continue
			}
			if w.Static && isFD(w.Value) {
				// Descriptors 0-2 are the command's own; a higher one this command did not open is one
				// Warden's shell holds (it reports the final directory on fd 3).
				if n := strings.TrimSuffix(w.Value, "-"); len(n) > 1 || n[0] > '2' {
					if !opened[n] && !c.fds[n] {
						p.NotRO(fmt.Sprintf("uses file descriptor %s, which the command did not open", n))
					}
				}
				continue
			}
			if r.Op == syntax.DplIn {
				p.NotRO(fmt.Sprintf("duplicates from `%s`", w.Value))
				continue
			}
			c.write(p, w, sc)
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			if w.Static && isNetPath(c.Abs(w.Value, sc)) {
				p.NotRO(fmt.Sprintf("`%s %s` opens a network connection", r.Op, w.Value))
				continue
			}
			c.write(p, w, sc)
		default:
			p.NotRO(fmt.Sprintf("redirection `%s` is not checked", r.Op))
		}
	}
}

// harmlessSinks are the files a redirection may write without changing anything.
var harmlessSinks = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
	"/dev/fd/1": true, "/dev/fd/2": true,
}

func (c *classifier) write(p *shell.Part, w shell.Word, sc *shell.Scope) {
	if !w.Static {
		// Not an edit of known files, but a path the promise can judge (shell/loose.go).
		p.Effect(fmt.Sprintf("writes to `%s`, only known at run time", w.Value))
		p.Writes = append(p.Writes, w.Value)
		p.RedirWrites = append(p.RedirWrites, w.Value)
		e := &shell.Exec{S: &c.State, Sc: sc, P: p}
		p.Loose = append(p.Loose, e.LoosePath(w, shell.Writing))
		return
	}
	for _, name := range c.redirectNames(p, w, sc) {
		if harmlessSinks[name] {
			continue
		}
		path := c.Abs(name, sc)
		if shell.IsBlockDevice(path) {
			p.Dangerous = true
			p.NotRO(fmt.Sprintf("writes to the disk device `%s`", name))
			continue
		}
		if w.Glob {
			p.Effect(fmt.Sprintf("writes to `%s`, a pattern bash expands", w.Value))
		}
		p.WriteFile(name, path)
		p.RedirWrites = append(p.RedirWrites, path)
	}
}

// redirectNames returns what bash opens for a redirection's word: a pattern is expanded (one match is
// the file; more make bash refuse the redirection, and each counts all the same), the word itself
// otherwise.
func (c *classifier) redirectNames(p *shell.Part, w shell.Word, sc *shell.Scope) []string {
	if !w.Glob {
		return []string{w.Value}
	}
	names, ok := c.ExpandGlob(w.Value, sc)
	if !ok {
		p.NotRO(fmt.Sprintf("`%s` could not be expanded to check it", w.Value))
		return nil
	}
	return names
}

// isNetPath reports whether bash opens a socket for a redirection to path.
func isNetPath(path string) bool {
	return strings.HasPrefix(path, "/dev/tcp/") || strings.HasPrefix(path, "/dev/udp/")
}

func isFD(s string) bool {
	if s == "" {
		return false
	}
	s = strings.TrimSuffix(s, "-")
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
