package checkpoint

import (
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/ignore"
)

// fullWalkEvery bounds how long snapshots may rely on the watch alone (see watch.go).
const fullWalkEvery = time.Minute

// tree is the workspace as the last snapshot saw it, and the means to take the next one.
// index is what the last snapshot saw, read from the saved index the first time it is needed.
func (t *tree) index() *index {
	t.loadIdx.Do(func() {
		if t.loaded == nil {
			t.loaded = loadIndex(t.indexPath)
		}
	})
	return t.loaded
}

type tree struct {
	root string
	// git reads the repository the workspace is in (its ignore rules' configuration, the index); nil
	// reads it afresh at each snapshot.
	git   *gitrepo.Reader
	store *objects
	// loaded is what the last snapshot saw; use index(), which reads it from indexPath the first time
	// (set it only to start from an index of one's own).
	loaded    *index
	indexPath string
	loadIdx   sync.Once
	maxSize   int64
	// hashed counts files read by snapshots since the index was last saved.
	hashed int

	// watch reports the directories something happened in since the last snapshot; nil before the
	// first walk, or when watching cannot be had (noWatch).
	watch   *watcher
	noWatch bool
	// watched says the last full walk watched every directory it read; lastFull is when it started,
	// and rules the fingerprint of the ignore rules outside the tree then.
	watched  bool
	lastFull time.Time
	rules    string
	// full counts full walks, for tests.
	full int
	// borrow finds content in the person's git objects (the first snapshot's by the index, see
	// borrow.go); nil outside a work tree.
	borrow *borrower
	// tracked reads which paths git's index lists (see tracked.go); nil outside a work tree. wasTracked
	// is what it listed at the last snapshot, whose start was lastStart.
	tracked    *tracker
	wasTracked *trackedView
	lastStart  time.Time
}

// snapshot looks at the workspace and returns what changed since the last snapshot, sorted by path. The
// first snapshot of an empty index reports every file as added.
func (t *tree) snapshot() ([]Change, int64, error) {
	start := time.Now()
	m, err := ignore.ForDirWith(t.root, nil, t.git)
	if err != nil {
		return nil, 0, err
	}
	if t.watch != nil && t.watched && m.Fingerprint() == t.rules && start.Sub(t.lastFull) < fullWalkEvery {
		dirty, deleted, ok := t.watch.drain()
		if ok && !touchesIgnoreFiles(dirty) {
			view := t.tracked.current(touches(dirty, ".git"))
			// A path the index lists since the last snapshot (git add -f) may be one no watch covers:
			// the nearest directory followed is looked at again, which brings it in.
			if view != t.wasTracked {
				for _, d := range t.reach(view.added(t.wasTracked)) {
					if _, ok := dirty[d]; !ok {
						dirty[d] = nil
					}
				}
			}
			if len(dirty) == 0 {
				t.wasTracked, t.lastStart = view, start
				return nil, 0, nil
			}
			dirs := make([]string, 0, len(dirty))
			for d := range dirty {
				if !deleted[d] {
					dirs = append(dirs, d)
				}
			}
			return t.walk(m, start, view, dirs, deleted)
		}
	}
	if t.watch == nil && !t.noWatch {
		if w, err := newWatcher(t.root); err == nil {
			t.watch = w
		} else {
			t.noWatch = true
		}
	}
	if t.watch != nil {
		// What happened before this walk, the walk sees.
		t.watch.drain()
		t.watch.reset()
	}
	changes, grown, err := t.walk(m, start, t.tracked.current(true), nil, nil)
	if err != nil {
		return nil, grown, err
	}
	t.full++
	t.lastFull, t.rules = start, m.Fingerprint()
	t.watched = false
	if t.watch != nil {
		t.watch.mu.Lock()
		failed := t.watch.failed
		t.watch.mu.Unlock()
		if failed {
			// Watches cannot cover this tree (the kernel's limit): walk it whole every time.
			t.watch.close()
			t.watch, t.noWatch = nil, true
		} else {
			t.watched = true
		}
	}
	return changes, grown, nil
}

// touchesIgnoreFiles reports whether an ignore file changed, which may change what is ignored anywhere
// below it: only a full walk can tell.
func touchesIgnoreFiles(dirty map[string][]string) bool { return touches(dirty, ".gitignore") }

// touches reports whether something happened to a name in any directory.
func touches(dirty map[string][]string, name string) bool {
	for _, names := range dirty {
		if slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// reach returns the directories to look at again for the paths given, which the index lists since the
// last snapshot: for each not followed yet, the nearest directory above it that is. One below a followed
// link or file cannot be reached.
func (t *tree) reach(paths []string) []string {
	var dirs []string
	seen := map[string]bool{}
	for _, p := range paths {
		if t.index().entries[p] != nil {
			continue
		}
		dir, ok := p, true
		for dir != "" {
			if i := strings.LastIndexByte(dir, '/'); i >= 0 {
				dir = dir[:i]
			} else {
				dir = ""
				break
			}
			if e := t.index().entries[dir]; e != nil {
				ok = e.isDir()
				break
			}
		}
		if ok && !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// walk takes a snapshot: of the whole tree when dirty is nil, else of the directories in dirty only;
// replaced names the directories deleted since, whatever stands at their paths now. view is what git's
// index lists now.
func (t *tree) walk(m *ignore.Matcher, start time.Time, view *trackedView, dirty []string, replaced map[string]bool) ([]Change, int64, error) {
	// Taken before the walk, whatever comes of it: a snapshot after a call never borrows.
	borrow := t.borrow.lend()
	rootFd, err := openRoot(t.root)
	if err != nil {
		return nil, 0, err
	}
	defer unix.Close(rootFd)
	t.index().gen++
	gen := t.index().gen
	s := &scan{root: t.root, rootFd: rootFd, prev: t.index(), gen: gen, start: start, w: t.watch, replaced: replaced,
		sticky: t.full > 0, tracked: view, wasTracked: t.wasTracked, lastStart: t.lastStart}
	if dirty == nil {
		err = s.walk(m)
	} else {
		err = s.walkDirty(m, dirty)
	}
	if err != nil {
		return nil, 0, err
	}
	touched, grown, err := hashFiles(rootFd, s.touched, t.store, t.maxSize, start, borrow)
	if err != nil {
		return nil, grown, err
	}
	t.hashed += len(touched)

	relisted := map[string]*entry{}
	for _, d := range s.dirs {
		relisted[d.path] = d.e
	}
	if d, ok := relisted[""]; ok {
		t.index().root = d
		delete(relisted, "")
	}
	var changes []Change
	// What left the directories a partial scan read again goes first, so that a path that went and came
	// back (a file replaced by a directory of the same name) ends up as the new entry.
	if s.partial {
		for _, p := range s.deleted {
			for _, path := range t.below(p) {
				if e := t.index().entries[path]; e != nil {
					delete(t.index().entries, path)
					if c, ok := classify(path, e.state(), nil); ok {
						changes = append(changes, c)
					}
				}
			}
		}
	}
	for _, tc := range touched {
		old := t.index().entries[tc.path]
		if d, ok := relisted[tc.path]; ok {
			tc.e.list, tc.e.unlisted, tc.e.followed = d.list, d.unlisted, d.followed
			delete(relisted, tc.path)
		}
		tc.e.gen = gen
		t.index().entries[tc.path] = tc.e
		if tc.quiet {
			continue
		}
		if old != nil && old.skipped && tc.e.skipped && old.mode == tc.e.mode && old.size == tc.e.size &&
			old.mtime == tc.e.mtime && old.ino == tc.e.ino {
			// Not saved either time, and by its stat the same file: nothing to report.
			continue
		}
		if c, ok := classify(tc.path, old.state(), tc.e.state()); ok {
			changes = append(changes, c)
		}
	}
	// Directories listed again whose own state did not change: remember their new stat and listing.
	for path, d := range relisted {
		if e := t.index().entries[path]; e != nil && e.isDir() {
			d.gen = e.gen
			t.index().entries[path] = d
		}
	}
	if !s.partial {
		for path, e := range t.index().entries {
			if e.gen == gen {
				continue
			}
			if _, err := statAt(rootFd, path); err == nil || !isGone(err) {
				if s.sticky {
					// Still there, or it cannot be told (a directory that cannot be read), but the
					// walk could not look at it: it is kept as it was, and looked at again next time.
					e.gen = gen
					continue
				}
				// Ignored by the rules as the session starts: no longer followed, and not reported.
				delete(t.index().entries, path)
				continue
			}
			delete(t.index().entries, path)
			c, _ := classify(path, e.state(), nil)
			changes = append(changes, c)
		}
	}
	t.wasTracked, t.lastStart = view, start
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	// A path both deleted and added in one scan is one change.
	return mergeSamePath(changes), grown, nil
}

// below lists p and every indexed path under it; "dir/" lists only what is under dir.
func (t *tree) below(p string) []string {
	var out []string
	dir, onlyUnder := strings.CutSuffix(p, "/")
	if !onlyUnder {
		out = append(out, p)
	}
	e := t.index().entries[dir]
	if e == nil || !e.isDir() {
		if onlyUnder || e == nil {
			// The directory's own entry is already replaced: find what was under it by name.
			prefix := dir + "/"
			for path := range t.index().entries {
				if strings.HasPrefix(path, prefix) {
					out = append(out, path)
				}
			}
		}
		return out
	}
	if e.unlisted {
		for _, name := range e.followed {
			out = append(out, t.below(dir+"/"+name)...)
		}
		return out
	}
	if e.list == nil {
		prefix := dir + "/"
		for path := range t.index().entries {
			if strings.HasPrefix(path, prefix) {
				out = append(out, path)
			}
		}
		return out
	}
	for _, le := range e.list {
		out = append(out, t.below(dir+"/"+le.Name())...)
	}
	return out
}

// mergeSamePath joins a deletion and an addition of the same path, sorted together.
func mergeSamePath(changes []Change) []Change {
	out := changes[:0]
	for _, c := range changes {
		if n := len(out); n > 0 && out[n-1].Path == c.Path {
			old, new := out[n-1].Old, c.New
			if old == nil {
				old = c.Old
			}
			if new == nil {
				new = out[n-1].New
			}
			if merged, ok := classify(c.Path, old, new); ok {
				out[n-1] = merged
			} else {
				out = out[:n-1]
			}
			continue
		}
		out = append(out, c)
	}
	return out
}
