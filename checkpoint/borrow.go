package checkpoint

import (
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/permissions/gitrepo"
)

// In a git work tree, most files are already in the person's object store: a file whose stat matches
// what the index recorded for it has the content of the index's object, and its id is that object's
// name (the same id checkpoints use). Such files are not read or copied by a snapshot; their content is
// read back from the person's objects when a diff or a restore needs it. The person's repository is
// only ever read, never run. As soon as a call (or anyone) changes such a file, its old content is
// copied into the checkpoint store, so an undo never depends on what the person's git keeps later.

type borrower struct {
	repo   gitrepo.Repo
	prefix string // the workspace relative to the work tree's top, with a trailing slash, or ""

	mu      sync.Mutex
	blobs   *gitrepo.Blobs
	noBlobs bool
	index   map[string]gitrepo.StatEntry
	stamp   unix.Stat_t // of the index file index was read from
}

func newBorrower(workspace string) *borrower {
	r, ok := gitrepo.Find(workspace, gitrepo.OSEnv)
	if !ok || r.Top == "" {
		return nil
	}
	rel, err := filepath.Rel(r.Top, workspace)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	b := &borrower{repo: r}
	if rel != "." {
		b.prefix = filepath.ToSlash(rel) + "/"
	}
	return b
}

// refresh reads the index again if it changed since it was last read. Called before a snapshot hashes.
func (b *borrower) refresh() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var st unix.Stat_t
	if unix.Stat(filepath.Join(b.repo.GitDir, "index"), &st) != nil {
		b.index = nil
		return
	}
	if b.index != nil && st.Ino == b.stamp.Ino && st.Size == b.stamp.Size && st.Mtim == b.stamp.Mtim && st.Ctim == b.stamp.Ctim {
		return
	}
	idx, ok := gitrepo.StatIndex(b.repo)
	if !ok {
		idx = map[string]gitrepo.StatEntry{}
	}
	b.index, b.stamp = idx, st
}

// lookup returns the object id of the file at rel (relative to the workspace) when its stat says it
// holds what the index recorded, and the person's store has that object.
func (b *borrower) lookup(rel string, st *unix.Stat_t) (ID, bool) {
	if b == nil {
		return ID{}, false
	}
	b.mu.Lock()
	e, ok := b.index[b.prefix+rel]
	b.mu.Unlock()
	if !ok || !e.Trusted() || e.Mode&0o170000 != 0o100000 || (e.Mode&0o100 != 0) != (st.Mode&0o100 != 0) ||
		e.Size != uint32(st.Size) || e.Ino != uint32(st.Ino) ||
		e.MtimeSec != uint32(st.Mtim.Sec) || e.MtimeNsec != uint32(st.Mtim.Nsec) ||
		e.CtimeSec != uint32(st.Ctim.Sec) || e.CtimeNsec != uint32(st.Ctim.Nsec) {
		return ID{}, false
	}
	blobs := b.open()
	if blobs == nil || !blobs.Has(e.ID) {
		return ID{}, false
	}
	return ID(e.ID), true
}

func (b *borrower) open() *gitrepo.Blobs {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.blobs == nil && !b.noBlobs {
		blobs, err := gitrepo.OpenBlobs(b.repo)
		if err != nil {
			b.noBlobs = true
			return nil
		}
		b.blobs = blobs
	}
	return b.blobs
}

// read returns a borrowed content.
func (b *borrower) read(id ID) ([]byte, bool) {
	if b == nil {
		return nil, false
	}
	blobs := b.open()
	if blobs == nil {
		return nil, false
	}
	data, err := blobs.Read(id)
	return data, err == nil
}

func (b *borrower) close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.blobs != nil {
		b.blobs.Close()
		b.blobs = nil
	}
}

// keep copies into the store the content of changes that is only borrowed, so that undoing them never
// depends on the person's git objects; a file over the size cap stays borrowed. It returns how many
// bytes the store grew by.
func keep(changes []Change, store *objects, maxSize int64) int64 {
	var grown int64
	for _, c := range changes {
		for _, s := range []*State{c.Old, c.New} {
			if !s.IsFile() || s.Skipped || s.ID.IsZero() || s.Size > maxSize || store.has(s.ID) {
				continue
			}
			if data, err := store.get(s.ID); err == nil {
				n, _ := store.put(s.ID, data)
				grown += n
			}
		}
	}
	return grown
}
