package permissions

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// walkGrep finds the directories grep reads recursively.
func walkGrep(e *exec, a *parsedArgs) {
	recursive := false
	var t treewalk.Tree
	t.Hidden = true
	// Options that widen what is read count in any spelling grep accepts (`--recur`, `-d rec`); the
	// ones that narrow it count only when spelled out.
	recursive = a.hasOpt("-r", "-R", "--recursive", "--dereference-recursive")
	t.Follow = a.hasOpt("-R", "--dereference-recursive")
	for _, f := range a.flags {
		if f.name == "-d" || len(f.name) > 3 && abbreviates(f.name, "--directories") {
			recursive = recursive || f.value != "read" && f.value != "skip"
		}
		switch f.name {
		case "--include":
			t.GrepGlobs = append(t.GrepGlobs, treewalk.GrepGlob{Glob: f.value, Include: true})
		case "--exclude":
			t.GrepGlobs = append(t.GrepGlobs, treewalk.GrepGlob{Glob: f.value})
		case "--exclude-dir":
			t.ExcludeDir = append(t.ExcludeDir, f.value)
		}
	}
	if recursive {
		trees(e, a, t)
	}
}

// walkAg: ag searches recursively, honouring ignore files of its own kinds; Warden reads it as reading
// every file below its operands, hidden ones too.
func walkAg(e *exec, a *parsedArgs) {
	trees(e, a, treewalk.Tree{Hidden: true, Follow: a.hasOpt("-f", "--follow")})
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
// names (treewalk/rg.go). With --files it prints the names instead, which a command substitution may hand
// to another program.
func walkRg(e *exec, a *parsedArgs) {
	t := treewalk.Tree{Rg: &treewalk.RgRules{Cwd: e.scope().cwd, Ignores: true}}
	r := t.Rg
	foldAll := a.has("--glob-case-insensitive")
	uCount := 0
	for _, f := range a.flags {
		switch {
		case f.name == "--hidden" || f.name == "-." || f.name == "--unrestricted":
			r.Hidden = true
			r.Ignores = r.Ignores && f.name != "--unrestricted"
		case f.name == "-u":
			// -u is --no-ignore; -uu adds --hidden.
			uCount++
			r.Ignores = false
			r.Hidden = r.Hidden || uCount >= 2
		case strings.HasPrefix(f.name, "--no-ignore") || f.name == "--no-require-git":
			// Every variant reads more; the strictest reading ignores nothing.
			r.Ignores = false
		case f.name == "--ignore-file" || abbreviates(f.name, "--ignore-file"):
			// Its `!` lines may take hidden files in.
			r.Hidden = true
		case f.name == "--type-add" || f.name == "--type-clear":
			// Types are no longer what Warden knows: every selection is unknown.
			for i := range r.Types {
				r.Types[i].Unknown = true
			}
			r.TypesChanged = true
		case f.name == "-t" || f.name == "--type":
			globs, known := rgTypes[f.value]
			r.Types = append(r.Types, treewalk.RgType{Globs: globs, Unknown: !known || r.TypesChanged})
			r.Selected = true
		case f.name == "-T" || f.name == "--type-not":
			globs, known := rgTypes[f.value]
			r.Types = append(r.Types, treewalk.RgType{Globs: globs, Negated: true, Unknown: !known || r.TypesChanged})
		case f.name == "-L" || f.name == "--follow":
			t.Follow = true
		case f.name == "-g" || f.name == "--glob":
			r.AddGlob(f.value, foldAll)
		case f.name == "--iglob":
			r.AddGlob(f.value, true)
		}
	}
	if r.Ignores {
		r.Global = globalExcludes(e.c.lookupEnv, e.c.ctx.Home)
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
				l.Dir = e.c.abs(o.Value, e.scope())
				e.p.lists = append(e.p.lists, l)
			}
		}
		return
	}
	trees(e, a, t)
}

// trees records the recursive reads of a search command's operands after the pattern, or of `.`.
func trees(e *exec, a *parsedArgs, t treewalk.Tree) {
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
			e.treeRead(o.Value, treewalk.Tree{Hidden: true})
		}
	}
}

// globalExcludes reads the person's core.excludesFile (or git's default, $XDG_CONFIG_HOME/git/ignore),
// which rg honours inside a repository.
func globalExcludes(env gitrepo.Env, home string) []treewalk.Pattern {
	cfg := gitrepo.LoadConfig(gitrepo.Repo{}, env, home)
	path := ""
	for _, en := range cfg.Entries {
		if en.Key == "core.excludesfile" {
			path = en.Value
		}
	}
	if path == "" {
		x, _ := env("XDG_CONFIG_HOME")
		if x == "" && home != "" {
			x = filepath.Join(home, ".config")
		}
		if x == "" {
			return nil
		}
		path = filepath.Join(x, "git", "ignore")
	}
	return treewalk.ReadPatterns(ResolvePath("/", path, home))
}
