package checkpoint

import (
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/gitrepo"
)

// In a git work tree, most files are already in the person's object store: a file whose stat matches
// what the index recorded for it has the content of the index's object, and its id is that object's
// name (the same id checkpoints use). Such files are not read or copied by a snapshot; their content is
// read back from the person's objects when a diff or a restore needs it. The person's repository is
// only ever read, never run. As soon as a call (or anyone) changes such a file, its old content is
// copied into the checkpoint store, so an undo never depends on what the person's git keeps later.
//
// The index names contents for the session's first snapshot only, as the session found it. Within the
// session a command may write the index, and an entry with its file's stat and another content's
// object would have what the call changed recorded, shown and undone as that other content; so what
// changed after the first snapshot is always read from the file.

type borrower struct {
	git    *gitrepo.Reader
	repo   gitrepo.Repo
	prefix string // the workspace relative to the work tree's top, with a trailing slash, or ""

	mu      sync.Mutex
	blobs   *gitrepo.Blobs
	noBlobs bool
	// lent says the index was handed to a snapshot: no later one gets it.
	lent bool
}

// lender is the person's index as the first snapshot read it.
type lender struct {
	b      *borrower
	prefix string
	index  map[string]gitrepo.StatEntry
}

// workTree is the git work tree a workspace is in.
type workTree struct {
	repo   gitrepo.Repo
	prefix string // the workspace relative to the work tree's top, with a trailing slash, or ""
}

// findWorkTree returns the work tree the workspace is in, or nil outside one.
func findWorkTree(git *gitrepo.Reader, workspace string) *workTree {
	r, ok := git.Find(workspace, gitrepo.OSEnv, nil)
	if !ok || r.Top == "" {
		return nil
	}
	rel, err := filepath.Rel(r.Top, workspace)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	w := &workTree{repo: r}
	if rel != "." {
		w.prefix = filepath.ToSlash(rel) + "/"
	}
	return w
}

func newBorrower(git *gitrepo.Reader, w *workTree) *borrower {
	if w == nil {
		return nil
	}
	return &borrower{git: git, repo: w.repo, prefix: w.prefix}
}

// lend returns the index for a snapshot to name contents by, the first time it is called, and nil
// after: each snapshot calls it, and only the session's first one may borrow (see above).
func (b *borrower) lend() *lender {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lent {
		return nil
	}
	b.lent = true
	idx, ok := b.git.StatIndex(b.repo)
	if !ok || len(idx) == 0 {
		return nil
	}
	return &lender{b: b, prefix: b.prefix, index: idx}
}

// lookup returns the object id of the file at rel (relative to the workspace) when its stat says it
// holds what the index recorded, and the person's store has that object.
func (l *lender) lookup(rel string, st *unix.Stat_t) (ID, bool) {
	if l == nil {
		return ID{}, false
	}
	e, ok := l.index[l.prefix+rel]
	if !ok || !e.Trusted() || e.Mode&0o170000 != 0o100000 || (e.Mode&0o100 != 0) != (st.Mode&0o100 != 0) ||
		e.Size != uint32(st.Size) || e.Ino != uint32(st.Ino) ||
		e.MtimeSec != uint32(st.Mtim.Sec) || e.MtimeNsec != uint32(st.Mtim.Nsec) ||
		e.CtimeSec != uint32(st.Ctim.Sec) || e.CtimeNsec != uint32(st.Ctim.Nsec) {
		return ID{}, false
	}
	blobs := l.b.open()
	if blobs == nil || !blobs.Has(e.ID) {
		return ID{}, false
	}
	return ID(e.ID), true
}

func (b *borrower) open() *gitrepo.Blobs {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.blobs == nil && !b.noBlobs {
		blobs, err := b.git.OpenBlobs(b.repo)
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
