package treewalk

import (
	"os"
	"path/filepath"
	"strings"
)

// Tree is a directory a command reads recursively (grep -r, rg): every file below it that the program
// takes in is read, so a secret below it is read and a Read rule naming a file below it applies.
type Tree struct {
	Dir string
	// Hidden is true when files and directories whose names start with a dot are read too.
	Hidden bool
	// Include, if not empty, limits the files read to base names matching one of these globs; Exclude
	// and ExcludeDir leave files and directories out.
	Include, Exclude, ExcludeDir []string
	// Follow is set when symbolic links below Dir are followed (grep -R, rg -L): a denied directory may
	// then be read under another name, and ExcludeDir does not keep it out.
	Follow bool
	// Split is set when xargs splits the names at blanks and removes quotes: a name holding one of those
	// would become other names (`x .env y.go`), so finding one asks. Subst is set when the names come
	// out of a command substitution, split at blanks and expanded as globs: a blank, a wildcard or a
	// leading dash asks.
	Split, Subst bool
	// Rg, for ripgrep, is what decides which entries it searches (rg.go); nil for other programs.
	Rg *RgRules
	// GrepGlobs are grep's --include and --exclude in order, when any was given (GrepGlob).
	GrepGlobs []GrepGlob
	// Named is set when the names found are handed to a program that opens them (find -exec, xargs, a
	// command substitution): links are followed to what they point to.
	Named bool
	// Home is the home directory, for listings.
	Home string
	// Tracked, with Index set, are the files (relative to the repository's top, Repo) that git reads,
	// from its index and its history: a read of what git holds looks for secrets among them instead of
	// walking the directory.
	Tracked []string
	Repo    string
	Index   bool
	// Lister lists the directories below Dir for what decides a walk after it was recorded (rg's ignore
	// files, IgnoredBelow, MayName).
	Lister *Lister
}

// MaxEntries bounds how many entries Warden looks at below recursively read directories, per command, to
// find secrets. A read of a bigger tree asks: a secret past the bound would not be seen. Listings are
// cached (Lister), so the bound is about time on a first look, not on every command.
var MaxEntries = 200000

// Takes reports whether a file of this name passes the read's include and exclude globs.
func (t *Tree) Takes(name string) bool {
	if t.GrepGlobs != nil {
		return grepTakes(t.GrepGlobs, name)
	}
	return !Excludes(t.Exclude, name) && (len(t.Include) == 0 || includes(t.Include, name))
}

// Opens reports whether the names the walk finds are handed to a program that opens them (find -exec,
// xargs, a command substitution), which follows links.
func (t *Tree) Opens() bool { return t.Named || t.Split || t.Subst }

// Enters reports whether the walk goes to the entry at path, named name, inside a directory whose rg
// state is rs (nil for other programs): rg decides by its rules (a link it follows as what it points
// to), the others by hidden names and ExcludeDir.
func (t *Tree) Enters(rs *RgState, path, name string, isDir, isLink bool) bool {
	if t.Rg != nil {
		asDir := isDir
		if isLink && t.Follow {
			fi, err := os.Stat(path)
			asDir = err == nil && fi.IsDir()
		}
		return t.Rg.reads(rs, path, name, asDir)
	}
	return !(!t.Hidden && strings.HasPrefix(name, ".") || isDir && Excludes(t.ExcludeDir, name))
}

// IgnoredBelow reports whether a walk of t leaves out path (absolute, below t.Dir): rg's rules leave
// out it or a directory on the way, or a hidden name is on the way when hidden files are skipped.
func (t Tree) IgnoredBelow(path string) bool {
	rel, err := filepath.Rel(t.Dir, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	comps := strings.Split(rel, "/")
	if t.Rg == nil {
		for _, comp := range comps {
			if !t.Hidden && strings.HasPrefix(comp, ".") {
				return true
			}
		}
		return false
	}
	rs := t.Lister.RgStateAt(t.Dir, t.Home)
	cur := t.Dir
	for i, comp := range comps {
		next := cur + "/" + comp
		fi, err := os.Lstat(next)
		isDir := err == nil && fi.IsDir() || i < len(comps)-1
		if rs == nil {
			return false
		}
		if !t.Rg.reads(rs, next, comp, isDir) {
			return true
		}
		if i < len(comps)-1 {
			if err != nil {
				return false
			}
			rs = rs.Child(next, t.Home)
		}
		cur = next
	}
	return false
}

// Excludes reports whether one of the globs (grep --exclude, rg -g '!x', find's tests) surely matches
// name; includes whether one may. Go's matching agrees with fnmatch's except on [!...], [[:class:]] and
// a leading ] in a class: a glob holding those is taken to match for includes and not for excludes.
func Excludes(globs []string, name string) bool {
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

// GrepGlob is one --include or --exclude of grep.
type GrepGlob struct {
	Glob    string
	Include bool
}

// grepTakes decides a file name as GNU grep does: the last --include or --exclude matching it wins;
// when none matches, the file is read unless the first of them is an --include. A glob Go cannot match
// as fnmatch does is taken to match when it would take the file in, and not when it would leave it out.
func grepTakes(globs []GrepGlob, name string) bool {
	for i := len(globs) - 1; i >= 0; i-- {
		g := globs[i]
		if fnmatchOnly(g.Glob) {
			if g.Include {
				return true
			}
			continue
		}
		if ok, err := filepath.Match(g.Glob, name); err != nil {
			if g.Include {
				return true
			}
		} else if ok {
			return g.Include
		}
	}
	return !globs[0].Include
}
