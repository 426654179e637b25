// Package fileindex lists a workspace's files for @mention completion: built in the background from
// package ignore's listing, which is what glob and grep search (in a git work tree the files git lists,
// tracked and untracked but not ignored, read natively, no git run; no link followed, no index entry
// that leads out; ignored directories never read; outside a work tree, what the tree's .gitignore files
// leave), and matched fuzzily, fast enough to run on every key over a tree of a hundred thousand files.
// A mentioned file is then read by read_file on the model's behalf, under its judgement.
//
// It imports nothing of Warden's but ignore (and, through it, the leaves below ignore), and must not: the
// UI holds an Index, never the other way round.
package fileindex

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/warden-cli/warden/ignore"
)

// MaxEntries bounds an index: past it the walk stops, and the index says it is partial.
const MaxEntries = 300_000

// Index is the list of a tree's files and directories, relative and slash-separated, directories ending
// in "/". It is safe for concurrent use. Build makes one.
type Index struct {
	root string

	mu      sync.RWMutex
	entries []entry
	done    bool
	partial bool
	err     error
	built   time.Time
	ready   chan struct{}
}

type entry struct {
	path  string // as shown: "ui/model.go", "ui/"
	lower string
	base  int // where the last segment starts in path
	// chars has a bit for each letter and digit of the path, so that most paths that cannot match are
	// passed over without reading them.
	chars uint64
}

// Build starts indexing root in the background and returns at once; Match answers from what has been
// found so far.
func Build(root string) *Index {
	ix := &Index{root: root, ready: make(chan struct{})}
	go ix.walk()
	return ix
}

func (ix *Index) walk() {
	var batch []entry
	flush := func() {
		ix.mu.Lock()
		ix.entries = append(ix.entries, batch...)
		ix.mu.Unlock()
		batch = batch[:0]
	}
	l, err := ignore.List(context.Background(), ix.root, ignore.ListOptions{Max: MaxEntries, Dirs: true,
		IgnoreOutsideRepo: true, Each: func(rel string) {
			batch = append(batch, newEntry(rel))
			if len(batch) == 4096 {
				flush()
			}
		}})
	flush()
	ix.finish(err, l.Stopped)
}

func (ix *Index) finish(err error, partial bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.done, ix.err, ix.partial, ix.built = true, err, partial, time.Now()
	close(ix.ready)
}

// Ready is closed once the walk has ended.
func (ix *Index) Ready() <-chan struct{} { return ix.ready }

func newEntry(path string) entry {
	trimmed := strings.TrimSuffix(path, "/")
	lower := strings.ToLower(path)
	return entry{path: path, lower: lower, base: strings.LastIndexByte(trimmed, '/') + 1, chars: charSet(lower)}
}

// charSet is the set of the letters and digits (and other bytes, folded together) of s.
func charSet(s string) uint64 {
	var set uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			set |= 1 << (c - 'a')
		case c >= '0' && c <= '9':
			set |= 1 << (26 + c - '0')
		default:
			set |= 1 << (36 + c%28)
		}
	}
	return set
}

// State says how far the index is: done once the walk has ended, with its error if it failed; partial
// when it stopped at MaxEntries; count entries so far.
func (ix *Index) State() (done, partial bool, count int, err error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.done, ix.partial, len(ix.entries), ix.err
}

// Built is when the walk ended (zero while it runs).
func (ix *Index) Built() time.Time {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.built
}

// Match returns up to n entries that hold query's characters in order, best first: a match in the file's
// name before one spread over its path, a match at the start of a word or right after the previous
// character before a scattered one, and shorter paths first. An empty query lists the top of the tree.
func (ix *Index) Match(query string, n int) []string {
	ix.mu.RLock()
	entries := ix.entries
	ix.mu.RUnlock()
	q := strings.ToLower(strings.TrimSpace(query))
	want := charSet(q)
	top := make([]scored, 0, n+1)
	for i := range entries {
		e := &entries[i]
		if want&^e.chars != 0 {
			continue
		}
		s, ok := score(e, q)
		if !ok {
			continue
		}
		top = insert(top, scored{path: e.path, score: s}, n)
	}
	out := make([]string, len(top))
	for i, s := range top {
		out[i] = s.path
	}
	return out
}

type scored struct {
	path  string
	score int
}

// insert keeps the n best of top, best first, ties in alphabetical order.
func insert(top []scored, s scored, n int) []scored {
	better := func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.path < b.path
	}
	if len(top) == n && !better(s, top[n-1]) {
		return top
	}
	i := len(top)
	for i > 0 && better(s, top[i-1]) {
		i--
	}
	top = append(top, scored{})
	copy(top[i+1:], top[i:])
	top[i] = s
	if len(top) > n {
		top = top[:n]
	}
	return top
}

// score rates how well q fits e; ok is false when q's characters are not all in its path, in order.
func score(e *entry, q string) (int, bool) {
	p := e.lower
	if q == "" {
		// The top of the tree first: fewer slashes, then shorter.
		return -strings.Count(strings.TrimSuffix(p, "/"), "/") * 100, true
	}
	if !subsequence(p, q) {
		return 0, false
	}
	s := 0
	base := p[e.base:]
	switch {
	case strings.HasPrefix(base, q):
		s += 300
	case strings.Contains(base, q):
		s += 200
	case strings.Contains(p, q):
		s += 120
	case subsequence(base, q):
		s += 60 + walkScore(base, q)
	default:
		s += walkScore(p, q)
	}
	return s - len(p)/8, true
}

// walkScore matches q in p from the left, rewarding characters at the start of a word and runs of
// consecutive characters.
func walkScore(p, q string) int {
	s, j, prev := 0, 0, -2
	for i := 0; i < len(p) && j < len(q); i++ {
		if p[i] != q[j] {
			continue
		}
		switch {
		case i == prev+1:
			s += 8
		case i == 0 || strings.IndexByte("/_-. ", p[i-1]) >= 0:
			s += 6
		default:
			s++
		}
		prev = i
		j++
	}
	return s
}

func subsequence(p, q string) bool {
	j := 0
	for i := 0; i < len(p) && j < len(q); i++ {
		if p[i] == q[j] {
			j++
		}
	}
	return j == len(q)
}
