package files

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/warden-cli/warden/tools"
)

// glob matches file paths below a directory against a doublestar pattern and lists the newest first, which
// is usually what the model is after (the files being worked on). The fixed leading part of the pattern
// ("src/" in "src/**/*.go", or a whole absolute directory) becomes part of the directory searched, so
// that Access names the directory that is really read, `..` and symlinks included.

type globParams struct {
	Pattern string `json:"pattern" desc:"The glob pattern, matched against paths relative to path: * within one directory, ** across any depth, ? one character, [abc] and {a,b} alternatives. Example: **/*.go"`
	Path    string `json:"path,omitempty" desc:"The directory to search (default: the current directory)."`
}

const globDescription = `Finds files by name pattern and lists them newest first (by modification time).

- Patterns use * (within one directory), ** (any depth), ?, [abc] and {a,b}: "**/*.go", "src/**/*_test.go", "*.{json,yaml}". A pattern without ** matches only at that depth: "*.go" lists the top directory's Go files.
- Skips .git and, inside a git repository, files git ignores (unless path itself names an ignored directory). Symlinks are not followed.
- At most 200 files are listed; the output says how many more matched.
- To search file contents, use grep.`

const globMaxResults = 200

type globSearch struct {
	root    searchRoot // what the model asked to search
	dir     filePath   // the directory walked: root plus the pattern's fixed prefix
	prefix  string     // that prefix, slash-separated, "." for none
	pattern string     // the rest of the pattern, matched below dir
}

func globTool() tools.Tool {
	return tools.New(tools.Spec[globParams]{
		Name:        "glob",
		Description: globDescription,
		Access: func(env *tools.Env, p *globParams) (tools.Access, error) {
			g, err := planGlob(env, p)
			if err != nil {
				return tools.Access{}, err
			}
			summary := p.Pattern
			if g.root.Display != "." {
				summary += " in " + g.root.Display
			}
			return fileAccess(env, tools.AccessRead, g.dir, summary), nil
		},
		Run: runGlob,
	})
}

func planGlob(env *tools.Env, p *globParams) (globSearch, error) {
	pat := strings.TrimPrefix(strings.TrimSpace(p.Pattern), "./")
	if pat == "" {
		return globSearch{}, fmt.Errorf("pattern is empty; give a glob such as **/*.go")
	}
	if !doublestar.ValidatePattern(pat) {
		return globSearch{}, fmt.Errorf("pattern %q is not a valid glob (check brackets and braces)", pat)
	}
	root, err := resolveRoot(env, p.Path)
	if err != nil {
		return globSearch{}, err
	}
	g := globSearch{root: root, dir: root.filePath, prefix: ".", pattern: pat}
	if base, rest := doublestar.SplitPattern(filepath.ToSlash(pat)); base != "." && rest != "" {
		// An absolute pattern names its own directory; a relative one extends path.
		dir := base
		if !filepath.IsAbs(base) {
			dir = filepath.Join(root.Abs, filepath.FromSlash(base))
		}
		g.dir = filePath{Abs: env.Resolve(env.Cwd(), dir)}
		g.dir.Shown = shownPath(env, g.dir.Abs)
		g.prefix, g.pattern = base, rest
		if filepath.IsAbs(base) {
			g.root = searchRoot{filePath: g.dir, Display: base}
			g.prefix = "."
		}
	}
	return g, nil
}

func runGlob(ctx context.Context, env *tools.Env, call tools.Call, p *globParams) tools.Result {
	g, err := planGlob(env, p)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	fi, err := os.Stat(g.dir.Abs)
	switch {
	case err != nil && os.IsNotExist(err):
		if g.prefix != "." {
			return tools.Result{Output: fmt.Sprintf("No files match %s: %s does not exist.", p.Pattern, g.dir.Shown)}
		}
		return tools.Errorf("%s does not exist", g.dir.Shown)
	case err != nil:
		return tools.Errorf("cannot read %s: %v", g.dir.Shown, unwrapPathError(err))
	case !fi.IsDir():
		return tools.Errorf("%s is a file, not a directory; glob searches below a directory", g.dir.Shown)
	}
	l, err := listFiles(ctx, env, g.dir.Abs)
	if err != nil {
		return tools.Errorf("cannot list %s: %v", g.dir.Shown, unwrapPathError(err))
	}
	type hit struct {
		name  string
		mtime int64
	}
	var hits []hit
	for _, f := range l.Files {
		if ok, _ := doublestar.Match(g.pattern, f); !ok {
			continue
		}
		fi, err := os.Lstat(filepath.Join(g.dir.Abs, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		hits = append(hits, hit{name: path.Join(g.prefix, f), mtime: fi.ModTime().UnixNano()})
	}
	if len(hits) == 0 {
		return tools.Result{Output: fmt.Sprintf("No files match %s%s.", p.Pattern, globWhere(g)) + leftOut(l, "listed")}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.mtime != b.mtime {
			return cmp.Compare(b.mtime, a.mtime)
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	for _, h := range hits[:min(len(hits), globMaxResults)] {
		b.WriteString(h.name)
		b.WriteByte('\n')
	}
	if len(hits) > globMaxResults {
		fmt.Fprintf(&b, "(%s of %s files shown, newest first; %s more not shown: narrow the pattern or path%s)",
			tools.Commas(globMaxResults), tools.Commas(int64(len(hits))), tools.Commas(int64(len(hits)-globMaxResults)), g.root.relNote())
	} else {
		fmt.Fprintf(&b, "(%s, newest first%s)", countNoun(len(hits), "file", "files"), g.root.relNote())
	}
	if l.Stopped {
		fmt.Fprintf(&b, "\n(the search stopped after %s files; give a narrower path)", tools.Commas(maxListed))
	}
	return tools.Result{Output: b.String() + leftOut(l, "listed")}
}

func globWhere(g globSearch) string {
	if g.root.Display == "." {
		return ""
	}
	return " in " + g.root.Display
}

// countNoun is "1 file" or "3 files".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return tools.Commas(int64(n)) + " " + many
}
