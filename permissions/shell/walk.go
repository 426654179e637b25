package shell

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
func (e *Exec) walkTree(path, root string, t *treewalk.Tree, sc *Scope) {
	home := e.S.Ctx.Home
	fi, err := os.Lstat(path)
	if err != nil {
		return
	}
	if !fi.IsDir() {
		if e.S.IsSecret(path) {
			e.S.Read(e.P, path, sc)
		}
		return
	}
	var rs *treewalk.RgState
	if t.Rg != nil {
		if rs = e.S.Ctx.Memory.Lister.RgStateAt(path, home); rs == nil {
			return
		}
	}
	var linked []string
	if e.walkDir(path, root, t, sc, rs, &linked) && !e.P.Secret {
		e.S.hardLinksOf(e.P, linked, sc)
	}
}

// walkDir walks one directory; rs is what rg's rules say inside it (nil for other programs). Files with
// other names are added to linked. It returns false to stop the walk.
func (e *Exec) walkDir(dir, root string, t *treewalk.Tree, sc *Scope, rs *treewalk.RgState, linked *[]string) bool {
	l := e.S.Ctx.Memory.Lister.List(dir, e.S.Ctx.Home)
	if l == nil {
		return true
	}
	for i, en := range l.Entries {
		if e.S.walked++; e.S.walked > treewalk.MaxEntries {
			// Files past the bound are not looked at: a secret may be among them.
			e.P.NotRO(fmt.Sprintf("reads more than %d files below `%s`, too many to look for secrets", treewalk.MaxEntries, root))
			return false
		}
		name := en.Name()
		isDir := en.IsDir()
		isLink := en.Type()&fs.ModeSymlink != 0
		p := dir + "/" + name
		if name == ".git" {
			if isDir && e.gitConfigWalked(p, t, sc, rs) {
				return false
			}
			continue
		}
		if !t.Enters(rs, p, name, isDir, isLink) {
			continue
		}
		if isDir && name == "objects" {
			if r, ok := e.S.objectStore(p); ok {
				e.S.objectRead(e.P, r, p)
				continue
			}
		}
		taken := isDir || t.Takes(name)
		if t.Split && taken && strings.ContainsAny(name, " \t\n\v\f\r'\"\\") {
			e.P.NotRO(fmt.Sprintf("`%s` has a blank or quote in its name, which xargs splits", p))
			return false
		}
		if t.Subst && taken && !SubstSafe(name) {
			e.P.NotRO(fmt.Sprintf("`%s` has a blank, a wildcard or a leading dash in its name, which the shell splits or expands", p))
			return false
		}
		if isDir {
			var sub *treewalk.RgState
			if rs != nil {
				if sub = rs.Child(p, e.S.Ctx.Home); sub == nil {
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
			e.S.Read(e.P, p, sc)
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
func (e *Exec) followLink(p, root string, t *treewalk.Tree, sc *Scope, rs *treewalk.RgState, linked *[]string) bool {
	target := e.S.Resolved(p)
	fi, err := os.Stat(target)
	if err != nil {
		return true
	}
	if !fi.IsDir() {
		if !t.Takes(filepath.Base(p)) && !t.Takes(filepath.Base(target)) {
			return true
		}
		e.S.Read(e.P, p, sc)
		return !e.P.Secret
	}
	if e.S.followed == nil {
		e.S.followed = map[string]bool{}
	}
	if e.S.followed[target] {
		return true
	}
	e.S.followed[target] = true
	if Within(target, e.S.Resolved(filepath.Dir(p))) {
		return true // a link to a directory above it: rg and grep stop at the loop
	}
	var sub *treewalk.RgState
	if rs != nil {
		if sub = rs.Child(target, e.S.Ctx.Home); sub == nil {
			return true
		}
	}
	e.S.Read(e.P, target, sc)
	if e.P.Secret {
		return false
	}
	// Rules naming files below it apply as to any recursive read.
	e.P.Trees = append(e.P.Trees, treewalk.Tree{Dir: target, Hidden: true, Follow: true, Home: e.S.Ctx.Home, Lister: e.S.Ctx.Memory.Lister})
	return e.walkDir(target, root, t, sc, sub, linked)
}

// TreeRead records a recursive read of root and looks below it for files that hold secrets.
func (e *Exec) TreeRead(root string, t treewalk.Tree) {
	sc := e.Scope()
	path := e.S.Abs(root, sc)
	if !filepath.IsAbs(path) {
		e.P.NotRO("reads `" + root + "` in a directory Warden lost track of")
		return
	}
	path = e.S.Resolved(path)
	t.Dir = path
	t.Home = e.S.Ctx.Home
	t.Lister = e.S.Ctx.Memory.Lister
	e.P.Trees = append(e.P.Trees, t)
	if r, ok := e.S.objectStore(path); ok {
		e.S.objectRead(e.P, r, root)
	}
	if e.P.Secret {
		return
	}
	if t.Index {
		var linked []string
		for _, f := range t.Tracked {
			p := filepath.Join(t.Repo, f)
			if !Within(path, p) {
				continue
			}
			if e.S.IsSecret(p) {
				e.S.Read(e.P, p, sc)
				return
			}
			if t.Opens() && !e.onDisk(p, root, &t, sc, &linked) {
				return
			}
		}
		e.S.hardLinksOf(e.P, linked, sc)
		return
	}
	e.walkTree(path, root, &t, sc)
}

// onDisk judges a name git lists that is handed to a program which opens it: what the work tree holds
// there may be a link, a directory (which a recursive program reads) or a file with other names. It
// returns false to stop.
func (e *Exec) onDisk(p, root string, t *treewalk.Tree, sc *Scope, linked *[]string) bool {
	dir, name := filepath.Dir(p), filepath.Base(p)
	if e.S.dirs == nil {
		e.S.dirs = map[string]string{}
	}
	real, ok := e.S.dirs[dir]
	if !ok {
		real = e.S.Resolved(dir)
		e.S.dirs[dir] = real
	}
	if real != dir {
		// A directory on the way is a link: the name is read where it leads.
		e.S.Read(e.P, p, sc)
		return !e.P.Secret
	}
	l := e.S.Ctx.Memory.Lister.List(dir, e.S.Ctx.Home)
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
		e.S.Read(e.P, p, sc)
		return false
	case l.Multi[i]:
		*linked = append(*linked, p)
	}
	return true
}
