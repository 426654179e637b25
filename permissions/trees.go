package permissions

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/ignore"
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
	// follow is set when symbolic links below dir are followed (grep -R, rg -L): a denied directory may
	// then be read under another name, and excludeDir does not keep it out.
	follow bool
	// split is set when xargs splits the names at blanks and removes quotes: a name holding one of those
	// would become other names (`x .env y.go`), so finding one asks. subst is set when the names come
	// out of a command substitution, split at blanks and expanded as globs: a blank, a wildcard or a
	// leading dash asks.
	split, subst bool
	// rg, for ripgrep, is what decides which entries it searches (rgwalk.go); nil for other programs.
	rg *rgRules
	// grepGlobs are grep's --include and --exclude in order, when any was given (grepTakes).
	grepGlobs []grepGlob
	// named is set when the names found are handed to a program that opens them (find -exec, xargs, a
	// command substitution): links are followed to what they point to.
	named bool
	// home is the home directory, for listings.
	home string
	// tracked, with index set, are the files (relative to the repository's top, repo) that git reads,
	// from its index and its history: a read of what git holds looks for secrets among them instead of
	// walking the directory.
	tracked []string
	repo    string
	index   bool
}

// maxTreeWalk bounds how many entries Warden looks at below recursively read directories, per command, to
// find secrets. A read of a bigger tree asks: a secret past the bound would not be seen. Listings are
// cached (walk.go), so the bound is about time on a first look, not on every command.
var maxTreeWalk = 200000

// treeRead records a recursive read of root and looks below it for files that hold secrets.
func (e *exec) treeRead(root string, t treeRead) {
	sc := e.scope()
	path := e.c.abs(root, sc)
	if !filepath.IsAbs(path) {
		e.p.notRO("reads `" + root + "` in a directory Warden lost track of")
		return
	}
	path = e.c.resolved(path)
	t.dir = path
	t.home = e.c.ctx.Home
	e.p.trees = append(e.p.trees, t)
	if r, ok := objectStore(path); ok {
		e.c.objectRead(e.p, r, root)
	}
	if e.p.Secret {
		return
	}
	if t.index {
		var linked []string
		for _, f := range t.tracked {
			p := filepath.Join(t.repo, f)
			if !within(path, p) {
				continue
			}
			if isSecretPath(p, e.c.ctx.Home) {
				e.c.read(e.p, p, sc)
				return
			}
			if t.opens() && !e.onDisk(p, root, &t, sc, &linked) {
				return
			}
		}
		e.c.hardLinksOf(e.p, linked, sc)
		return
	}
	e.walkTree(path, root, &t, sc)
}

// onDisk judges a name git lists that is handed to a program which opens it: what the work tree holds
// there may be a link, a directory (which a recursive program reads) or a file with other names. It
// returns false to stop.
func (e *exec) onDisk(p, root string, t *treeRead, sc *scope, linked *[]string) bool {
	dir, name := filepath.Dir(p), filepath.Base(p)
	if e.c.dirs == nil {
		e.c.dirs = map[string]string{}
	}
	real, ok := e.c.dirs[dir]
	if !ok {
		real = e.c.resolved(dir)
		e.c.dirs[dir] = real
	}
	if real != dir {
		// A directory on the way is a link: the name is read where it leads.
		e.c.read(e.p, p, sc)
		return !e.p.Secret
	}
	l := listDir(dir, e.c.ctx.Home)
	if l == nil {
		return true
	}
	i, found := slices.BinarySearchFunc(l.entries, name, func(en ignore.Entry, n string) int { return strings.Compare(en.Name(), n) })
	if !found {
		return true
	}
	switch en := l.entries[i]; {
	case en.IsDir():
		return e.walkDir(p, root, t, sc, nil, linked)
	case en.Type()&fs.ModeSymlink != 0:
		return e.followLink(p, root, t, sc, nil, linked)
	case l.secret[i]:
		e.c.read(e.p, p, sc)
		return false
	case l.multi[i]:
		*linked = append(*linked, p)
	}
	return true
}

// excludes reports whether one of the globs (grep --exclude, rg -g '!x', find's tests) surely matches
// name; includes whether one may. Go's matching agrees with fnmatch's except on [!...], [[:class:]] and
// a leading ] in a class: a glob holding those is taken to match for includes and not for excludes.
func excludes(globs []string, name string) bool {
	for _, g := range globs {
		if ok, err := filepath.Match(g, name); ok && err == nil && !fnmatchOnly(g) {
			return true
		}
	}
	return false
}

func includes(globs []string, name string) bool {
	for _, g := range globs {
		if ok, err := filepath.Match(g, name); ok || err != nil || fnmatchOnly(g) {
			return true
		}
	}
	return false
}

func fnmatchOnly(g string) bool {
	return strings.Contains(g, "[!") || strings.Contains(g, "[[") || strings.Contains(g, "[]") || strings.Contains(g, "[^]")
}

// mayMatchUnder reports whether a path rule may name a file that a recursive read of t reads.
func (r *Rule) mayMatchUnder(t treeRead) bool {
	if r.pathGlob == "" {
		return false
	}
	if t.index {
		// What git prints is known file by file.
		for _, f := range t.tracked {
			if p := filepath.Join(t.repo, f); within(t.dir, p) && r.matchPath(p) {
				return true
			}
		}
		return false
	}
	if r.matchPath(t.dir) {
		return true
	}
	for _, glob := range r.globs() {
		if r.mayMatchUnderAs(glob, t) {
			return true
		}
	}
	return false
}

// mayMatchUnderAs is mayMatchUnder for one form of the rule's pattern (Rule.globs).
func (r *Rule) mayMatchUnderAs(glob string, t treeRead) bool {
	// The literal start of the pattern, up to its first wildcard.
	var b strings.Builder
	wild := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		if c == '\\' && i+1 < len(glob) {
			i++
			b.WriteByte(glob[i])
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
	if !t.follow && t.ignoredBelow(lit) {
		// The program never reads it: hidden, or left out by its globs or an ignore file. A program
		// that follows links may reach it under another name.
		return false
	}
	// A directory below t.dir on the way to what the rule names that the read skips (grep --exclude-dir,
	// rg -g '!dir') keeps the rule's files out, unless links are followed. Without a wildcard, the last
	// component is the file itself.
	if rel, err := filepath.Rel(t.dir, lit); err == nil && within(t.dir, lit) && rel != "." && !t.follow && len(t.excludeDir) > 0 {
		comps := strings.Split(rel, "/")
		if !wild {
			comps = comps[:len(comps)-1]
		}
		for _, comp := range comps {
			if excludes(t.excludeDir, comp) {
				return false
			}
		}
	}
	narrowed := len(t.include) > 0 || len(t.exclude) > 0 || t.grepGlobs != nil
	if base := filepath.Base(glob); !wild && narrowed && !t.takes(base) {
		return false
	}
	if wild && (narrowed || t.rg != nil && !t.follow) {
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
	if t.rg != nil {
		walked := 0
		return r.rgNamesFileUnder(t, root, rgStateAt(root, t.home), &walked)
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
		if p != t.dir && (!t.hidden && strings.HasPrefix(name, ".") || d.IsDir() && excludes(t.excludeDir, name)) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !t.takes(name) {
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

// rgNamesFileUnder is namesFileUnder for rg, deciding each entry by its rules.
func (r *Rule) rgNamesFileUnder(t treeRead, dir string, rs *rgState, walked *int) bool {
	l := listDir(dir, t.home)
	if l == nil || rs == nil {
		return false
	}
	for _, en := range l.entries {
		if *walked++; *walked > maxTreeWalk {
			return true
		}
		name, p := en.Name(), dir+"/"+en.Name()
		if name == ".git" || !t.rg.reads(rs, p, name, en.IsDir()) {
			continue
		}
		if en.IsDir() {
			if r.rgNamesFileUnder(t, p, rs.child(p, t.home), walked) {
				return true
			}
			continue
		}
		if r.matchPath(p) {
			return true
		}
	}
	return false
}

// walkGrep finds the directories grep reads recursively.
func walkGrep(e *exec, a *parsedArgs) {
	recursive := false
	var t treeRead
	t.hidden = true
	// Options that widen what is read count in any spelling grep accepts (`--recur`, `-d rec`); the
	// ones that narrow it count only when spelled out.
	recursive = a.hasOpt("-r", "-R", "--recursive", "--dereference-recursive")
	t.follow = a.hasOpt("-R", "--dereference-recursive")
	for _, f := range a.flags {
		if f.name == "-d" || len(f.name) > 3 && abbreviates(f.name, "--directories") {
			recursive = recursive || f.value != "read" && f.value != "skip"
		}
		switch f.name {
		case "--include":
			t.grepGlobs = append(t.grepGlobs, grepGlob{glob: f.value, include: true})
		case "--exclude":
			t.grepGlobs = append(t.grepGlobs, grepGlob{glob: f.value})
		case "--exclude-dir":
			t.excludeDir = append(t.excludeDir, f.value)
		}
	}
	if recursive {
		e.trees(a, t)
	}
}

// grepGlob is one --include or --exclude of grep.
type grepGlob struct {
	glob    string
	include bool
}

// grepTakes decides a file name as GNU grep does: the last --include or --exclude matching it wins;
// when none matches, the file is read unless the first of them is an --include. A glob Go cannot match
// as fnmatch does is taken to match when it would take the file in, and not when it would leave it out.
func grepTakes(globs []grepGlob, name string) bool {
	for i := len(globs) - 1; i >= 0; i-- {
		g := globs[i]
		if fnmatchOnly(g.glob) {
			if g.include {
				return true
			}
			continue
		}
		if ok, err := filepath.Match(g.glob, name); err != nil {
			if g.include {
				return true
			}
		} else if ok {
			return g.include
		}
	}
	return !globs[0].include
}

// walkAg: ag searches recursively, honouring ignore files of its own kinds; Warden reads it as reading
// every file below its operands, hidden ones too.
func walkAg(e *exec, a *parsedArgs) {
	e.trees(a, treeRead{hidden: true, follow: a.hasOpt("-f", "--follow")})
}

// rgTypes are the file types of rg --type most used, with the globs ripgrep gives them.
var rgTypes = map[string][]string{
	"go": {"*.go"}, "py": {"*.py", "*.pyi"}, "python": {"*.py", "*.pyi"},
	"js": {"*.js", "*.mjs", "*.cjs", "*.jsx", "*.vue"}, "ts": {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"typescript": {"*.ts", "*.tsx", "*.cts", "*.mts"}, "rust": {"*.rs"}, "md": {"*.md", "*.markdown", "*.mdx", "*.mkd"},
	"markdown": {"*.md", "*.markdown", "*.mdx", "*.mkd"}, "json": {"*.json", "*.jsonl", "*.sarif"}, "yaml": {"*.yaml", "*.yml"},
	"toml": {"*.toml"}, "c": {"*.c", "*.h", "*.H"}, "cpp": {"*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"},
	"java": {"*.java", "*.jsp"}, "kotlin": {"*.kt", "*.kts"}, "rb": {"*.rb", "Gemfile", "*.gemspec", "Rakefile"},
	"ruby": {"*.rb", "Gemfile", "*.gemspec", "Rakefile"}, "sh": {"*.sh", "*.bash", "*.zsh", "*.ksh"},
	"html": {"*.html", "*.htm", "*.xhtml"}, "css": {"*.css", "*.scss", "*.sass", "*.less"}, "sql": {"*.sql", "*.psql"},
	"php": {"*.php", "*.phtml"}, "swift": {"*.swift"}, "lua": {"*.lua"}, "txt": {"*.txt"}, "proto": {"*.proto"},
	"make": {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"}, "docker": {"Dockerfile", "*.Dockerfile", "Dockerfile.*"},
	"vue": {"*.vue"}, "svelte": {"*.svelte"}, "zig": {"*.zig"}, "elixir": {"*.ex", "*.exs", "*.eex", "*.heex"},
	"csharp": {"*.cs"}, "cs": {"*.cs"}, "scala": {"*.scala", "*.sbt"}, "tf": {"*.tf", "*.tfvars"}, "xml": {"*.xml", "*.xsd"},
}

// walkRg: rg always recurses, deciding what it searches by its globs, ignore files, types and hidden
// names (rgwalk.go). With --files it prints the names instead, which a command substitution may hand
// to another program.
func walkRg(e *exec, a *parsedArgs) {
	t := treeRead{rg: &rgRules{cwd: e.scope().cwd, ignores: true}}
	r := t.rg
	foldAll := a.has("--glob-case-insensitive")
	uCount := 0
	for _, f := range a.flags {
		switch {
		case f.name == "--hidden" || f.name == "-." || f.name == "--unrestricted":
			r.hidden = true
			r.ignores = r.ignores && f.name != "--unrestricted"
		case f.name == "-u":
			// -u is --no-ignore; -uu adds --hidden.
			uCount++
			r.ignores = false
			r.hidden = r.hidden || uCount >= 2
		case strings.HasPrefix(f.name, "--no-ignore") || f.name == "--no-require-git":
			// Every variant reads more; the strictest reading ignores nothing.
			r.ignores = false
		case f.name == "--ignore-file" || abbreviates(f.name, "--ignore-file"):
			// Its `!` lines may take hidden files in.
			r.hidden = true
		case f.name == "--type-add" || f.name == "--type-clear":
			// Types are no longer what Warden knows: every selection is unknown.
			for i := range r.types {
				r.types[i].unknown = true
			}
			r.typesChanged = true
		case f.name == "-t" || f.name == "--type":
			globs, known := rgTypes[f.value]
			r.types = append(r.types, rgType{globs: globs, unknown: !known || r.typesChanged})
			r.selected = true
		case f.name == "-T" || f.name == "--type-not":
			globs, known := rgTypes[f.value]
			r.types = append(r.types, rgType{globs: globs, negated: true, unknown: !known || r.typesChanged})
		case f.name == "-L" || f.name == "--follow":
			t.follow = true
		case f.name == "-g" || f.name == "--glob":
			r.addGlob(f.value, foldAll)
		case f.name == "--iglob":
			r.addGlob(f.value, true)
		}
	}
	if r.ignores {
		r.global = globalExcludes(e.c.lookupEnv, e.c.ctx.Home)
	}
	if a.has("--type-list") {
		return
	}
	if a.has("--files") {
		ops := a.operands
		if len(ops) == 0 {
			ops = []word{{Value: ".", Static: true}}
		}
		for _, o := range ops {
			if o.Static && !o.Glob {
				l := t
				l.dir = e.c.abs(o.Value, e.scope())
				e.p.lists = append(e.p.lists, l)
			}
		}
		return
	}
	e.trees(a, t)
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
