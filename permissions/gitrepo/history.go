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
	"syscall"
)

// History is every path a repository's history holds: the files of every commit reachable from its
// refs, HEAD and the other work trees' HEADs, its reflogs (so the stash and commits dropped by a reset or
// a rebase count) and the special heads (ORIG_HEAD, FETCH_HEAD...).
type History struct {
	// Paths are relative to the work tree's top, sorted.
	Paths []string
	// objects are the names of every commit, tree and blob the walk reached, sorted.
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

// maxHistoryObjects bounds the commits and trees one walk reads; a bigger history counts as unreadable.
const maxHistoryObjects = 400000

// ErrHistoryTooBig says the history holds more than a walk reads.
var ErrHistoryTooBig = errors.New("the history is too big to read through")

type historyState struct {
	mu      sync.Mutex
	commits map[oid]bool
	trees   map[treeAt]bool
	paths   map[string]bool
	objects map[oid]bool
	sorted  []string
	objList []oid
	tips    string
	err     error
	read    int
}

type treeAt struct {
	id     oid
	prefix string
}

var (
	historiesMu sync.Mutex
	histories   = map[string]*historyState{}
)

// ReadHistory returns every path the repository's history holds. It reads only what changed since it
// was last asked about the same repository: the refs are listed each time, and only commits not seen
// before are walked. An error means the history could not be read in full (a SHA-256 or reftable
// repository, missing trees of a partial clone, damage, ErrHistoryTooBig).
func ReadHistory(r Repo, env Env) (History, error) {
	if env == nil {
		env = OSEnv
	}
	if sha256Repo(r) {
		return History{}, errors.New("SHA-256 repositories are not read")
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "reftable")); err == nil {
		return History{}, errors.New("reftable repositories are not read")
	}
	tips, err := listTips(r)
	if err != nil {
		return History{}, err
	}
	key := r.ObjectDir(env)
	historiesMu.Lock()
	h := histories[key]
	if h == nil {
		h = &historyState{commits: map[oid]bool{}, trees: map[treeAt]bool{}, paths: map[string]bool{}, objects: map[oid]bool{}}
		if len(histories) > 64 {
			clear(histories)
		}
		histories[key] = h
	}
	historiesMu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	fingerprint := tipsKey(tips)
	if h.err == nil && h.tips == fingerprint {
		return History{Paths: h.sorted, objects: h.objList}, nil
	}
	if h.err != nil {
		// A failed walk left the state partial: start again.
		h.commits, h.trees, h.paths, h.objects, h.err, h.read = map[oid]bool{}, map[treeAt]bool{}, map[string]bool{}, map[oid]bool{}, nil, 0
	}
	s, err := openStore(key)
	if err != nil {
		return History{}, err
	}
	defer s.close()
	for _, t := range tips {
		if err := h.walk(s, t); err != nil {
			h.err = err
			return History{}, err
		}
	}
	h.sorted = make([]string, 0, len(h.paths))
	for p := range h.paths {
		h.sorted = append(h.sorted, p)
	}
	slices.Sort(h.sorted)
	h.objList = make([]oid, 0, len(h.objects))
	for o := range h.objects {
		h.objList = append(h.objList, o)
	}
	slices.SortFunc(h.objList, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
	h.tips = fingerprint
	return History{Paths: h.sorted, objects: h.objList}, nil
}

func tipsKey(tips []oid) string {
	var b strings.Builder
	for _, t := range tips {
		b.Write(t[:])
	}
	return b.String()
}

// walk reads every commit reachable from tip (a commit, a tag or a tree) that was not read before, and
// the trees of each. A commit the store does not hold (beyond a shallow clone's edge, pruned after a
// reflog named it) is skipped: git cannot print it either. A missing tree is an error, since a partial
// clone fetches it when asked.
func (h *historyState) walk(s *store, tip oid) error {
	stack := []oid{tip}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h.commits[id] {
			continue
		}
		if h.read++; h.read > maxHistoryObjects {
			return ErrHistoryTooBig
		}
		typ, data, err := s.read(id)
		if errors.Is(err, errMissing) {
			continue
		}
		h.objects[id] = true
		if err != nil {
			return err
		}
		switch typ {
		case objTag:
			if target, ok := headerOID(data, "object "); ok {
				stack = append(stack, target)
			}
			continue
		case objTree:
			if err := h.tree(s, id, ""); err != nil {
				return err
			}
			continue
		case objBlob:
			continue
		}
		h.commits[id] = true
		tree, ok := headerOID(data, "tree ")
		if !ok {
			return errors.New("a commit without a tree")
		}
		if err := h.tree(s, tree, ""); err != nil {
			return err
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				break
			}
			if p, ok := bytes.CutPrefix(line, []byte("parent ")); ok {
				if pid, ok := parseOID(string(p)); ok && !h.commits[pid] {
					stack = append(stack, pid)
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

// tree records the paths below the tree id at prefix. A tree is "MODE NAME\0" and a 20-byte object
// name per entry; mode 40000 is a directory.
func (h *historyState) tree(s *store, id oid, prefix string) error {
	at := treeAt{id, prefix}
	if h.trees[at] {
		return nil
	}
	h.trees[at] = true
	h.objects[id] = true
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
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			return errors.New("a damaged tree")
		}
		mode := string(data[:sp])
		name := string(data[sp+1 : nul])
		var child oid
		copy(child[:], data[nul+1:nul+21])
		data = data[nul+21:]
		path := name
		if prefix != "" {
			path = prefix + "/" + name
		}
		if mode == "40000" {
			if err := h.tree(s, child, path); err != nil {
				return err
			}
			continue
		}
		h.paths[path] = true
		h.objects[child] = true
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

var (
	tipsMu     sync.Mutex
	tipsCaches = map[string]*tipsCache{}
)

// statID identifies a file or a directory by its times, size and inode; ok is false when it is gone.
func statID(path string) (fileID, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec}, true
}

// listTips returns, sorted, the objects history starts from, from the cache while nothing they were read
// from changed.
func listTips(r Repo) ([]oid, error) {
	key := r.GitDir + "\x00" + r.CommonDir
	tipsMu.Lock()
	c := tipsCaches[key]
	tipsMu.Unlock()
	if c != nil {
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
	tipsMu.Lock()
	if len(tipsCaches) > 256 {
		clear(tipsCaches)
	}
	tipsCaches[key] = &tipsCache{deps: deps, tips: tips}
	tipsMu.Unlock()
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
		if data, err := os.ReadFile(f); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if len(line) >= 40 {
					add(line[:40])
				}
			}
		}
	}
	note(filepath.Join(r.CommonDir, "packed-refs"))
	if data, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs")); err == nil {
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
			f, err := os.Open(p)
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
