package permissions

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// treeRead is a directory a command reads recursively (grep -r, rg): every file below it is read, so a
// secret below it is read and a Read rule naming a file below it applies.
type treeRead struct {
	dir string
	// hidden is true when files and directories whose names start with a dot are read too.
	hidden bool
	// include, if not empty, limits the files read to base names matching one of these globs; exclude
	// and excludeDir leave files and directories out.
	include, exclude, excludeDir []string
	// split is set when xargs splits the names at blanks and removes quotes: a name holding one of those
	// would become other names (`x .env y.go`), so finding one asks.
	split bool
	// tracked, with index set, are the files (relative to the repository's top, repo) that git reads:
	// a read of what git tracks looks for secrets among them instead of walking the directory.
	tracked []string
	repo    string
	index   bool
}

// maxTreeWalk bounds how many entries Warden looks at below recursively read directories, per command, to
// find secrets. A secret deeper in a bigger tree is not seen: the bound keeps classifying fast.
const maxTreeWalk = 4000

// treeRead records a recursive read of root and looks below it for files that hold secrets.
func (e *exec) treeRead(root string, t treeRead) {
	sc := e.scope()
	path := e.c.abs(root, sc)
	if !filepath.IsAbs(path) {
		e.p.notRO("reads `" + root + "` in a directory Warden lost track of")
		return
	}
	path = ResolvePath("/", path, e.c.ctx.Home)
	t.dir = path
	e.p.trees = append(e.p.trees, t)
	if e.p.Secret {
		return
	}
	if t.index {
		for _, f := range t.tracked {
			p := filepath.Join(t.repo, f)
			if within(path, p) && isSecretPath(p, e.c.ctx.Home) {
				e.c.read(e.p, p, sc)
				return
			}
		}
		return
	}
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		e.c.walked++
		if err != nil || e.c.walked > maxTreeWalk {
			return fs.SkipAll
		}
		name := d.Name()
		if p != path && (!t.hidden && strings.HasPrefix(name, ".") || d.IsDir() && (name == ".git" || matchAny(t.excludeDir, name))) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if t.split && p != path && (d.IsDir() || !matchAny(t.exclude, name) && (len(t.include) == 0 || matchAny(t.include, name))) &&
			strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
			e.p.notRO(fmt.Sprintf("`%s` has a blank or quote in its name, which xargs splits", p))
			return fs.SkipAll
		}
		if d.IsDir() || matchAny(t.exclude, name) || len(t.include) > 0 && !matchAny(t.include, name) {
			return nil
		}
		if isSecretPath(p, e.c.ctx.Home) {
			e.c.read(e.p, p, sc)
			return fs.SkipAll
		}
		return nil
	})
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := filepath.Match(g, name); ok {
			return true
		}
	}
	return false
}

// mayMatchUnder reports whether a path rule may name a file that a recursive read of t reads.
func (r *Rule) mayMatchUnder(t treeRead) bool {
	if r.pathGlob == "" {
		return false
	}
	if r.matchPath(t.dir) {
		return true
	}
	// The literal start of the pattern, up to its first wildcard.
	var b strings.Builder
	wild := false
	for i := 0; i < len(r.pathGlob); i++ {
		c := r.pathGlob[i]
		if c == '\\' && i+1 < len(r.pathGlob) {
			i++
			b.WriteByte(r.pathGlob[i])
			continue
		}
		if strings.IndexByte("*?[{", c) >= 0 {
			wild = true
			break
		}
		b.WriteByte(c)
	}
	lit := b.String()
	if wild {
		lit = filepath.Dir(lit + "x")
	}
	lit = filepath.Clean(lit)
	if !within(t.dir, lit) && !within(lit, t.dir) {
		return false
	}
	if rel, err := filepath.Rel(t.dir, lit); err == nil && !t.hidden {
		for _, comp := range strings.Split(rel, "/") {
			if strings.HasPrefix(comp, ".") && comp != "." && comp != ".." {
				return false
			}
		}
	}
	if base := filepath.Base(r.pathGlob); !wild && len(t.include) > 0 && !matchAny(t.include, base) {
		return false
	}
	if wild && len(t.include) > 0 {
		// `find . -name '*.go'` reads only files of those names: look for one the rule names.
		return r.namesFileUnder(t, lit)
	}
	return true
}

// namesFileUnder walks, within maxTreeWalk entries, the part of a recursive read that lies below lit (the
// literal start of the rule's pattern) for a file the read takes in and the rule names. Past the bound
// it answers true.
func (r *Rule) namesFileUnder(t treeRead, lit string) bool {
	root := t.dir
	if within(t.dir, lit) {
		root = lit
	}
	found, walked := false, 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		walked++
		if walked > maxTreeWalk {
			found = true
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		name := d.Name()
		if p != t.dir && (!t.hidden && strings.HasPrefix(name, ".") || d.IsDir() && matchAny(t.excludeDir, name)) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || matchAny(t.exclude, name) || !matchAny(t.include, name) {
			return nil
		}
		if r.matchPath(p) {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// walkGrep finds the directories grep reads recursively.
func walkGrep(e *exec, a *parsedArgs) {
	recursive := false
	var t treeRead
	t.hidden = true
	// Options that widen what is read count in any spelling grep accepts (`--recur`, `-d rec`); the
	// ones that narrow it count only when spelled out.
	recursive = a.hasOpt("-r", "-R", "--recursive", "--dereference-recursive")
	for _, f := range a.flags {
		if f.name == "-d" || len(f.name) > 3 && strings.HasPrefix("--directories", f.name) {
			recursive = recursive || f.value != "read" && f.value != "skip"
		}
		switch f.name {
		case "--include":
			t.include = append(t.include, f.value)
		case "--exclude":
			t.exclude = append(t.exclude, f.value)
		case "--exclude-dir":
			t.excludeDir = append(t.excludeDir, f.value)
		}
	}
	if recursive {
		e.trees(a, t)
	}
}

// walkRg: rg always recurses, skipping hidden files unless told otherwise.
func walkRg(e *exec, a *parsedArgs) {
	var t treeRead
	for _, f := range a.flags {
		switch {
		case f.name == "--hidden" || f.name == "-." || f.name == "--unrestricted":
			t.hidden = true
		case f.name == "-u":
			// -u is --no-ignore; -uu adds --hidden.
			n := 0
			for _, g := range a.flags {
				if g.name == "-u" {
					n++
				}
			}
			t.hidden = t.hidden || n >= 2
		case f.name == "-g" || f.name == "--glob" || f.name == "--iglob":
			switch {
			case strings.HasPrefix(f.value, "!"):
				t.exclude = append(t.exclude, strings.TrimPrefix(f.value, "!"))
			case strings.Contains(f.value, "/"):
				t.include = append(t.include, "*")
			default:
				t.include = append(t.include, f.value)
			}
		}
	}
	if !a.has("--files", "--type-list") {
		e.trees(a, t)
	}
}

// trees records the recursive reads of a search command's operands after the pattern, or of `.`.
func (e *exec) trees(a *parsedArgs, t treeRead) {
	ops := a.operands
	if len(ops) > 0 && !a.has("-e", "-f", "--regexp", "--file") {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		e.treeRead(".", t)
		return
	}
	for _, o := range ops {
		if !o.Static || o.Value == "-" {
			continue
		}
		names := []string{o.Value}
		if o.Glob {
			var ok bool
			if names, ok = e.c.expandGlob(o.Value, e.scope()); !ok {
				continue
			}
		}
		for _, n := range names {
			e.treeRead(n, t)
		}
	}
}

// walkDiff: diff compares the files of a directory operand with those of the other operand, below it too
// with -r, and -N prints a file missing on the other side whole. Every file below a directory operand may
// be read.
func walkDiff(e *exec, a *parsedArgs) {
	for _, o := range a.operands {
		if !o.Static || o.Glob {
			continue
		}
		if fi, err := os.Stat(e.c.abs(o.Value, e.scope())); err == nil && fi.IsDir() {
			e.treeRead(o.Value, treeRead{hidden: true})
		}
	}
}
