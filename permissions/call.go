package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxGlobMatches bounds how many file names a glob operand is expanded to for checking; beyond it the
// operand is not read-only, since Warden could not look at every name.
const maxGlobMatches = 2000

// assignSubs classifies what an assignment runs while it is evaluated: its subscript, its value and the
// elements of an array value. A `declare` and a plain `x=1` share it.
func (c *classifier) assignSubs(lv *level, n syntax.Node, a *syntax.Assign, sc *scope) {
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
		if !safeValue(e.Value) {
			c.taint("an array is assigned a value only known at run time")
		}
	}
}

// call classifies one simple command with its redirections.
func (c *classifier) call(lv *level, s *syntax.Stmt, call *syntax.CallExpr, sc *scope) {
	p := Part{Text: lv.text(s), ReadOnly: true, Static: true}
	// `IFS= read -r line` sets IFS for read alone, which only changes how it splits the line.
	// A function named read would run its body with that IFS, which was judged with the usual one.
	// Classify checks at the end that no function of that name was defined.
	readIFS := len(call.Args) > 0 && call.Args[0].Lit() == "read"
	if readIFS {
		c.readIFS = lv.text(s)
	}
	for _, a := range call.Assigns {
		c.assignSubs(lv, s, a, sc)
		if a.Name != nil {
			if reason := sensitiveVar(a.Name.Value); reason != "" && !(readIFS && a.Name.Value == "IFS") {
				// A rule for the program does not cover it running with another PATH or LD_PRELOAD.
				p.actsItself = true
				p.sensitiveAssign(a.Name.Value, reason)
			}
			if !safeValue(a.Value) {
				c.taint(fmt.Sprintf("`%s` is assigned a value only known at run time", a.Name.Value))
			}
		}
	}
	for _, w := range call.Args {
		c.wordSubs(lv, w, sc)
	}
	var stdin *word
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
			w := heredocBody(r, lv.src)
			stdin = &w
		case syntax.WordHdoc:
			w := resolveWord(r.Word, c.ctx.Home, sc.cwd)
			stdin = &w
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut:
			stdin = nil
		}
	}
	words := make([]word, len(call.Args))
	for i, w := range call.Args {
		words[i] = c.resolve(lv, w, sc)
	}
	c.execFDs = len(words) == 1 && words[0].Static && words[0].Value == "exec"
	c.redirects(lv, s.Redirs, sc, &p)
	c.execFDs = false
	if len(words) > 0 {
		e := &exec{c: c, lv: lv, sc: sc, p: &p, stdin: stdin}
		for _, a := range call.Assigns {
			if a.Name == nil || a.Index != nil || a.Array != nil {
				continue
			}
			v := word{Static: true}
			if a.Value != nil {
				v = c.resolve(lv, a.Value, sc)
			}
			if a.Append {
				old, _ := e.lookupEnv(a.Name.Value)
				v.Value = old + v.Value
			}
			if v.Static {
				e.setEnv(a.Name.Value, v.Value)
			}
		}
		e.run(words)
	}
	for _, name := range p.envModel {
		p.unsee(unseenProgramEnv, fmt.Sprintf("sets `%s` for a program that is not the one reading it as its options", name))
	}
	if c.untrusted != "" {
		p.unsee(unseenForeignBody, c.untrusted)
		p.Static = false
	}
	if !p.ReadOnly && p.Reason == "" {
		p.Reason = fmt.Sprintf("`%s` is not read-only", p.Text)
	}
	c.parts = append(c.parts, p)
}

// notRO marks the part as not read-only, keeping the first reason found. What is not read-only is not
// modelled either, unless the caller knows it is (effect) or the program's model accounts for it
// (model.go): "not modelled" is the default, so that nothing Warden does not follow is allowed by yolo
// or an allow rule while deny or ask rules are in force.
func (p *Part) notRO(reason string) {
	p.effect(reason)
	p.unmodel(reason)
}

// effect marks the part as not read-only for an effect Warden models in full: a write of a known file,
// a change of directory it follows.
func (p *Part) effect(reason string) {
	if p.ReadOnly || p.Reason == "" {
		p.Reason = reason
	}
	p.ReadOnly = false
	p.EditOnly = false
	p.marks++
}

// unmodel records that Warden's model of the part ends here, for why, keeping the first reason.
func (p *Part) unmodel(why string) {
	if p.unmodelled == "" {
		p.unmodelled = why
	}
}

// redirects applies a statement's redirections to its part: writes to anything but /dev/null and fd
// duplications are writes; input redirections are reads.
func (c *classifier) redirects(lv *level, rs []*syntax.Redirect, sc *scope, p *Part) {
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
		if r.Hdoc != nil && !hdocQuoted(r) {
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
				// Not read-only, but a path the promise can judge (loose.go).
				p.effect(fmt.Sprintf("reads `%s`, only known at run time", w.Value))
				e := &exec{c: c, sc: sc, p: p}
				p.loose = append(p.loose, e.loosePath(w, Read))
				continue
			}
			for _, name := range c.redirectNames(p, w, sc) {
				if isNetPath(c.abs(name, sc)) {
					p.notRO(fmt.Sprintf("`< %s` opens a network connection", w.Value))
					continue
				}
				c.read(p, name, sc)
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
						p.notRO(fmt.Sprintf("uses file descriptor %s, which the command did not open", n))
					}
				}
				continue
			}
			if r.Op == syntax.DplIn {
				p.notRO(fmt.Sprintf("duplicates from `%s`", w.Value))
				continue
			}
			c.write(p, w, sc)
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			if w.Static && isNetPath(c.abs(w.Value, sc)) {
				p.notRO(fmt.Sprintf("`%s %s` opens a network connection", r.Op, w.Value))
				continue
			}
			c.write(p, w, sc)
		default:
			p.notRO(fmt.Sprintf("redirection `%s` is not checked", r.Op))
		}
	}
}

// harmlessSinks are the files a redirection may write without changing anything.
var harmlessSinks = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
	"/dev/fd/1": true, "/dev/fd/2": true,
}

func (c *classifier) write(p *Part, w word, sc *scope) {
	if !w.Static {
		// Not an edit of known files, but a path the promise can judge (loose.go).
		p.effect(fmt.Sprintf("writes to `%s`, only known at run time", w.Value))
		p.Writes = append(p.Writes, w.Value)
		p.redirWrites = append(p.redirWrites, w.Value)
		e := &exec{c: c, sc: sc, p: p}
		p.loose = append(p.loose, e.loosePath(w, Write))
		return
	}
	for _, name := range c.redirectNames(p, w, sc) {
		if harmlessSinks[name] {
			continue
		}
		path := c.abs(name, sc)
		if isBlockDevice(path) {
			p.Dangerous = true
			p.notRO(fmt.Sprintf("writes to the disk device `%s`", name))
			continue
		}
		if w.Glob {
			p.effect(fmt.Sprintf("writes to `%s`, a pattern bash expands", w.Value))
		}
		p.writeFile(name, path)
		p.redirWrites = append(p.redirWrites, path)
	}
}

// redirectNames returns what bash opens for a redirection's word: a pattern is expanded (one match is
// the file; more make bash refuse the redirection, and each counts all the same), the word itself
// otherwise.
func (c *classifier) redirectNames(p *Part, w word, sc *scope) []string {
	if !w.Glob {
		return []string{w.Value}
	}
	names, ok := c.expandGlob(w.Value, sc)
	if !ok {
		p.notRO(fmt.Sprintf("`%s` could not be expanded to check it", w.Value))
		return nil
	}
	return names
}

// read records a file the part reads and whether it is a secret. A file in a git object store is a read
// of the repository's history, and a file with other names (hard links) is read under each of them.
func (c *classifier) read(p *Part, operand string, sc *scope) {
	c.readOne(p, operand, c.abs(operand, sc), sc, true)
}

func (c *classifier) readOne(p *Part, operand, path string, sc *scope, links bool) {
	c.readJudged(p, operand, path, sc, links, isSecretPath)
}

// readJudged is readOne judging secrets with secret: a program that prints only some of a file (git
// config of one name) judges the file by its name and what it prints by itself.
func (c *classifier) readJudged(p *Part, operand, path string, sc *scope, links bool, secret func(path, home string) bool) {
	if !filepath.IsAbs(path) && operand != "-" && operand != "" {
		// Read rules could not be matched against it (after popd, or a cd in a branch that may not run).
		p.notRO(fmt.Sprintf("reads `%s` in a directory Warden lost track of", operand))
	}
	p.Reads = append(p.Reads, path)
	isSecret := secret(path, c.ctx.Home) || secret(operand, c.ctx.Home)
	if !isSecret && filepath.IsAbs(path) {
		// A link is read where it leads: `notes.txt -> ~/.ssh/id_rsa` is the key.
		if real := c.resolved(path); real != path && secret(real, c.ctx.Home) {
			p.Reads = append(p.Reads, real)
			isSecret = true
			if !p.Secret && p.ReadOnly {
				p.Secret = true
				p.Reason = fmt.Sprintf("reads `%s`, a link to `%s`, which may hold secrets", c.shownPath(operand), c.shownPath(real))
			}
		}
	}
	if isSecret {
		if !p.Secret {
			p.Secret = true
			if p.ReadOnly {
				p.Reason = fmt.Sprintf("reads `%s`, which may hold secrets", c.shownPath(operand))
			}
		}
	}
	if !filepath.IsAbs(path) {
		return
	}
	if strings.Contains(path, "/objects") || strings.Contains(path, "/.git") {
		if r, ok := objectStore(ResolvePath("/", path, "")); ok {
			c.objectRead(p, r, operand)
		}
	}
	if links {
		c.hardLinks(p, path, sc)
	}
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

// maxGlobReads bounds how many directories one glob operand may make Warden list: a pattern such as
// /*/*/*/* would otherwise walk the whole machine before every command.
const maxGlobReads = 64

// expandGlob returns what bash would put in place of a glob operand, or the pattern itself when nothing
// matches (bash's default). ok is false when the matches could not all be listed within the bounds.
// Unlike bash's default, names starting with a dot match too: `shopt -s dotglob` may be in effect.
func (c *classifier) expandGlob(pattern string, sc *scope) (names []string, ok bool) {
	abs := pattern
	if !filepath.IsAbs(pattern) {
		if sc.cwd == "" {
			return nil, false
		}
		abs = sc.cwd + "/" + pattern
	}
	comps := strings.Split(abs, "/")[1:]
	cands := []string{"/"}
	reads := 0
	for _, comp := range comps {
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			// The kernel applies `..` after the links before it: lnk/../.e* lists the link target's parent.
			for i := range cands {
				cands[i] = filepath.Dir(ResolvePath("/", cands[i], ""))
			}
			continue
		}
		if !strings.ContainsAny(comp, "*?[") {
			for i := range cands {
				cands[i] = filepath.Join(cands[i], comp)
			}
			continue
		}
		if _, err := filepath.Match(comp, ""); err != nil {
			return nil, false
		}
		var next []string
		for _, dir := range cands {
			reads++
			if reads > maxGlobReads {
				return nil, false
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if m, _ := filepath.Match(comp, e.Name()); m {
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
			if len(next) > maxGlobMatches {
				return nil, false
			}
		}
		cands = next
	}
	var matches []string
	for _, m := range cands {
		if _, err := os.Lstat(m); err == nil {
			matches = append(matches, m)
		}
	}
	if len(matches) == 0 {
		return []string{pattern}, true
	}
	return matches, true
}

// writeFile records a known file write. A part whose only effect so far is writing known files stays
// EditOnly, so accept-edits mode and Edit/Write rules can allow it.
func (p *Part) writeFile(shown, path string) {
	editOnly := p.ReadOnly || p.EditOnly
	p.effect(fmt.Sprintf("writes to `%s`", shown))
	p.EditOnly = editOnly
	p.Writes = append(p.Writes, path)
}

// hdocQuoted reports whether a here-document's delimiter is quoted in any part (`'EOF'`, `\EOF`,
// `E'O'F`): bash then feeds the body as it is written, expanding nothing.
func hdocQuoted(r *syntax.Redirect) bool {
	if r.Word == nil {
		return false
	}
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// heredocBody is the text bash feeds from a here-document. With a quoted delimiter the body is literal
// (taken from the source, since the parser may have read expansions into it); otherwise a backslash only
// escapes $, `, \ and a newline, and any expansion makes the body unknown.
func heredocBody(r *syntax.Redirect, src string) word {
	out := word{Static: true}
	if r.Hdoc == nil {
		return out
	}
	quoted := hdocQuoted(r)
	allLit := true
	for _, p := range r.Hdoc.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			allLit = false
		}
	}
	if quoted && !allLit {
		// The parser read expansions into a body bash leaves alone (`<<E'O'F`): take the source, up to
		// the delimiter's line.
		start, end := r.Hdoc.Pos().Offset(), r.Hdoc.End().Offset()
		if start > end || int(end) > len(src) {
			out.Static = false
			return out
		}
		body := src[start:end]
		delim := resolveWord(r.Word, "", "").Value
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if n := len(lines); n > 0 && strings.TrimLeft(lines[n-1], "\t") == delim {
			lines = lines[:n-1]
		}
		out.Value = strings.Join(lines, "\n")
		if len(lines) > 0 {
			out.Value += "\n"
		}
		return out
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			out.Static = false
			continue
		}
		if quoted {
			b.WriteString(lit.Value)
			continue
		}
		v := lit.Value
		for i := 0; i < len(v); i++ {
			if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\\\n", v[i+1]) >= 0 {
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
				continue
			}
			b.WriteByte(v[i])
		}
	}
	out.Value = b.String()
	return out
}
