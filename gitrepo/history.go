package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warden-cli/warden/safefile"
)

// History is every path a repository's history holds: the files of every commit reachable from its
// refs, HEAD and the other work trees' HEADs, its reflogs (so the stash and commits dropped by a reset or
// a rebase count) and the special heads (ORIG_HEAD, FETCH_HEAD...).
type History struct {
	// Paths are relative to the work tree's top, sorted.
	Paths []string
	// objects are the names of every commit, tag and tree the walk reached, sorted.
	objects []oid
}

// HasObject reports whether the history reaches an object whose name starts with the hexadecimal
// prefix (at least 4 digits), the way git abbreviates names.
func (h History) HasObject(prefix string) bool {
	return hasPrefix(h.objects, prefix)
}

func hasPrefix(sorted []oid, prefix string) bool {
	if len(prefix) < 4 || len(prefix) > 40 {
		return false
	}
	prefix = strings.ToLower(prefix)
	var lo oid
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		default:
			return false
		}
		if i%2 == 0 {
			lo[i/2] = v << 4
		} else {
			lo[i/2] |= v
		}
	}
	i, _ := slices.BinarySearchFunc(sorted, lo, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
	return i < len(sorted) && strings.HasPrefix(sorted[i].String(), prefix)
}

// Has reports whether the history ever held path (relative to the top).
func (h History) Has(path string) bool {
	_, ok := slices.BinarySearch(h.Paths, path)
	return ok
}

// maxHistoryObjects bounds the commits and trees read for one repository; a bigger history counts as
// unreadable.
const maxHistoryObjects = 2000000

// ErrHistoryTooBig says the history holds more than a walk reads.
var ErrHistoryTooBig = errors.New("the history is too big to read through")

// ErrHistoryNotYet says the walk has not finished within the time it was given (or is going on
// elsewhere); asked again, it goes on from where it stopped.
var ErrHistoryNotYet = errors.New("the history is still being read")

// historyState is one repository's walk, kept between calls: what was read, what is left to read.
type historyState struct {
	mu      sync.Mutex
	commits map[oid]bool
	// dirs are, per directory of the work tree ("" for the top), the trees read there and the names
	// of the files any of them held.
	dirs    map[string]*histDir
	objects map[oid]bool
	// stack holds what is left to read: commits, tags and root trees.
	stack   []oid
	sorted  []string
	objList []oid
	tips    string
	err     error
	read    int
	// warming is set while a walk goes on in the background.
	warming bool
	// done is the last finished walk, read without the lock: a call whose tips match it needs no turn,
	// so one made with a time limit is not turned away while another holds the lock only to find the
	// walk done too.
	done atomic.Pointer[finishedWalk]
}

// finishedWalk is a walk's result and the tips it was read from. Its slices are never written again.
type finishedWalk struct {
	tips string
	h    History
}

type histDir struct {
	trees map[oid]bool
	files map[string]bool
}

// ReadHistory returns every path the repository's history holds. It reads only what changed since this
// Reader was last asked about the same repository: the refs are listed each time, and only commits not
// seen before are walked. Given a time limit (0 for none), it returns ErrHistoryNotYet when the walk
// takes longer, or when another call is walking the same repository; the walk goes on in the background,
// and a later call goes on from where it is. Another error means the history cannot be read in full (a
// SHA-256 or reftable repository, missing trees of a partial clone, damage, ErrHistoryTooBig).
func (rd *Reader) ReadHistory(r Repo, env Env, limit time.Duration) (History, error) {
	if env == nil {
		env = OSEnv
	}
	if rd.sha256Repo(r) {
		return History{}, errors.New("SHA-256 repositories are not read")
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "reftable")); err == nil {
		return History{}, errors.New("reftable repositories are not read")
	}
	tips, err := rd.listTips(r)
	if err != nil {
		return History{}, err
	}
	key := r.ObjectDir(env)
	fingerprint := tipsKey(tips)
	rd.historiesMu.Lock()
	h, ok := rd.histories.Get(key)
	if !ok {
		h = newHistoryState()
		rd.histories.Put(key, h)
	}
	rd.historiesMu.Unlock()
	if d := h.done.Load(); d != nil && d.tips == fingerprint {
		return d.h, nil
	}
	if limit > 0 {
		if !h.mu.TryLock() {
			return History{}, ErrHistoryNotYet
		}
	} else {
		h.mu.Lock()
	}
	defer h.mu.Unlock()
	if h.err == nil && h.tips == fingerprint {
		return History{Paths: h.sorted, objects: h.objList}, nil
	}
	if h.err != nil && !errors.Is(h.err, ErrHistoryNotYet) {
		// A failed walk left the state partial: start again.
		h.reset()
	}
	s, err := openStore(key)
	if err != nil {
		return History{}, err
	}
	defer s.close()
	h.stack = append(h.stack, tips...)
	var deadline time.Time
	if limit > 0 {
		deadline = time.Now().Add(limit)
	}
	if err := h.walk(s, deadline); err != nil {
		h.err = err
		if errors.Is(err, ErrHistoryNotYet) && !h.warming {
			// Finish the walk in the background, so that a later call finds it done.
			h.warming = true
			go func() {
				rd.ReadHistory(r, env, 0)
				h.mu.Lock()
				h.warming = false
				h.mu.Unlock()
			}()
		}
		return History{}, err
	}
	h.err = nil
	// New slices: what earlier calls were given stays as it was.
	h.sorted = make([]string, 0, len(h.sorted))
	for prefix, d := range h.dirs {
		for name := range d.files {
			if prefix == "" {
				h.sorted = append(h.sorted, name)
			} else {
				h.sorted = append(h.sorted, prefix+"/"+name)
			}
		}
	}
	slices.Sort(h.sorted)
	h.objList = make([]oid, 0, len(h.objects))
	for o := range h.objects {
		h.objList = append(h.objList, o)
	}
	slices.SortFunc(h.objList, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
	h.tips = fingerprint
	done := History{Paths: h.sorted, objects: h.objList}
	h.done.Store(&finishedWalk{tips: fingerprint, h: done})
	return done, nil
}

func newHistoryState() *historyState {
	h := &historyState{}
	h.reset()
	return h
}

func (h *historyState) reset() {
	h.commits, h.dirs, h.objects, h.stack, h.err, h.read = map[oid]bool{}, map[string]*histDir{}, map[oid]bool{}, nil, nil, 0
}

func tipsKey(tips []oid) string {
	var b strings.Builder
	for _, t := range tips {
		b.Write(t[:])
	}
	return b.String()
}

// walk reads what is left on the stack: every commit reachable from it (a commit, a tag or a tree) that
// was not read before, and the trees of each, until the deadline (if not zero). A commit the store does
// not hold (beyond a shallow clone's edge, pruned after a reflog named it) is skipped: git cannot print
// it either. A missing tree is an error, since a partial clone fetches it when asked.
func (h *historyState) walk(s *store, deadline time.Time) error {
	for n := 0; len(h.stack) > 0; n++ {
		if !deadline.IsZero() && n%64 == 63 && time.Now().After(deadline) {
			return ErrHistoryNotYet
		}
		id := h.stack[len(h.stack)-1]
		if h.commits[id] {
			h.stack = h.stack[:len(h.stack)-1]
			continue
		}
		if h.read++; h.read > maxHistoryObjects {
			return ErrHistoryTooBig
		}
		typ, data, err := s.read(id)
		if errors.Is(err, errMissing) {
			h.stack = h.stack[:len(h.stack)-1]
			continue
		}
		if err != nil {
			return err
		}
		switch typ {
		case objTag:
			h.objects[id] = true
			h.stack = h.stack[:len(h.stack)-1]
			if target, ok := headerOID(data, "object "); ok {
				h.stack = append(h.stack, target)
			}
			continue
		case objTree:
			if err := h.tree(s, id, ""); err != nil {
				return err
			}
			h.stack = h.stack[:len(h.stack)-1]
			continue
		case objBlob:
			h.stack = h.stack[:len(h.stack)-1]
			continue
		}
		tree, ok := headerOID(data, "tree ")
		if !ok {
			return errors.New("a commit without a tree")
		}
		if err := h.tree(s, tree, ""); err != nil {
			return err
		}
		h.commits[id] = true
		h.objects[id] = true
		h.stack = h.stack[:len(h.stack)-1]
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				break
			}
			if p, ok := bytes.CutPrefix(line, []byte("parent ")); ok {
				if pid, ok := parseOID(string(p)); ok && !h.commits[pid] {
					h.stack = append(h.stack, pid)
				}
			}
		}
	}
	return nil
}

// headerOID returns the object named on the header line starting with prefix.
func headerOID(data []byte, prefix string) (oid, bool) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte(prefix)); ok {
			return parseOID(string(v))
		}
	}
	return oid{}, false
}

// tree records the files below the tree id at prefix. A tree is "MODE NAME\0" and a 20-byte object
// name per entry; mode 40000 is a directory. A tree read before at the same place holds nothing new.
func (h *historyState) tree(s *store, id oid, prefix string) error {
	d := h.dirs[prefix]
	if d == nil {
		d = &histDir{trees: map[oid]bool{}, files: map[string]bool{}}
		h.dirs[prefix] = d
	}
	if d.trees[id] {
		return nil
	}
	if h.read++; h.read > maxHistoryObjects {
		return ErrHistoryTooBig
	}
	typ, data, err := s.read(id)
	if err != nil {
		return err
	}
	if typ != objTree {
		return errors.New("a tree that is not a tree")
	}
	d.trees[id] = true
	h.objects[id] = true
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			return errors.New("a damaged tree")
		}
		mode, name := data[:sp], data[sp+1:nul]
		var child oid
		copy(child[:], data[nul+21-20:nul+21])
		data = data[nul+21:]
		if string(mode) == "40000" {
			sub := string(name)
			if prefix != "" {
				sub = prefix + "/" + sub
			}
			if sd := h.dirs[sub]; sd != nil && sd.trees[child] {
				continue
			}
			if err := h.tree(s, child, sub); err != nil {
				return err
			}
			continue
		}
		if !d.files[string(name)] {
			d.files[string(name)] = true
		}
	}
	return nil
}

// tipsCache remembers a repository's tips with the files and directories they were read from: while
// none of them changed (a ref or reflog is rewritten, a new one appears in a directory), the tips are
// the same.
type tipsCache struct {
	deps []dep
	tips []oid
}

type dep struct {
	path string
	id   fileID
}

// statID identifies a file or a directory by its times, size and inode; ok is false when it is gone.
func statID(path string) (fileID, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec}, true
}

// listTips returns, sorted, the objects history starts from, from the Reader's memory while nothing they
// were read from changed.
func (rd *Reader) listTips(r Repo) ([]oid, error) {
	key := r.GitDir + "\x00" + r.CommonDir
	if c, ok := rd.tips.Get(key); ok {
		valid := true
		for _, d := range c.deps {
			if id, ok := statID(d.path); !ok || id != d.id {
				valid = false
				break
			}
		}
		if valid {
			return c.tips, nil
		}
	}
	var deps []dep
	note := func(path string) {
		if id, ok := statID(path); ok {
			deps = append(deps, dep{path, id})
		}
	}
	tips, err := readTips(r, note)
	if err != nil {
		return nil, err
	}
	rd.tips.Put(key, &tipsCache{deps: deps, tips: tips})
	return tips, nil
}

// readTips returns, sorted, the objects history starts from: HEAD, every ref (loose and packed), the
// work trees' HEADs, the special heads and every object a reflog names. note is told every file and
// directory it reads, before reading it.
func readTips(r Repo, note func(string)) ([]oid, error) {
	note(r.GitDir)
	note(r.CommonDir)
	note(filepath.Join(r.CommonDir, "worktrees"))
	seen := map[oid]bool{}
	add := func(s string) {
		if id, ok := parseOID(strings.TrimSpace(s)); ok {
			seen[id] = true
		}
	}
	heads := []string{filepath.Join(r.GitDir, "HEAD"), filepath.Join(r.CommonDir, "HEAD")}
	for _, name := range []string{"ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD", "AUTO_MERGE", "BISECT_HEAD"} {
		heads = append(heads, filepath.Join(r.GitDir, name))
	}
	if wts, err := os.ReadDir(filepath.Join(r.CommonDir, "worktrees")); err == nil {
		for _, wt := range wts {
			heads = append(heads, filepath.Join(r.CommonDir, "worktrees", wt.Name(), "HEAD"))
		}
	}
	for _, f := range heads {
		note(f)
		if data, err := safefile.ReadRegular(f); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if len(line) >= 40 {
					add(line[:40])
				}
			}
		}
	}
	note(filepath.Join(r.CommonDir, "packed-refs"))
	if data, err := safefile.ReadRegular(filepath.Join(r.CommonDir, "packed-refs")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimPrefix(line, "^")
			if len(line) >= 40 {
				add(line[:40])
			}
		}
	}
	files := 0
	walkRefs := func(dir string, reflog bool) error {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			note(p)
			if d.IsDir() {
				return nil
			}
			if files++; files > 100000 {
				return errors.New("too many refs")
			}
			f, err := safefile.OpenRegular(p, 0)
			if err != nil {
				return nil
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if reflog {
					// OLD NEW NAME <EMAIL> TIME ZONE\tMESSAGE
					if len(line) >= 81 {
						add(line[:40])
						add(line[41:81])
					}
				} else if len(line) >= 40 {
					add(line[:40])
				}
			}
			return nil
		})
	}
	for _, d := range []struct {
		dir    string
		reflog bool
	}{
		{filepath.Join(r.CommonDir, "refs"), false}, {filepath.Join(r.CommonDir, "logs"), true},
		{filepath.Join(r.GitDir, "refs"), false}, {filepath.Join(r.GitDir, "logs"), true},
	} {
		if d.dir != filepath.Join(r.CommonDir, "refs") && d.dir != filepath.Join(r.CommonDir, "logs") && r.GitDir == r.CommonDir {
			continue
		}
		if err := walkRefs(d.dir, d.reflog); err != nil {
			return nil, err
		}
	}
	var zero oid
	delete(seen, zero)
	tips := make([]oid, 0, len(seen))
	for id := range seen {
		tips = append(tips, id)
	}
	slices.SortFunc(tips, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
	return tips, nil
}
