package permissions

// What ripgrep searches below a directory, decided the way its ignore crate decides it (ignore 0.4,
// dir.rs `matched`), so that a secret rg reads is never taken for one it skips:
//
//   - -g/--glob/--iglob globs come first: the last one matching an entry decides, a plain glob taking
//     it in (even a hidden or git-ignored file) and a `!glob` leaving it out; with a plain glob given,
//     a file no glob matches is left out.
//   - then the ignore files, nearest directory first for each kind, the kinds in this order: .rgignore,
//     .ignore, .gitignore, the repository's info/exclude, the person's core.excludesFile. Those of git
//     count only when a directory on the way up has a .git, and only up to the nearest one (a nested
//     repository starts afresh). Directories above the searched one count too. A `!pattern` that
//     matches takes the entry in, hidden or not.
//   - then --type (-t takes a file in, -T leaves it out; with -t given, other files are left out);
//   - last, a hidden name (a leading dot) is left out unless something above took it in or --hidden.
//
// rg's globs are not git's: POSIX classes, `[^...]`, braces, backslashes and a `**` inside a name mean
// other things to it. A pattern holding one of those is never trusted to leave anything out, and a `!`
// pattern holding one is taken to match everything: Warden then reads more than rg, never less.

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/ignore"
)

// rgRules are the options of one rg call that decide what it searches.
type rgRules struct {
	// cwd is where rg runs: globs with a slash are relative to it.
	cwd   string
	globs []rgGlob
	// whitelist is set when a glob without `!` was given.
	whitelist bool
	types     []rgType
	selected  bool
	// typesChanged is set once --type-add or --type-clear was given.
	typesChanged bool
	// ignores is false with --no-ignore and its kin.
	ignores bool
	// global are the patterns of the person's core.excludesFile.
	global []rgPat
	hidden bool
}

// rgGlob is one -g glob, expanded to the alternatives of its braces.
type rgGlob struct {
	alts      []ignore.Pattern
	negated   bool
	fold      bool
	uncertain bool
	anchored  bool
}

// rgType is one -t or -T selection; unknown is set for a type whose globs Warden does not know.
type rgType struct {
	globs   []string
	negated bool
	unknown bool
}

// rgPat is one line of an ignore file; uncertain when rg may read it differently from git.
type rgPat struct {
	p         ignore.Pattern
	uncertain bool
}

// rgLevel is what one directory contributes: its ignore files, and whether it holds a repository.
type rgLevel struct {
	dir string
	// files are the patterns of .rgignore, .ignore, .gitignore and (where .git is) info/exclude.
	files [4][]rgPat
	// git: a .git is here (a repository's top); cut: a .git or .jj is here, where rg stops reading
	// git's files of the directories above.
	git, cut bool
}

// rgState is what applies inside one directory: the levels from the root of the file system down.
type rgState struct {
	levels []*rgLevel
	anyGit bool
}

// rgUncertain reports whether rg may match the glob text differently from git.
func rgUncertain(text string) bool {
	if strings.ContainsAny(text, "{}\\\ufeff") || strings.Contains(text, "[[:") || strings.Contains(text, "[^") ||
		strings.Contains(text, "[]") || strings.Contains(text, "[!]") {
		return true
	}
	if i := strings.IndexByte(text, '['); i >= 0 && !strings.Contains(text[i:], "]") {
		return true
	}
	for i := strings.Index(text, "**"); i >= 0; {
		before := i == 0 || text[i-1] == '/' || i == 1 && text[0] == '!'
		after := i+2 == len(text) || text[i+2] == '/'
		if !before || !after {
			return true
		}
		next := strings.Index(text[i+2:], "**")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

// parseRgFile reads an ignore file's lines as rg does.
func parseRgFile(data []byte) []rgPat {
	var out []rgPat
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := ignore.ParsePattern(line); ok {
			out = append(out, rgPat{p: p, uncertain: rgUncertain(line)})
		}
	}
	return out
}

// rgMatch is the verdict of a list of patterns on a path: 0 none, rgIgnored, rgTaken.
const (
	rgNone = iota
	rgIgnored
	rgTaken
)

// matchPats decides path (relative to the patterns' directory) by the last pattern matching it.
func matchPats(pats []rgPat, rel string, isDir bool) int {
	for i := len(pats) - 1; i >= 0; i-- {
		p := pats[i]
		if p.uncertain {
			if p.p.Negated() {
				return rgTaken
			}
			continue
		}
		if p.p.Match(rel, isDir, false) {
			if p.p.Negated() {
				return rgTaken
			}
			return rgIgnored
		}
	}
	return rgNone
}

// rgIgnoreNames are the per-directory ignore files, in rg's order of precedence.
var rgIgnoreNames = [3]string{".rgignore", ".ignore", ".gitignore"}

// rgLevelOf reads dir's ignore files; has says which names dir holds.
func rgLevelOf(dir string, has func(string) bool) *rgLevel {
	l := &rgLevel{dir: dir}
	for i, n := range rgIgnoreNames {
		if has(n) {
			if data, err := readIgnoreFile(filepath.Join(dir, n)); err == nil {
				l.files[i] = parseRgFile(data)
			}
		}
	}
	if has(".git") {
		if gitDir := rgGitDir(filepath.Join(dir, ".git")); gitDir != "" {
			l.git, l.cut = true, true
			if data, err := readIgnoreFile(filepath.Join(gitDir, "info", "exclude")); err == nil {
				l.files[3] = parseRgFile(data)
			}
		}
	}
	if has(".jj") {
		l.cut = true
	}
	return l
}

// rgGitDir is the directory whose info/exclude rg reads for a .git entry, as its ignore crate finds
// it: the .git directory (or the common directory it names), or where a .git file points; "" when
// there is no .git at all. It need not be a valid repository.
func rgGitDir(dotgit string) string {
	fi, err := os.Stat(dotgit)
	if err != nil {
		return ""
	}
	dir := dotgit
	if !fi.IsDir() {
		data, _, _ := readSmall(dotgit)
		line, _, _ := strings.Cut(data, "\n")
		target, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir: ")
		if !ok {
			return dotgit
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(dotgit), target)
		}
		dir = target
	}
	if data, ok, _ := readSmall(filepath.Join(dir, "commondir")); ok {
		common := strings.TrimSpace(data)
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		return filepath.Clean(common)
	}
	return dir
}

// readIgnoreFile reads a small ignore file; a big one is read as no rules, which reads more.
func readIgnoreFile(path string) ([]byte, error) {
	data, ok, err := readSmall(path)
	if err != nil || !ok {
		return nil, os.ErrNotExist
	}
	return []byte(data), nil
}

// rgStateAt builds the state inside dir (absolute, resolved): every directory from / down to it.
func rgStateAt(dir, home string) *rgState {
	var dirs []string
	for d := dir; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == "/" || d == "." {
			break
		}
	}
	st := &rgState{}
	for i := len(dirs) - 1; i >= 0; i-- {
		st = st.child(dirs[i], home)
		if st == nil {
			return nil
		}
	}
	return st
}

// child is the state inside the directory dir below s's.
func (s *rgState) child(dir, home string) *rgState {
	l := listDir(dir, home)
	if l == nil {
		return nil
	}
	has := ignore.Names(l.entries)
	lv := rgLevelOf(dir, has)
	return &rgState{levels: append(s.levels[:len(s.levels):len(s.levels)], lv), anyGit: s.anyGit || lv.git}
}

// ignoreFiles is the verdict of the ignore files on path (absolute).
func (s *rgState) ignoreFiles(path string, isDir bool, global []rgPat) int {
	var m [4]int
	sawGit := false
	for i := len(s.levels) - 1; i >= 0; i-- {
		l := s.levels[i]
		rel := relPath(l.dir, path)
		for k := 0; k < 4; k++ {
			if m[k] != rgNone || len(l.files[k]) == 0 || k >= 2 && (!s.anyGit || sawGit) {
				continue
			}
			m[k] = matchPats(l.files[k], rel, isDir)
		}
		sawGit = sawGit || l.cut
	}
	for _, v := range m {
		if v != rgNone {
			return v
		}
	}
	if s.anyGit && len(global) > 0 {
		// The person's core.excludesFile, relative to the repository's top as git reads it.
		return matchPats(global, filepath.Base(path), isDir)
	}
	return rgNone
}

func relPath(dir, path string) string {
	if dir == "/" {
		return strings.TrimPrefix(path, "/")
	}
	return strings.TrimPrefix(path[len(dir):], "/")
}

// reads reports whether rg searches the entry at path (absolute) named name, inside the directory whose
// state is s.
func (r *rgRules) reads(s *rgState, path, name string, isDir bool) bool {
	if v := r.overrides(path, isDir); v != rgNone {
		return v == rgTaken
	}
	taken := false
	if r.ignores && s != nil {
		switch s.ignoreFiles(path, isDir, r.global) {
		case rgIgnored:
			return false
		case rgTaken:
			taken = true
		}
	}
	if len(r.types) > 0 && !isDir {
		switch r.typeOf(name) {
		case rgIgnored:
			return false
		case rgTaken:
			taken = true
		}
	}
	return taken || r.hidden || !strings.HasPrefix(name, ".")
}

// overrides is the verdict of the -g globs.
func (r *rgRules) overrides(path string, isDir bool) int {
	if len(r.globs) == 0 {
		return rgNone
	}
	rel, below := path, false
	if r.cwd != "" && within(r.cwd, path) {
		rel, below = relPath(r.cwd, path), true
	}
	for i := len(r.globs) - 1; i >= 0; i-- {
		g := r.globs[i]
		if g.uncertain || g.anchored && !below {
			if !g.negated {
				return rgTaken
			}
			continue
		}
		for _, p := range g.alts {
			if p.Match(rel, isDir, g.fold) {
				if g.negated {
					return rgIgnored
				}
				return rgTaken
			}
		}
	}
	if r.whitelist && !isDir {
		return rgIgnored
	}
	return rgNone
}

// typeOf is the verdict of the -t and -T selections on a file name.
func (r *rgRules) typeOf(name string) int {
	for i := len(r.types) - 1; i >= 0; i-- {
		t := r.types[i]
		if t.unknown {
			if !t.negated {
				return rgTaken
			}
			continue
		}
		for _, g := range t.globs {
			if ok, _ := filepath.Match(g, name); ok {
				if t.negated {
					return rgIgnored
				}
				return rgTaken
			}
		}
	}
	if r.selected {
		return rgIgnored
	}
	return rgNone
}

// addGlob reads one -g glob.
func (r *rgRules) addGlob(text string, fold bool) {
	g := rgGlob{fold: fold}
	alts, ok := expandBraces(text)
	if !ok {
		g.uncertain = true
		g.negated = strings.HasPrefix(text, "!")
	}
	for _, a := range alts {
		p, ok := ignore.ParsePattern(a)
		if !ok || rgUncertain(a) {
			g.uncertain = true
			continue
		}
		g.negated = p.Negated()
		g.anchored = g.anchored || strings.Contains(strings.TrimSuffix(strings.TrimPrefix(a, "!"), "/"), "/")
		g.alts = append(g.alts, p)
	}
	if len(alts) > 0 {
		g.negated = strings.HasPrefix(text, "!")
	}
	r.whitelist = r.whitelist || !g.negated
	r.globs = append(r.globs, g)
}

// expandBraces expands the `{a,b}` alternatives of a glob, one level deep; ok is false for nested or
// unbalanced braces.
func expandBraces(s string) ([]string, bool) {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		if strings.IndexByte(s, '}') >= 0 {
			return nil, false
		}
		return []string{s}, true
	}
	end := strings.IndexByte(s[open:], '}')
	if end < 0 {
		return nil, false
	}
	end += open
	inner := s[open+1 : end]
	if strings.ContainsAny(inner, "{[\\") {
		return nil, false
	}
	rest, ok := expandBraces(s[end+1:])
	if !ok {
		return nil, false
	}
	var out []string
	for _, alt := range strings.Split(inner, ",") {
		for _, r := range rest {
			out = append(out, s[:open]+alt+r)
		}
	}
	if len(out) > 64 {
		return nil, false
	}
	return out, true
}

// globalExcludes reads the person's core.excludesFile (or git's default, $XDG_CONFIG_HOME/git/ignore),
// which rg honours inside a repository.
func globalExcludes(env gitrepo.Env, home string) []rgPat {
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
	path = ResolvePath("/", path, home)
	data, err := readIgnoreFile(path)
	if err != nil {
		return nil
	}
	return parseRgFile(data)
}
