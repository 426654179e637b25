package checkpoint

import (
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/ignore"
)

// tree is the workspace as the last snapshot saw it, and the means to take the next one.
type tree struct {
	root    string
	store   *objects
	idx     *index
	maxSize int64
	// hashed counts files read by snapshots since the index was last saved.
	hashed int
}

// snapshot walks the workspace and returns what changed since the last snapshot, sorted by path. The
// first snapshot of an empty index reports every file as added.
func (t *tree) snapshot() ([]Change, int64, error) {
	start := time.Now()
	m, err := ignore.ForDir(t.root)
	if err != nil {
		return nil, 0, err
	}
	t.idx.gen++
	gen := t.idx.gen
	s := &scan{root: t.root, prev: t.idx, gen: gen, start: start}
	if err := s.walk(m); err != nil {
		return nil, 0, err
	}
	touched, grown, err := hashFiles(t.root, s.touched, t.store, t.maxSize, start)
	if err != nil {
		return nil, grown, err
	}
	t.hashed += len(touched)

	relisted := map[string]*entry{}
	for _, d := range s.dirs {
		relisted[d.path] = d.e
	}
	if d, ok := relisted[""]; ok {
		t.idx.root = d
		delete(relisted, "")
	}
	var changes []Change
	for _, tc := range touched {
		old := t.idx.entries[tc.path]
		if d, ok := relisted[tc.path]; ok {
			tc.e.list = d.list
			delete(relisted, tc.path)
		}
		tc.e.gen = gen
		t.idx.entries[tc.path] = tc.e
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
		if e := t.idx.entries[path]; e != nil && e.isDir() {
			d.gen = e.gen
			t.idx.entries[path] = d
		}
	}
	rootFd := -1
	for path, e := range t.idx.entries {
		if e.gen == gen {
			continue
		}
		delete(t.idx.entries, path)
		if rootFd < 0 {
			if rootFd, err = openRoot(t.root); err != nil {
				return nil, grown, err
			}
			defer unix.Close(rootFd)
		}
		// Still there, but not walked: now ignored. It is no longer followed, and not reported.
		if _, there := lstatAt(rootFd, path); there {
			continue
		}
		c, _ := classify(path, e.state(), nil)
		changes = append(changes, c)
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, grown, nil
}
