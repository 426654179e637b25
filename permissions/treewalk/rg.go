package treewalk

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
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/ignore"
	"github.com/warden-cli/warden/safefile"
)

// RgRules are the options of one rg call that decide what it searches.
type RgRules struct {
	// Cwd is where rg runs: globs with a slash are relative to it.
	Cwd   string
	globs []rgGlob
	// whitelist is set when a glob without `!` was given.
	whitelist bool
	Types     []RgType
	// Selected is set once a -t selection was given: files of no selected type are left out.
	Selected bool
	// TypesChanged is set once --type-add or --type-clear was given.
	TypesChanged bool
	// Ignores is false with --no-ignore and its kin.
	Ignores bool
	// Global are the patterns of the person's core.excludesFile.
	Global []Pattern
	// Hidden is set by --hidden and its kin: hidden names are searched.
	Hidden bool
}

// rgGlob is one -g glob, expanded to the alternatives of its braces.
type rgGlob struct {
	alts      []ignore.Pattern
	negated   bool
	fold      bool
	uncertain bool
	anchored  bool
}

// RgType is one -t or -T (Negated) selection; Unknown is set for a type whose globs Warden does not
// know.
type RgType struct {
	Globs   []string
	Negated bool
	Unknown bool
}

// Pattern is one line of an ignore file, as rg reads it; uncertain when rg may read it differently from
// git.
type Pattern struct {
	p         ignore.Pattern
	uncertain bool
}

// rgLevel is what one directory contributes: its ignore files, and whether it holds a repository.
type rgLevel struct {
	dir string
	// files are the patterns of .rgignore, .ignore, .gitignore and (where .git is) info/exclude.
	files [4][]Pattern
	// git: a .git is here (a repository's top); cut: a .git or .jj is here, where rg stops reading
	// git's files of the directories above.
	git, cut bool
}

// RgState is what applies inside one directory: the levels from the root of the file system down.
type RgState struct {
	levels []*rgLevel
	anyGit bool
	lister *Lister
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
func parseRgFile(data []byte) []Pattern {
	var out []Pattern
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := ignore.ParsePattern(line); ok {
			out = append(out, Pattern{p: p, uncertain: rgUncertain(line)})
		}
	}
	return out
}

// ReadPatterns reads the ignore file at path as rg does; a file that is missing, unreadable or bigger
// than a megabyte holds none, which reads more.
func ReadPatterns(path string) []Pattern {
	data, err := readIgnoreFile(path)
	if err != nil {
		return nil
	}
	return parseRgFile(data)
}

// The verdicts of a list of patterns on a path: none, ignored (left out), taken (let in).
const (
	rgNone = iota
	rgIgnored
	rgTaken
)

// matchPats decides path (relative to the patterns' directory) by the last pattern matching it.
func matchPats(pats []Pattern, rel string, isDir bool) int {
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

// RgStateAt builds the state inside dir (absolute, resolved): every directory from / down to it.
func (l *Lister) RgStateAt(dir, home string) *RgState {
	var dirs []string
	for d := dir; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == "/" || d == "." {
			break
		}
	}
	st := &RgState{lister: l}
	for i := len(dirs) - 1; i >= 0; i-- {
		st = st.Child(dirs[i], home)
		if st == nil {
			return nil
		}
	}
	return st
}

// Child is the state inside the directory dir below s's.
func (s *RgState) Child(dir, home string) *RgState {
	l := s.lister.List(dir, home)
	if l == nil {
		return nil
	}
	has := ignore.Names(l.Entries)
	lv := rgLevelOf(dir, has)
	return &RgState{levels: append(s.levels[:len(s.levels):len(s.levels)], lv), anyGit: s.anyGit || lv.git, lister: s.lister}
}

// ignoreFiles is the verdict of the ignore files on path (absolute).
func (s *RgState) ignoreFiles(path string, isDir bool, global []Pattern) int {
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
func (r *RgRules) reads(s *RgState, path, name string, isDir bool) bool {
	if v := r.overrides(path, isDir); v != rgNone {
		return v == rgTaken
	}
	taken := false
	if r.Ignores && s != nil {
		switch s.ignoreFiles(path, isDir, r.Global) {
		case rgIgnored:
			return false
		case rgTaken:
			taken = true
		}
	}
	if len(r.Types) > 0 && !isDir {
		switch r.typeOf(name) {
		case rgIgnored:
			return false
		case rgTaken:
			taken = true
		}
	}
	return taken || r.Hidden || !strings.HasPrefix(name, ".")
}

// overrides is the verdict of the -g globs.
func (r *RgRules) overrides(path string, isDir bool) int {
	if len(r.globs) == 0 {
		return rgNone
	}
	rel, below := path, false
	if r.Cwd != "" && within(r.Cwd, path) {
		rel, below = relPath(r.Cwd, path), true
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
func (r *RgRules) typeOf(name string) int {
	for i := len(r.Types) - 1; i >= 0; i-- {
		t := r.Types[i]
		if t.Unknown {
			if !t.Negated {
				return rgTaken
			}
			continue
		}
		for _, g := range t.Globs {
			if ok, _ := filepath.Match(g, name); ok {
				if t.Negated {
					return rgIgnored
				}
				return rgTaken
			}
		}
	}
	if r.Selected {
		return rgIgnored
	}
	return rgNone
}

// AddGlob reads one -g glob (--iglob, or any glob under --glob-case-insensitive, with fold).
func (r *RgRules) AddGlob(text string, fold bool) {
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

// readSmall reads a small file git or rg keeps beside a repository; ok is false when it does not exist,
// and a file bigger than a megabyte is an error.
func readSmall(path string) (string, bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false, nil
	}
	if fi.Size() > 1<<20 {
		return "", true, fmt.Errorf("`%s` is too big to read", path)
	}
	b, err := safefile.ReadRegular(path) // a FIFO put there would stall the judgement for ever
	if err != nil {
		return "", true, err
	}
	return string(b), true, nil
}

// within reports whether path is dir or lies below it; both are clean absolute paths.
func within(dir, path string) bool {
	if dir == "" || path == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || len(path) > len(dir) && path[len(dir)] == '/' && strings.HasPrefix(path, dir)
}
