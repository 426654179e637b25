package permissions

// Walking a tree the way the program that reads it does: grep -r reads every file; rg skips hidden files
// and what .rgignore, .ignore and (inside a git repository) .gitignore, .git/info/exclude and
// core.excludesFile leave out, without going into an ignored directory. Directory listings are cached
// and used again while the directory's times and inode stay the same, so a repository with 100,000
// ignored files costs a stat per directory that is read.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/warden-cli/warden/ignore"
)

// listing is one directory's entries, with which of them name secrets.
type listing struct {
	mtime, ctime int64
	ino          uint64
	home         string
	entries      []ignore.Entry
	secret       []bool
	// multi marks regular files with more than one name (hard links).
	multi []bool
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
	l = &listing{mtime: mtime, ctime: ctime, ino: st.Ino, home: home, entries: entries, secret: make([]bool, len(entries)),
		multi: make([]bool, len(entries))}
	for i, en := range entries {
		l.secret[i] = !en.IsDir() && isSecretPath(filepath.Join(dir, en.Name()), home)
		if en.Type() == 0 {
			// A hard link's other names are found when a walk takes the file in. A link made later in
			// another directory does not change this one's times: the count is as of the listing.
			var st syscall.Stat_t
			if syscall.Lstat(filepath.Join(dir, en.Name()), &st) == nil && st.Nlink > 1 {
				l.multi[i] = true
			}
		}
	}
	listingMu.Lock()
	if len(listings) >= maxListings {
		clear(listings)
	}
	listings[dir] = l
	listingMu.Unlock()
	return l
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
	var rs *rgState
	if t.rg != nil {
		if rs = rgStateAt(path, home); rs == nil {
			return
		}
	}
	var linked []string
	if e.walkDir(path, root, t, sc, rs, &linked) && !e.p.Secret {
		e.c.hardLinksOf(e.p, linked, sc)
	}
}

// walkDir walks one directory; rs is what rg's rules say inside it (nil for other programs). Files with
// other names are added to linked. It returns false to stop the walk.
func (e *exec) walkDir(dir, root string, t *treeRead, sc *scope, rs *rgState, linked *[]string) bool {
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
		isLink := en.Type()&fs.ModeSymlink != 0
		p := dir + "/" + name
		if name == ".git" {
			if isDir && e.gitConfigWalked(p, t, sc) {
				return false
			}
			continue
		}
		if t.rg != nil {
			asDir := isDir
			if isLink && t.follow {
				fi, err := os.Stat(p)
				asDir = err == nil && fi.IsDir()
			}
			if !t.rg.reads(rs, p, name, asDir) {
				continue
			}
		} else if !t.hidden && strings.HasPrefix(name, ".") || isDir && excludes(t.excludeDir, name) {
			continue
		}
		if isDir && name == "objects" {
			if r, ok := objectStore(p); ok {
				e.c.objectRead(e.p, r, p)
				continue
			}
		}
		taken := isDir || t.takes(name)
		if t.split && taken && strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
			e.p.notRO(fmt.Sprintf("`%s` has a blank or quote in its name, which xargs splits", p))
			return false
		}
		if t.subst && taken && !substSafe(name) {
			e.p.notRO(fmt.Sprintf("`%s` has a blank, a wildcard or a leading dash in its name, which the shell splits or expands", p))
			return false
		}
		if isDir {
			var sub *rgState
			if rs != nil {
				if sub = rs.child(p, e.c.ctx.Home); sub == nil {
					continue
				}
			}
			if !e.walkDir(p, root, t, sc, sub, linked) {
				return false
			}
			continue
		}
		if isLink && (t.follow || t.opens() && t.takes(name)) {
			// The program, or the one the names are handed to, opens what the link points to.
			if !e.followLink(p, root, t, sc, rs, linked) {
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
		if l.multi[i] {
			*linked = append(*linked, p)
		}
	}
	return true
}

// followLink judges a symbolic link met in a walk whose program follows it: a file it points to is read
// under the name it resolves to; a directory is walked as if it were there, once per classification.
func (e *exec) followLink(p, root string, t *treeRead, sc *scope, rs *rgState, linked *[]string) bool {
	target := e.c.resolved(p)
	fi, err := os.Stat(target)
	if err != nil {
		return true
	}
	if !fi.IsDir() {
		if !t.takes(filepath.Base(p)) && !t.takes(filepath.Base(target)) {
			return true
		}
		e.c.read(e.p, p, sc)
		return !e.p.Secret
	}
	if e.c.followed == nil {
		e.c.followed = map[string]bool{}
	}
	if e.c.followed[target] {
		return true
	}
	e.c.followed[target] = true
	if within(target, e.c.resolved(filepath.Dir(p))) {
		return true // a link to a directory above it: rg and grep stop at the loop
	}
	var sub *rgState
	if rs != nil {
		if sub = rs.child(target, e.c.ctx.Home); sub == nil {
			return true
		}
	}
	e.c.read(e.p, target, sc)
	if e.p.Secret {
		return false
	}
	// Rules naming files below it apply as to any recursive read.
	e.p.trees = append(e.p.trees, treeRead{dir: target, hidden: true, follow: true, home: e.c.ctx.Home})
	return e.walkDir(target, root, t, sc, sub, linked)
}

// takes reports whether a file of this name passes the read's include and exclude globs.
func (t *treeRead) takes(name string) bool {
	if t.grepGlobs != nil {
		return grepTakes(t.grepGlobs, name)
	}
	return !excludes(t.exclude, name) && (len(t.include) == 0 || includes(t.include, name))
}

// opens reports whether the names the walk finds are handed to a program that opens them (find -exec,
// xargs, a command substitution), which follows links.
func (t *treeRead) opens() bool { return t.named || t.split || t.subst }

// ignoredBelow reports whether a walk of t leaves out path (absolute, below t.dir): rg's rules leave
// out it or a directory on the way, or a hidden name is on the way when hidden files are skipped.
func (t treeRead) ignoredBelow(path string) bool {
	rel, err := filepath.Rel(t.dir, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	comps := strings.Split(rel, "/")
	if t.rg == nil {
		for _, comp := range comps {
			if !t.hidden && strings.HasPrefix(comp, ".") {
				return true
			}
		}
		return false
	}
	rs := rgStateAt(t.dir, t.home)
	cur := t.dir
	for i, comp := range comps {
		next := cur + "/" + comp
		fi, err := os.Lstat(next)
		isDir := err == nil && fi.IsDir() || i < len(comps)-1
		if rs == nil {
			return false
		}
		if !t.rg.reads(rs, next, comp, isDir) {
			return true
		}
		if i < len(comps)-1 {
			if err != nil {
				return false
			}
			rs = rs.child(next, t.home)
		}
		cur = next
	}
	return false
}
