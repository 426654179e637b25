package permissions

import (
	"io/fs"
	"os"
	"path/filepath"
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
	// ignores says which ignore files the reading program honours; matcher holds their rules for dir.
	ignores ignoreMode
	matcher *ignore.Matcher
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
	if t.ignores != ignoreNone {
		t.matcher = matcherFor(path, t.ignores)
	}
	e.p.trees = append(e.p.trees, t)
	if r, ok := objectStore(path); ok {
		e.c.objectRead(e.p, r, root)
	}
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
	e.walkTree(path, root, &t, sc)
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
	if t.ignoredBelow(lit) {
		// The program never reads it: hidden, or left out by an ignore file.
		return false
	}
	if rel, err := filepath.Rel(t.dir, lit); err == nil && !t.hidden {
		for _, comp := range strings.Split(rel, "/") {
			if strings.HasPrefix(comp, ".") && comp != "." && comp != ".." {
				return false
			}
		}
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
	if base := filepath.Base(r.pathGlob); !wild && len(t.include) > 0 && !includes(t.include, base) {
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
		if p != t.dir && (!t.hidden && strings.HasPrefix(name, ".") || d.IsDir() && excludes(t.excludeDir, name)) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || excludes(t.exclude, name) || !includes(t.include, name) {
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
	t.follow = a.hasOpt("-R", "--dereference-recursive")
	for _, f := range a.flags {
		if f.name == "-d" || len(f.name) > 3 && abbreviates(f.name, "--directories") {
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

// walkRg: rg always recurses, skipping hidden files and what its ignore files leave out unless told
// otherwise; --type narrows what it reads to a type's globs.
func walkRg(e *exec, a *parsedArgs) {
	var t treeRead
	var dirs []string
	noIgnore := false
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
			noIgnore = true
		case strings.HasPrefix(f.name, "--no-ignore") || f.name == "--unrestricted" || f.name == "--no-require-git":
			// Every variant reads more; the strictest reading ignores nothing.
			noIgnore = true
		case f.name == "-t" || f.name == "--type" || abbreviates(f.name, "--type") && len(f.name) > 4 && !strings.HasPrefix("--type-not", f.name) && !strings.HasPrefix("--type-add", f.name):
			globs, known := rgTypes[f.value]
			if !known {
				t.include = append(t.include, "*")
			}
			t.include = append(t.include, globs...)
		case f.name == "-T" || f.name == "--type-not":
			t.exclude = append(t.exclude, rgTypes[f.value]...)
		case f.name == "-L" || f.name == "--follow":
			t.follow = true
		case f.name == "-g" || f.name == "--glob" || f.name == "--iglob":
			switch {
			case strings.HasPrefix(f.value, "!"):
				t.exclude = append(t.exclude, strings.TrimPrefix(f.value, "!"))
				// `!name` (or `!name/`) leaves out directories of that name at any depth too.
				if dir := strings.TrimSuffix(f.value[1:], "/"); dir != "" && !strings.ContainsAny(dir, "/\\{") {
					dirs = append(dirs, dir)
				}
			case strings.Contains(f.value, "/"):
				t.include = append(t.include, "*")
			default:
				t.include = append(t.include, f.value)
			}
		}
	}
	// A later glob takes precedence over an earlier one: only when every glob leaves out do the
	// directories stay out.
	if len(t.include) == 0 {
		t.excludeDir = dirs
	}
	if !noIgnore {
		t.ignores = ignoreRg
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
