package checkpoint

import (
	"slices"
	"sort"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
)

// Snapshots follow what git follows: a file in the person's index is tracked, and git never counts a
// tracked file as ignored, whatever .gitignore says. So a walk follows an ignored name when the index
// lists it, or lists something below it; an ignored directory it enters for that is not listed (it may
// hold a build's hundred thousand files): only the names the index lists there, and those followed
// there before, are looked at.
//
// Which paths are tracked is read from the index at every snapshot (a command may git add or git rm);
// only the names are used, never the contents or stat the index records (see borrow.go for why), and
// a path that leaves the index stays followed while it is there, as a path that a rule starts to
// ignore does (see scan.sticky). An entry is only ever used one name at a time, below a directory the
// walk opened without following links: an entry with an empty, "." or ".." component, or one through
// .git, is never looked at, and a link on the way is recorded as the link it is, never entered.

// trackedView is what the index lists below the workspace: its paths sorted byte by byte, as git sorts
// them, each starting with prefix (the workspace's place in the work tree).
type trackedView struct {
	paths  []string
	prefix string
}

// tracker reads the index of the work tree the workspace is in, again only when the file changed.
type tracker struct {
	git       *gitrepo.Reader
	workspace string
	// work is the work tree; nil while the workspace is in none, which look asks about again.
	work *workTree
	// raw is the list the view was made from: gitrepo hands the same one back while the index file is
	// unchanged.
	raw  []string
	view *trackedView
}

func newTracker(git *gitrepo.Reader, workspace string, work *workTree) *tracker {
	return &tracker{git: git, workspace: workspace, work: work}
}

// current returns what the index lists now; nil outside a work tree, or when the index cannot be read
// (then the ignore rules alone decide). Outside a work tree, look says to find out whether the workspace
// is in one now (a command ran git init): full walks do, and snapshots after a .git appeared.
func (k *tracker) current(look bool) *trackedView {
	if k == nil {
		return nil
	}
	if k.work == nil {
		if !look {
			return nil
		}
		if k.work = findWorkTree(k.git, k.workspace); k.work == nil {
			return nil
		}
	}
	idx, ok := k.git.ReadIndex(k.work.repo, nil)
	if !ok {
		k.raw, k.view = nil, nil
		return nil
	}
	if k.view != nil && len(idx.Paths) == len(k.raw) && (len(k.raw) == 0 || &idx.Paths[0] == &k.raw[0]) {
		return k.view
	}
	k.raw, k.view = idx.Paths, newTrackedView(idx, k.work.prefix)
	return k.view
}

func newTrackedView(idx gitrepo.Index, prefix string) *trackedView {
	paths := idx.Paths
	owned := false
	if len(idx.Gitlinks) > 0 {
		// A submodule is a repository of its own, not a file of this one.
		links := map[string]bool{}
		for _, g := range idx.Gitlinks {
			links[g] = true
		}
		paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return links[p] })
		owned = true
	}
	if !slices.IsSorted(paths) {
		// git keeps it sorted; a crafted index need not be.
		if !owned {
			paths = slices.Clone(paths)
		}
		slices.Sort(paths)
	}
	lo := sort.SearchStrings(paths, prefix)
	hi := lo + sort.Search(len(paths)-lo, func(i int) bool { return !strings.HasPrefix(paths[lo+i], prefix) })
	return &trackedView{paths: paths[lo:hi], prefix: prefix}
}

// rel is the i-th path relative to the workspace.
func (v *trackedView) rel(i int) string { return v.paths[i][len(v.prefix):] }

// search returns the index of the first path, relative to the workspace, not below a+b.
func (v *trackedView) search(a, b string) int {
	return sort.Search(len(v.paths), func(i int) bool { return compareJoined(v.rel(i), a, b) >= 0 })
}

// compareJoined compares s with a+b without joining them.
func compareJoined(s, a, b string) int {
	if len(s) < len(a) {
		if c := strings.Compare(s, a[:len(s)]); c != 0 {
			return c
		}
		return -1
	}
	if c := strings.Compare(s[:len(a)], a); c != 0 {
		return c
	}
	return strings.Compare(s[len(a):], b)
}

// file reports whether the index lists rel itself.
func (v *trackedView) file(rel string) bool {
	if v == nil {
		return false
	}
	i := v.search(rel, "")
	return i < len(v.paths) && v.rel(i) == rel
}

// holds reports whether the index lists a path below rel.
func (v *trackedView) holds(rel string) bool {
	if v == nil {
		return false
	}
	i := v.search(rel, "/")
	return i < len(v.paths) && isBelow(v.rel(i), rel)
}

// has reports whether the index lists rel or a path below it.
func (v *trackedView) has(rel string) bool { return v.file(rel) || v.holds(rel) }

// isBelow reports whether p is below the directory dir ("" is the root).
func isBelow(p, dir string) bool {
	return dir == "" || len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}

// children calls f with each name in the directory dir that the index lists, or lists a path below, and
// that a walk may look at (never "", ".", ".." or .git), until f returns false. A name comes twice where
// the index lists both a file and a directory of that name, which git never writes.
func (v *trackedView) children(dir string, f func(name string) bool) {
	if v == nil {
		return
	}
	sep := "/"
	if dir == "" {
		sep = ""
	}
	for i := v.search(dir, sep); i < len(v.paths); {
		p := v.rel(i)
		if !isBelow(p, dir) {
			break
		}
		name, _, deeper := strings.Cut(p[len(dir)+len(sep):], "/")
		if name != "" && name != "." && name != ".." && !isDotGit(name) && !f(name) {
			return
		}
		if !deeper {
			i++
			continue
		}
		// Past everything below dir/name: '0' follows '/'.
		i = v.search(dir+sep+name, "0")
	}
}

// added returns the paths, relative to the workspace, that v lists and old does not.
func (v *trackedView) added(old *trackedView) []string {
	if v == nil {
		return nil
	}
	var out []string
	j := 0
	for i := range v.paths {
		p := v.rel(i)
		for old != nil && j < len(old.paths) && old.rel(j) < p {
			j++
		}
		if old == nil || j >= len(old.paths) || old.rel(j) != p {
			out = append(out, p)
		}
	}
	return out
}
