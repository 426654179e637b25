package permissions

// Walking a tree the way the program that reads it does: grep -r reads every file; rg skips hidden files
// and what .rgignore, .ignore and (inside a git repository) .gitignore, .git/info/exclude and
// core.excludesFile leave out, without going into an ignored directory. Directory listings are cached
// and used again while the directory's times and inode stay the same, so a repository with 100,000
// ignored files costs a stat per directory that is read.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/warden-cli/warden/ignore"
)

// ignoreMode says which ignore files a walk honours.
type ignoreMode int

const (
	// ignoreNone: every file is read (grep -r, rg --no-ignore).
	ignoreNone ignoreMode = iota
	// ignoreRg: ripgrep's files: .rgignore, .ignore, and git's inside a repository.
	ignoreRg
)

// listing is one directory's entries, with which of them name secrets.
type listing struct {
	mtime, ctime int64
	ino          uint64
	home         string
	entries      []ignore.Entry
	secret       []bool
}

var (
	listingMu sync.Mutex
	listings  = map[string]*listing{}
)

// maxListings bounds the directories whose listings are kept.
const maxListings = 200000

// listDir returns dir's entries, from the cache while the directory has not changed. nil when it cannot
// be read.
func listDir(dir, home string) *listing {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	mtime, ctime := fi.ModTime().UnixNano(), st.Ctim.Sec*1e9+st.Ctim.Nsec
	listingMu.Lock()
	l := listings[dir]
	listingMu.Unlock()
	if l != nil && l.mtime == mtime && l.ctime == ctime && l.ino == st.Ino && l.home == home {
		return l
	}
	entries, err := ignore.ReadDir(dir)
	if err != nil {
		return nil
	}
	l = &listing{mtime: mtime, ctime: ctime, ino: st.Ino, home: home, entries: entries, secret: make([]bool, len(entries))}
	for i, en := range entries {
		l.secret[i] = !en.IsDir() && isSecretPath(filepath.Join(dir, en.Name()), home)
	}
	listingMu.Lock()
	if len(listings) >= maxListings {
		clear(listings)
	}
	listings[dir] = l
	listingMu.Unlock()
	return l
}

// matcherFor returns the ignore rules a walk of root honours, or nil for none.
func matcherFor(root string, mode ignoreMode) *ignore.Matcher {
	if mode == ignoreNone {
		return nil
	}
	sources := []ignore.Source{{Name: ".rgignore"}, {Name: ".ignore"}}
	top := root
	fold := false
	if repo, ok := ignore.FindRepo(root); ok {
		git, f := ignore.GitSources(repo)
		sources = append(sources, git...)
		top, fold = repo.Top, f
	}
	m, err := ignore.New(root, ignore.Options{Top: top, Sources: sources, FoldCase: fold})
	if err != nil {
		return nil
	}
	return m
}

// walkTree looks below path (a directory or a file) for the files t reads, the way the program walks
// it: it stops at the first secret, which it records as read, and asks past maxTreeWalk entries. root is
// path as the command gave it, for reasons.
func (e *exec) walkTree(path, root string, t *treeRead, sc *scope) {
	home := e.c.ctx.Home
	fi, err := os.Lstat(path)
	if err != nil {
		return
	}
	if !fi.IsDir() {
		if isSecretPath(path, home) {
			e.c.read(e.p, path, sc)
		}
		return
	}
	var top ignore.Dir
	if t.matcher != nil {
		l := listDir(path, home)
		if l == nil {
			return
		}
		top = t.matcher.Dir("", ignore.Names(l.entries))
	}
	e.walkDir(path, root, t, sc, top)
}

// walkDir walks one directory; d is what the ignore files say inside it (unused without a matcher). It
// returns false to stop the walk.
func (e *exec) walkDir(dir, root string, t *treeRead, sc *scope, d ignore.Dir) bool {
	l := listDir(dir, e.c.ctx.Home)
	if l == nil {
		return true
	}
	for i, en := range l.entries {
		if e.c.walked++; e.c.walked > maxTreeWalk {
			// Files past the bound are not looked at: a secret may be among them.
			e.p.notRO(fmt.Sprintf("reads more than %d files below `%s`, too many to look for secrets", maxTreeWalk, root))
			return false
		}
		name := en.Name()
		isDir := en.IsDir()
		p := dir + "/" + name
		if !t.hidden && strings.HasPrefix(name, ".") || isDir && (name == ".git" || excludes(t.excludeDir, name)) {
			continue
		}
		if t.matcher != nil && d.Ignored(name, isDir) {
			continue
		}
		if isDir && name == "objects" {
			if r, ok := objectStore(p); ok {
				e.c.objectRead(e.p, r, p)
				continue
			}
		}
		taken := isDir || !excludes(t.exclude, name) && (len(t.include) == 0 || includes(t.include, name))
		if t.split && taken && strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
			e.p.notRO(fmt.Sprintf("`%s` has a blank or quote in its name, which xargs splits", p))
			return false
		}
		if t.subst && taken && !substSafe(name) {
			e.p.notRO(fmt.Sprintf("`%s` has a blank, a wildcard or a leading dash in its name, which the shell splits or expands", p))
			return false
		}
		if isDir {
			var sub ignore.Dir
			if t.matcher != nil {
				sl := listDir(p, e.c.ctx.Home)
				if sl == nil {
					continue
				}
				sub = d.Child(name, ignore.Names(sl.entries))
			}
			if !e.walkDir(p, root, t, sc, sub) {
				return false
			}
			continue
		}
		if !taken {
			continue
		}
		if l.secret[i] {
			e.c.read(e.p, p, sc)
			return false
		}
	}
	return true
}

// ignoredBelow reports whether a walk of t leaves out path (absolute, below t.dir): an ignore rule of
// its own or of a directory on the way, or a hidden name on the way when hidden files are skipped.
func (t treeRead) ignoredBelow(path string) bool {
	rel, err := filepath.Rel(t.dir, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	comps := strings.Split(rel, "/")
	for i, comp := range comps {
		if !t.hidden && strings.HasPrefix(comp, ".") {
			return true
		}
		if t.matcher != nil {
			fi, err := os.Lstat(filepath.Join(t.dir, strings.Join(comps[:i+1], "/")))
			isDir := err == nil && fi.IsDir() || i < len(comps)-1
			if t.matcher.Match(strings.Join(comps[:i+1], "/"), isDir) {
				return true
			}
		}
	}
	return false
}
