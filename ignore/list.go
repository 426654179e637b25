package ignore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/safefile"
)

// The files of a tree as git lists them (`git ls-files --cached --others --exclude-standard`), without
// running git: the index's entries (read by gitrepo) and the untracked files the rules do not ignore
// (the walk). git would run a repository's programs on its own account for that listing (a partial
// clone's .git/config makes it fetch a missing .gitignore, running whatever remote.*.uploadpack says);
// reading the files runs nothing.
//
// A listing is also where a search's reach is decided, and git's answer is not enough for that: git
// prints an index entry whatever its path says (`../x`, `/etc/passwd`, `.git/config`) and whatever now
// stands above it (a tracked directory replaced with a link to /etc). So a listed file is one a reader
// opens below the directory without following a link: walked files never pass a link, and an index
// entry is listed only if git would check its path out (gitrepo.ValidPath) and no directory on the way
// to it is a link. The rest are counted in Refused.

// ListOptions say how List works.
type ListOptions struct {
	// Max bounds how many files (and directories, with Dirs) are listed; 0 is no bound.
	Max int
	// Dirs asks for the directories too.
	Dirs bool
	// IgnoreOutsideRepo applies, outside any work tree, the tree's own .gitignore files and the person's
	// core.excludesFile, as git would once the directory became a repository. Without it every file
	// there is listed.
	IgnoreOutsideRepo bool
	// Open opens every file read to decide (the repository's configuration, its index, the rules): see
	// Options.Open. nil keeps links inside the work tree.
	Open *safefile.Opener
	// Git reads the repository (where it is, its configuration, its index) and remembers it for the
	// next listing while its files are unchanged; nil reads it afresh.
	Git *gitrepo.Reader
	// Each, when set, is told every file and directory (with a trailing slash) as it is listed, once
	// each, in no particular order: a reader of a large tree can use what is found before the end.
	Each func(rel string)
}

// Listing is what List found.
type Listing struct {
	// Files are the regular files listed, slash-separated, relative to the directory, sorted.
	Files []string
	// Dirs are the directories walked and those holding a listed file, with a trailing slash, sorted
	// (with ListOptions.Dirs).
	Dirs []string
	// Stopped says the listing reached ListOptions.Max.
	Stopped bool
	// Git says the files are git's view of a work tree: tracked and untracked but not ignored. It is
	// false outside any work tree, and when the directory itself is ignored (asking for an ignored
	// directory, node_modules say, is asking for its files): then every file below it is listed.
	Git bool
	// Refused counts the index entries below the directory that were not listed because reading them
	// could leave it: a path git would not check out, or one below a directory that is now a link.
	Refused int
}

// errStop ends a walk that reached the bound.
var errStop = errors.New("stop")

// List lists the regular files below dir (an absolute path, links resolved) the way git lists them. Files
// that cannot be told apart from what git lists: a tracked file that is gone or is no longer a regular
// file (a symbolic link, a directory) is left out, as are submodules and nested repositories, which git
// lists as one path each, and symbolic links, which a search does not follow.
func List(ctx context.Context, dir string, o ListOptions) (Listing, error) {
	o.Git = reader(o.Git)
	l := lister{ctx: ctx, dir: dir, opts: o}
	repo, ok := FindRepo(dir, o.Open, o.Git)
	if !ok {
		if !o.IgnoreOutsideRepo {
			return l.all()
		}
		m, err := ForDirWith(dir, o.Open, o.Git)
		if err != nil {
			return Listing{}, err
		}
		return l.git(m, gitrepo.Index{}, "")
	}
	open := o.Open
	if open == nil {
		open = o.Git.Opener(repo)
	}
	idx, ok := o.Git.ReadIndex(repo, open)
	if !ok {
		// An index Warden cannot read in full (split, sparse, SHA-256, damaged): the untracked view alone,
		// which misses only tracked files that the rules ignore.
		idx = gitrepo.Index{}
	}
	sources, fold := GitSources(repo, open, o.Git)
	fromIndex, closeBlobs := skippedIgnoreFiles(o.Git, repo, idx)
	defer closeBlobs()
	m, err := New(dir, Options{Top: repo.Top, Sources: sources, FoldCase: fold, Open: open, FromIndex: fromIndex})
	if err != nil {
		return Listing{}, err
	}
	if m.RootIgnored() {
		return l.all()
	}
	l.out.Git = true
	return l.git(m, idx, m.prefix)
}

type lister struct {
	ctx  context.Context
	dir  string
	opts ListOptions
	out  Listing
}

// full reports whether the bound is reached.
func (l *lister) full() bool {
	if l.opts.Max > 0 && len(l.out.Files)+len(l.out.Dirs) >= l.opts.Max {
		l.out.Stopped = true
		return true
	}
	return false
}

// all lists every regular file below dir, skipping .git, without following links.
func (l *lister) all() (Listing, error) {
	m, err := New(l.dir, Options{})
	if err != nil {
		return Listing{}, err
	}
	err = m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner does not spoil the rest
		}
		return l.add(rel, d)
	})
	if err != nil && !errors.Is(err, errStop) {
		return Listing{}, err
	}
	slices.Sort(l.out.Files)
	slices.Sort(l.out.Dirs)
	return l.out, nil
}

// add records a walked entry.
func (l *lister) add(rel string, d fs.DirEntry) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	switch {
	case d.IsDir():
		if !l.opts.Dirs {
			return nil
		}
		rel += "/"
		if l.full() {
			return errStop
		}
		l.out.Dirs = append(l.out.Dirs, rel)
	case d.Type().IsRegular():
		if l.full() {
			return errStop
		}
		l.out.Files = append(l.out.Files, rel)
	default:
		return nil
	}
	if l.opts.Each != nil {
		l.opts.Each(rel)
	}
	return nil
}

// git lists the untracked files m does not ignore and the index's entries below the directory, whose
// path relative to the work tree's top starts with prefix.
func (l *lister) git(m *Matcher, idx gitrepo.Index, prefix string) (Listing, error) {
	var tracked, gitlinks []string
	for _, e := range idx.Entries {
		rel, ok := strings.CutPrefix(e.Path, prefix)
		if !ok {
			continue
		}
		if !gitrepo.ValidPath(e.Path, e.Mode) {
			l.out.Refused++
			continue
		}
		switch e.Mode & 0o170000 {
		case 0o100000:
			tracked = append(tracked, rel)
		case 0o160000:
			gitlinks = append(gitlinks, rel)
		}
	}
	slices.Sort(tracked)
	tracked = slices.Compact(tracked) // an unmerged path has an entry per stage
	slices.Sort(gitlinks)
	err := m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && l.skipDir(rel, tracked, gitlinks) {
			return SkipDir
		}
		return l.add(rel, d)
	})
	if err != nil && !errors.Is(err, errStop) {
		return Listing{}, err
	}
	if err == nil {
		l.addTracked(tracked)
	}
	slices.Sort(l.out.Files)
	l.out.Files = slices.Compact(l.out.Files)
	slices.Sort(l.out.Dirs)
	l.out.Dirs = slices.Compact(l.out.Dirs)
	return l.out, nil
}

// skipDir reports whether git's walk of untracked files stays out of the directory rel: a submodule's
// (a gitlink of the index), or a nested repository's that holds nothing the index tracks.
func (l *lister) skipDir(rel string, tracked, gitlinks []string) bool {
	if _, found := slices.BinarySearch(gitlinks, rel); found {
		return true
	}
	abs := filepath.Join(l.dir, filepath.FromSlash(rel))
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err != nil {
		return false
	}
	if i, _ := slices.BinarySearch(tracked, rel+"/"); i < len(tracked) && strings.HasPrefix(tracked[i], rel+"/") {
		return false
	}
	_, nested := l.opts.Git.AtTop(abs, noGitEnv, l.opts.Open)
	return nested
}

// addTracked adds the tracked files the walk did not list (those the rules ignore, and those below an
// ignored or nested directory), each only if it is a regular file reached without a link.
func (l *lister) addTracked(tracked []string) {
	walked := slices.Clone(l.out.Files)
	slices.Sort(walked)
	dirs := map[string]bool{}
	for _, d := range l.out.Dirs {
		dirs[d] = true
	}
	real := map[string]bool{} // directory (relative, "" for dir) -> a directory, not a link
	isRealDir := func(rel string) bool {
		ok, seen := real[rel]
		if !seen {
			fi, err := os.Lstat(filepath.Join(l.dir, filepath.FromSlash(rel)))
			ok = err == nil && fi.IsDir()
			real[rel] = ok
		}
		return ok
	}
	for _, t := range tracked {
		if _, found := slices.BinarySearch(walked, t); found {
			continue
		}
		linked, gone := false, false
		for i := 0; i < len(t); i++ {
			if t[i] != '/' {
				continue
			}
			if !isRealDir(t[:i]) {
				fi, err := os.Lstat(filepath.Join(l.dir, filepath.FromSlash(t[:i])))
				linked = err == nil && fi.Mode()&fs.ModeSymlink != 0
				gone = !linked
				break
			}
		}
		switch {
		case linked:
			l.out.Refused++
			continue
		case gone:
			continue
		}
		fi, err := os.Lstat(filepath.Join(l.dir, filepath.FromSlash(t)))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if l.full() {
			return
		}
		l.out.Files = append(l.out.Files, t)
		if l.opts.Each != nil {
			l.opts.Each(t)
		}
		if !l.opts.Dirs {
			continue
		}
		for i := 0; i < len(t); i++ {
			if t[i] != '/' || dirs[t[:i+1]] {
				continue
			}
			dirs[t[:i+1]] = true
			l.out.Dirs = append(l.out.Dirs, t[:i+1])
			if l.opts.Each != nil {
				l.opts.Each(t[:i+1])
			}
		}
	}
}

// skippedIgnoreFiles returns, for Options.FromIndex, the content of the .gitignore files a sparse checkout
// left out of the work tree, read from the repository's object store as git reads them. An object that
// is not there (a partial clone's) is no rules: git would fetch it, running the repository's programs.
func skippedIgnoreFiles(git *gitrepo.Reader, repo gitrepo.Repo, idx gitrepo.Index) (func(rel string) []byte, func()) {
	ids := map[string][20]byte{}
	for _, e := range idx.Entries {
		if e.SkipWorktree && e.Stage == 0 && path.Base(e.Path) == ".gitignore" && gitrepo.ValidPath(e.Path, e.Mode) {
			ids[e.Path] = e.ID
		}
	}
	if len(ids) == 0 {
		return nil, func() {}
	}
	var (
		mu    sync.Mutex
		blobs *gitrepo.Blobs
	)
	read := func(rel string) []byte {
		id, ok := ids[rel]
		if !ok {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if blobs == nil {
			b, err := git.OpenBlobs(repo)
			if err != nil {
				return nil
			}
			blobs = b
		}
		data, err := blobs.Read(id)
		if err != nil || len(data) > maxFileSize {
			return nil
		}
		return data
	}
	return read, func() {
		mu.Lock()
		defer mu.Unlock()
		if blobs != nil {
			blobs.Close()
		}
	}
}
