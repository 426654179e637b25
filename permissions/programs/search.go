package programs

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// walkGrep finds the directories grep reads recursively.
func walkGrep(e *shell.Exec, a *shell.Args) {
	recursive := false
	var t treewalk.Tree
	t.Hidden = true
	// Options that widen what is read count in any spelling grep accepts (`--recur`, `-d rec`); the
	// ones that narrow it count only when spelled out.
	recursive = a.HasOpt("-r", "-R", "--recursive", "--dereference-recursive")
	t.Follow = a.HasOpt("-R", "--dereference-recursive")
	for _, f := range a.Flags {
		if f.Name == "-d" || len(f.Name) > 3 && shell.Abbreviates(f.Name, "--directories") {
			recursive = recursive || f.Value != "read" && f.Value != "skip"
		}
		switch f.Name {
		case "--include":
			t.GrepGlobs = append(t.GrepGlobs, treewalk.GrepGlob{Glob: f.Value, Include: true})
		case "--exclude":
			t.GrepGlobs = append(t.GrepGlobs, treewalk.GrepGlob{Glob: f.Value})
		case "--exclude-dir":
			t.ExcludeDir = append(t.ExcludeDir, f.Value)
		}
	}
	if recursive {
		trees(e, a, t)
	}
}

// walkAg: ag searches recursively, honouring ignore files of its own kinds; Warden reads it as reading
// every file below its operands, hidden ones too.
func walkAg(e *shell.Exec, a *shell.Args) {
	trees(e, a, treewalk.Tree{Hidden: true, Follow: a.HasOpt("-f", "--follow")})
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
func walkRg(e *shell.Exec, a *shell.Args) {
	t := treewalk.Tree{Rg: &treewalk.RgRules{Cwd: e.Scope().Cwd, Ignores: true}}
	r := t.Rg
	foldAll := a.Has("--glob-case-insensitive")
	uCount := 0
	for _, f := range a.Flags {
		switch {
		case f.Name == "--hidden" || f.Name == "-." || f.Name == "--unrestricted":
			r.Hidden = true
			r.Ignores = r.Ignores && f.Name != "--unrestricted"
		case f.Name == "-u":
			// -u is --no-ignore; -uu adds --hidden.
			uCount++
			r.Ignores = false
			r.Hidden = r.Hidden || uCount >= 2
		case strings.HasPrefix(f.Name, "--no-ignore") || f.Name == "--no-require-git":
			// Every variant reads more; the strictest reading ignores nothing.
			r.Ignores = false
		case f.Name == "--ignore-file" || shell.Abbreviates(f.Name, "--ignore-file"):
			// Its `!` lines may take hidden files in.
			r.Hidden = true
		case f.Name == "--type-add" || f.Name == "--type-clear":
			// Types are no longer what Warden knows: every selection is unknown.
			for i := range r.Types {
				r.Types[i].Unknown = true
			}
			r.TypesChanged = true
		case f.Name == "-t" || f.Name == "--type":
			globs, known := rgTypes[f.Value]
			r.Types = append(r.Types, treewalk.RgType{Globs: globs, Unknown: !known || r.TypesChanged})
			r.Selected = true
		case f.Name == "-T" || f.Name == "--type-not":
			globs, known := rgTypes[f.Value]
			r.Types = append(r.Types, treewalk.RgType{Globs: globs, Negated: true, Unknown: !known || r.TypesChanged})
		case f.Name == "-L" || f.Name == "--follow":
			t.Follow = true
		case f.Name == "-g" || f.Name == "--glob":
			r.AddGlob(f.Value, foldAll)
		case f.Name == "--iglob":
			r.AddGlob(f.Value, true)
		}
	}
	if r.Ignores {
		r.Global = globalExcludes(e.S.Git(), e.S.LookupEnv, e.S.Ctx.Home)
	}
	if a.Has("--type-list") {
		return
	}
	if a.Has("--files") {
		ops := a.Operands
		if len(ops) == 0 {
			ops = []shell.Word{{Value: ".", Static: true}}
		}
		for _, o := range ops {
			if o.Static && !o.Glob {
				l := t
				l.Dir = e.S.Abs(o.Value, e.Scope())
				e.P.Lists = append(e.P.Lists, l)
			}
		}
		return
	}
	trees(e, a, t)
}

// trees records the recursive reads of a search command's operands after the pattern, or of `.`.
func trees(e *shell.Exec, a *shell.Args, t treewalk.Tree) {
	ops := a.Operands
	if len(ops) > 0 && !a.Has("-e", "-f", "--regexp", "--file") {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		e.TreeRead(".", t)
		return
	}
	for _, o := range ops {
		if !o.Static || o.Value == "-" {
			continue
		}
		names := []string{o.Value}
		if o.Glob {
			var ok bool
			if names, ok = e.S.ExpandGlob(o.Value, e.Scope()); !ok {
				continue
			}
		}
		for _, n := range names {
			e.TreeRead(n, t)
		}
	}
}

// walkDiff: diff compares the files of a directory operand with those of the other operand, below it too
// with -r, and -N prints a file missing on the other side whole. Every file below a directory operand may
// be read.
func walkDiff(e *shell.Exec, a *shell.Args) {
	for _, o := range a.Operands {
		if !o.Static || o.Glob {
			continue
		}
		if fi, err := os.Stat(e.S.Abs(o.Value, e.Scope())); err == nil && fi.IsDir() {
			e.TreeRead(o.Value, treewalk.Tree{Hidden: true})
		}
	}
}

// globalExcludes reads the person's core.excludesFile (or git's default, $XDG_CONFIG_HOME/git/ignore),
// which rg honours inside a repository.
func globalExcludes(git *gitrepo.Reader, env gitrepo.Env, home string) []treewalk.Pattern {
	cfg := git.Load(gitrepo.Repo{}, gitrepo.LoadOptions{Env: env, Home: home})
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
	return treewalk.ReadPatterns(shell.ResolvePath("/", path, home))
}
