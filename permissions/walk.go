package permissions

// Walking a tree the way the program that reads it does (package treewalk says which entries it takes
// in) and judging what the walk meets: a secret, a link the program follows, git's object store, a file
// with other names.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/ignore"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// walkTree looks below path (a directory or a file) for the files t reads, the way the program walks
// it: it stops at the first secret, which it records as read, and asks past treewalk.MaxEntries
// entries. root is path as the command gave it, for reasons.
func (e *exec) walkTree(path, root string, t *treewalk.Tree, sc *scope) {
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
	var rs *treewalk.RgState
	if t.Rg != nil {
		if rs = e.c.ctx.mem.lister.RgStateAt(path, home); rs == nil {
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
func (e *exec) walkDir(dir, root string, t *treewalk.Tree, sc *scope, rs *treewalk.RgState, linked *[]string) bool {
	l := e.c.ctx.mem.lister.List(dir, e.c.ctx.Home)
	if l == nil {
		return true
	}
	for i, en := range l.Entries {
		if e.c.walked++; e.c.walked > treewalk.MaxEntries {
			// Files past the bound are not looked at: a secret may be among them.
			e.p.notRO(fmt.Sprintf("reads more than %d files below `%s`, too many to look for secrets", treewalk.MaxEntries, root))
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
		if !t.Enters(rs, p, name, isDir, isLink) {
			continue
		}
		if isDir && name == "objects" {
			if r, ok := objectStore(p); ok {
				e.c.objectRead(e.p, r, p)
				continue
			}
		}
		taken := isDir || t.Takes(name)
		if t.Split && taken && strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
			e.p.notRO(fmt.Sprintf("`%s` has a blank or quote in its name, which xargs splits", p))
			return false
		}
		if t.Subst && taken && !substSafe(name) {
			e.p.notRO(fmt.Sprintf("`%s` has a blank, a wildcard or a leading dash in its name, which the shell splits or expands", p))
			return false
		}
		if isDir {
			var sub *treewalk.RgState
			if rs != nil {
				if sub = rs.Child(p, e.c.ctx.Home); sub == nil {
					continue
				}
			}
			if !e.walkDir(p, root, t, sc, sub, linked) {
				return false
			}
			continue
		}
		if isLink && (t.Follow || t.Opens() && t.Takes(name)) {
			// The program, or the one the names are handed to, opens what the link points to.
			if !e.followLink(p, root, t, sc, rs, linked) {
				return false
			}
			continue
		}
		if !taken {
			continue
		}
		if l.Secret[i] {
			e.c.read(e.p, p, sc)
			return false
		}
		if l.Multi[i] {
			*linked = append(*linked, p)
		}
	}
	return true
}

// followLink judges a symbolic link met in a walk whose program follows it: a file it points to is read
// under the name it resolves to; a directory is walked as if it were there, once per classification.
func (e *exec) followLink(p, root string, t *treewalk.Tree, sc *scope, rs *treewalk.RgState, linked *[]string) bool {
	target := e.c.resolved(p)
	fi, err := os.Stat(target)
	if err != nil {
		return true
	}
	if !fi.IsDir() {
		if !t.Takes(filepath.Base(p)) && !t.Takes(filepath.Base(target)) {
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
	var sub *treewalk.RgState
	if rs != nil {
		if sub = rs.Child(target, e.c.ctx.Home); sub == nil {
			return true
		}
	}
	e.c.read(e.p, target, sc)
	if e.p.Secret {
		return false
	}
	// Rules naming files below it apply as to any recursive read.
	e.p.trees = append(e.p.trees, treewalk.Tree{Dir: target, Hidden: true, Follow: true, Home: e.c.ctx.Home, Lister: e.c.ctx.mem.lister})
	return e.walkDir(target, root, t, sc, sub, linked)
}

// treeRead records a recursive read of root and looks below it for files that hold secrets.
func (e *exec) treeRead(root string, t treewalk.Tree) {
	sc := e.scope()
	path := e.c.abs(root, sc)
	if !filepath.IsAbs(path) {
		e.p.notRO("reads `" + root + "` in a directory Warden lost track of")
		return
	}
	path = e.c.resolved(path)
	t.Dir = path
	t.Home = e.c.ctx.Home
	t.Lister = e.c.ctx.mem.lister
	e.p.trees = append(e.p.trees, t)
	if r, ok := objectStore(path); ok {
		e.c.objectRead(e.p, r, root)
	}
	if e.p.Secret {
		return
	}
	if t.Index {
		var linked []string
		for _, f := range t.Tracked {
			p := filepath.Join(t.Repo, f)
			if !within(path, p) {
				continue
			}
			if isSecretPath(p, e.c.ctx.Home) {
				e.c.read(e.p, p, sc)
				return
			}
			if t.Opens() && !e.onDisk(p, root, &t, sc, &linked) {
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
func (e *exec) onDisk(p, root string, t *treewalk.Tree, sc *scope, linked *[]string) bool {
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
	l := e.c.ctx.mem.lister.List(dir, e.c.ctx.Home)
	if l == nil {
		return true
	}
	i, found := slices.BinarySearchFunc(l.Entries, name, func(en ignore.Entry, n string) int { return strings.Compare(en.Name(), n) })
	if !found {
		return true
	}
	switch en := l.Entries[i]; {
	case en.IsDir():
		return e.walkDir(p, root, t, sc, nil, linked)
	case en.Type()&fs.ModeSymlink != 0:
		return e.followLink(p, root, t, sc, nil, linked)
	case l.Secret[i]:
		e.c.read(e.p, p, sc)
		return false
	case l.Multi[i]:
		*linked = append(*linked, p)
	}
	return true
}
