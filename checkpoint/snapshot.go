package checkpoint

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/ignore"
)

// A snapshot walks the workspace the way git's index does: every path that is not ignored is lstat'ed,
// and only those whose stat differs from the last snapshot are read. A directory whose stat has not
// changed is not even listed again: its names are remembered. Work is spread over the CPUs.
//
// Timestamps are coarse (a kernel tick), so a file written twice within one tick, with a snapshot between
// the writes, would keep its stat. Like git's "racily clean" entries, anything whose mtime is that close
// to a snapshot is read again at the next one.

// racyWindow is how close to a snapshot's start an mtime must be for the entry not to be trusted later.
const racyWindow = 100 * time.Millisecond

// entry is what the last snapshot saw at one path.
type entry struct {
	mode         uint32 // st_mode: type bits and permissions
	size         int64
	mtime, ctime int64 // nanoseconds
	ino          uint64
	id           ID     // regular files whose content was saved
	link         string // symbolic links
	skipped      bool   // a regular file whose content was not saved: over the size cap, or unreadable
	unreadable   bool   // skipped because Warden may not read it
	racy         bool
	gen          uint32
	// list is a directory's listing, valid while its stat is unchanged.
	list []ignore.Entry
	// unlisted says the directory is ignored, so was not listed: followed are the names followed in it.
	unlisted bool
	followed []string
}

// eachName calls f with each name the last scan saw in a directory: its listing, or what it followed
// there.
func (e *entry) eachName(f func(name string)) {
	if e.unlisted {
		for _, name := range e.followed {
			f(name)
		}
		return
	}
	for _, le := range e.list {
		f(le.Name())
	}
}

func (e *entry) isDir() bool { return e.mode&unix.S_IFMT == unix.S_IFDIR }
func (e *entry) isReg() bool { return e.mode&unix.S_IFMT == unix.S_IFREG }

// sameStat reports whether st describes the file e was made from, as far as stat can tell.
func (e *entry) sameStat(st *unix.Stat_t) bool {
	return e.mode == st.Mode && e.size == st.Size && e.ino == st.Ino &&
		e.mtime == st.Mtim.Nano() && e.ctime == st.Ctim.Nano()
}

func entryFromStat(st *unix.Stat_t, start time.Time) *entry {
	e := &entry{mode: st.Mode, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino}
	e.racy = e.mtime >= start.Add(-racyWindow).UnixNano() || e.ctime >= start.Add(-racyWindow).UnixNano()
	return e
}

// index is the last snapshot: every path (slash-separated, relative to the root) that was not ignored.
type index struct {
	entries map[string]*entry
	// root is the workspace directory's own entry, for its listing.
	root *entry
	gen  uint32
}

func newIndex() *index { return &index{entries: map[string]*entry{}} }

// walkLimit bounds a snapshot: a workspace with more files than this (a home directory, say) is not
// checkpointed, rather than slowing every call down.
const walkLimit = 400_000

// errTooLarge says the workspace holds more than walkLimit paths that are not ignored, or that git's index
// lists (each counted as it is looked at, so that a huge index costs no more than a huge tree).
var errTooLarge = fmt.Errorf("the workspace holds more than %d files that are not ignored or are tracked", walkLimit)

// scan is one snapshot in progress.
type scan struct {
	root string
	// rootFd is the workspace directory, which every path is opened from (see beneath.go).
	rootFd int
	prev   *index
	gen    uint32
	start  time.Time
	// w, when set, watches every directory the scan reads.
	w *watcher
	// partial says only the directories given are looked at again: their subdirectories already known
	// are not walked, and what left them is listed in deleted ("dir/" for what a directory held, when
	// something else took its place).
	partial bool
	deleted []string
	// replaced are directories deleted since the last scan: what stands there now is walked as new.
	replaced map[string]bool
	// sticky says the rules do not decide alone: a path the last scan followed is followed while it is
	// there, even once a rule ignores it (git keeps tracking a tracked file whatever .gitignore says),
	// so that a command cannot hide a file from its checkpoints by ignoring it before changing it. Only
	// the first scan of a session follows the rules to the letter.
	sticky bool
	// tracked is what git's index lists now, wasTracked what it listed at the last scan, which began at
	// lastStart (see tracked.go).
	tracked, wasTracked *trackedView
	lastStart           time.Time

	mu      sync.Mutex
	cond    *sync.Cond
	jobs    []dirJob
	pending int
	err     error
	count   int
	// touched are the paths whose entry is new or different from prev; dirs are directories whose
	// listing was read again.
	touched []touched
	dirs    []touched
}

type touched struct {
	path string
	e    *entry
	// quiet says the path was there at the last scan but not followed (a rule ignored it, say): it is
	// followed from now on, but it was not added, and an undo must not remove it.
	quiet bool
}

type dirJob struct {
	rel    string
	parent ignore.Dir
	st     unix.Stat_t
	prev   *entry
	// ignored says the directory is ignored, and followed only because the last scan followed it:
	// what is new in it is ignored.
	ignored bool
	// unfollowed says the directory was there at the last scan but not followed: what it holds is
	// not new.
	unfollowed bool
	// newHere says the directory is known not to have been there at the last scan: all it holds is new.
	newHere bool
}

// walk lstat's the tree below root, reusing what prev knows. It returns the entries that changed
// (regular files among them not yet hashed) and leaves unchanged entries of prev stamped with gen.
func (s *scan) walk(m *ignore.Matcher) error {
	var st unix.Stat_t
	if err := unix.Lstat(s.root, &st); err != nil {
		return fmt.Errorf("reading the workspace: %w", &fs.PathError{Op: "lstat", Path: s.root, Err: err})
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return fmt.Errorf("the workspace %s is not a directory", s.root)
	}
	return s.run(m, []dirJob{{rel: "", st: st, prev: s.prev.root}})
}

// walkDirty looks again at the directories named (relative to the root) and at what is new in them.
func (s *scan) walkDirty(m *ignore.Matcher, dirs []string) error {
	s.partial = true
	var jobs []dirJob
	for _, rel := range dirs {
		var st unix.Stat_t
		fd, err := openInside(s.rootFd, rel, unix.O_PATH|unix.O_NOFOLLOW)
		if err != nil {
			continue // gone or replaced: its parent's listing says so
		}
		err = unix.Fstat(fd, &st)
		unix.Close(fd)
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		j := dirJob{rel: rel, st: st}
		if rel == "" {
			j.prev = s.prev.root
		} else {
			j.prev = s.prev.entries[rel]
			if j.prev == nil || !j.prev.isDir() {
				continue // not followed (ignored, or new: its parent's listing brings it in)
			}
			parent := ""
			if i := strings.LastIndexByte(rel, '/'); i >= 0 {
				parent = rel[:i]
			}
			j.parent = m.Dir(parent, nil)
			// Followed though ignored (see sticky): what is new in it is ignored too.
			j.ignored = m.Match(rel, true)
		}
		jobs = append(jobs, j)
	}
	return s.run(m, jobs)
}

func (s *scan) run(m *ignore.Matcher, jobs []dirJob) error {
	s.cond = sync.NewCond(&s.mu)
	s.jobs = jobs
	s.pending = len(jobs)
	if s.pending == 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), 4)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { s.work(m) })
	}
	wg.Wait()
	return s.err
}

func (s *scan) work(m *ignore.Matcher) {
	s.mu.Lock()
	for {
		for len(s.jobs) == 0 && s.pending > 0 {
			s.cond.Wait()
		}
		if s.pending == 0 {
			s.mu.Unlock()
			return
		}
		j := s.jobs[len(s.jobs)-1]
		s.jobs = s.jobs[:len(s.jobs)-1]
		s.mu.Unlock()
		subs, found, err := s.dir(m, j)
		s.mu.Lock()
		if err != nil && s.err == nil {
			s.err = err
		}
		s.count += found
		if s.count > walkLimit && s.err == nil {
			s.err = errTooLarge
		}
		if s.err == nil {
			s.jobs = append(s.jobs, subs...)
			s.pending += len(subs)
		}
		s.pending--
		if s.pending == 0 || s.err != nil {
			if s.err != nil {
				s.pending -= len(s.jobs)
				s.jobs = nil
			}
			s.cond.Broadcast()
		} else if len(subs) > 0 {
			s.cond.Broadcast()
		}
	}
}

// dir handles one directory: its listing (remembered or read), and an lstat of every entry that is not
// ignored, or that git's index lists. An ignored directory is not listed (see tracked.go). It returns the
// subdirectories to walk, and how many names it looked at.
func (s *scan) dir(m *ignore.Matcher, j dirJob) ([]dirJob, int, error) {
	path := filepath.Join(s.root, filepath.FromSlash(j.rel))
	// A directory replaced by a link since its parent was read, or one above it, is not walked through.
	fd, err := openInside(s.rootFd, j.rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		if j.rel == "" {
			return nil, 0, fmt.Errorf("reading the workspace: %w", err)
		}
		// Gone or replaced since it was seen: what it held counts as gone.
		return nil, 0, nil
	}
	defer unix.Close(fd)
	if s.w != nil {
		// Before the directory is listed, so that no change falls between the listing and the watch.
		s.w.add(j.rel, fd)
	}
	// An ignored directory's names are those looked at in it; any other's, its listing.
	var names []string
	list := []ignore.Entry(nil)
	var ig ignore.Dir
	if j.ignored {
		if names = s.unlistedNames(j); len(names) > walkLimit {
			return nil, len(names), nil // over the bound without looking at one
		}
	} else {
		fresh := s.partial || j.prev == nil || j.prev.racy || j.prev.list == nil || !j.prev.sameStat(&j.st)
		if !fresh {
			list = j.prev.list
		} else {
			if list, err = ignore.ReadDirFd(fd, path); err != nil {
				if j.rel == "" {
					return nil, 0, fmt.Errorf("reading the workspace: %w", err)
				}
				return nil, 0, nil
			}
			e := entryFromStat(&j.st, s.start)
			e.list = list
			var gone []string
			if s.partial && j.prev != nil {
				have := ignore.Names(list)
				j.prev.eachName(func(old string) {
					if !have(old) {
						gone = append(gone, joinRel(j.rel, old))
					}
				})
			}
			s.mu.Lock()
			s.dirs = append(s.dirs, touched{path: j.rel, e: e})
			s.deleted = append(s.deleted, gone...)
			s.mu.Unlock()
		}
		if j.rel == "" {
			ig = m.Dir("", ignore.Names(list))
		} else {
			ig = j.parent.Child(filepath.Base(path), ignore.Names(list))
		}
	}
	// What the last scan listed here and did not follow was there before: if it is followed now (a rule
	// that ignored it went), it is not new.
	var listedBefore func(string) bool
	if j.prev != nil && j.prev.list != nil {
		listedBefore = ignore.Names(j.prev.list)
	}
	var subs []dirJob
	var changed []touched
	var followed []string
	var st unix.Stat_t
	n := len(list)
	if j.ignored {
		n = len(names)
	}
	for i := range n {
		var name string
		ignored, maybeDir := true, true
		if j.ignored {
			name = names[i]
		} else {
			name, maybeDir = list[i].Name(), list[i].IsDir()
			ignored = ig.Ignored(name, maybeDir)
		}
		if name == ".git" {
			continue
		}
		rel := joinRel(j.rel, name)
		prev := s.prev.entries[rel]
		// git never counts a tracked file as ignored; a directory on the way to one is entered.
		kept := !ignored || (s.sticky && prev != nil) || s.tracked.file(rel)
		if !kept && !(maybeDir && s.tracked.holds(rel)) {
			continue
		}
		if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if j.ignored && s.partial && prev != nil && isGone(err) {
				// No listing says so here.
				s.mu.Lock()
				s.deleted = append(s.deleted, rel)
				s.mu.Unlock()
			}
			continue // gone since it was listed
		}
		if !kept && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue // not the directory the index lists paths below
		}
		if j.ignored {
			followed = append(followed, name)
		}
		quiet, known := false, true
		if prev == nil && s.sticky {
			quiet, known = s.wasThere(j, fd, rel, listedBefore)
		}
		if s.partial && prev != nil && prev.isDir() && s.replaced[rel] {
			// Another directory now, even if the file system reused the inode number: what the old
			// one held is gone, and the new one is walked whole.
			s.mu.Lock()
			s.deleted = append(s.deleted, rel+"/")
			s.mu.Unlock()
			prev = nil
		}
		if s.partial && prev != nil && prev.isDir() && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			// A directory replaced by something else: what it held is gone.
			s.mu.Lock()
			s.deleted = append(s.deleted, rel+"/")
			s.mu.Unlock()
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			// A partial scan walks only directories that are new here (a directory made again under
			// the same name is new: another inode); the others are watched, and looked at on their own
			// when something happened in them.
			if !s.partial || prev == nil || !prev.isDir() || prev.ino != st.Ino {
				subs = append(subs, dirJob{rel: rel, parent: ig, st: st, prev: prev, ignored: ignored, unfollowed: quiet,
					newHere: prev == nil && s.sticky && !quiet && known})
			}
			if prev != nil && prev.isDir() && prev.mode == st.Mode {
				prev.gen = s.gen
			} else {
				e := entryFromStat(&st, s.start)
				if prev != nil && prev.isDir() && prev.ino == st.Ino {
					// Its mode alone changed: what the last scan knew of what it holds still holds.
					e.list, e.unlisted, e.followed = prev.list, prev.unlisted, prev.followed
				}
				changed = append(changed, touched{rel, e, quiet})
			}
		case unix.S_IFLNK:
			if prev != nil && !prev.racy && prev.sameStat(&st) {
				prev.gen = s.gen
				continue
			}
			target, err := readlinkat(fd, name)
			if err != nil {
				continue
			}
			e := entryFromStat(&st, s.start)
			e.link = target
			changed = append(changed, touched{rel, e, quiet})
		default:
			// Regular files; and pipes, sockets and devices, which have no content to save but are
			// followed all the same: one put where a file was is that file's deletion, and an undo
			// must be able to put the file back.
			if prev != nil && !prev.racy && prev.sameStat(&st) {
				prev.gen = s.gen
				continue
			}
			changed = append(changed, touched{rel, entryFromStat(&st, s.start), quiet})
		}
	}
	if j.ignored {
		// What the next scan looks at again here, besides what the index lists then.
		e := entryFromStat(&j.st, s.start)
		e.unlisted, e.followed = true, followed
		s.mu.Lock()
		s.dirs = append(s.dirs, touched{path: j.rel, e: e})
		s.mu.Unlock()
	}
	if len(changed) > 0 {
		s.mu.Lock()
		s.touched = append(s.touched, changed...)
		s.mu.Unlock()
	}
	return subs, n, nil
}

// unlistedNames are the names looked at in an ignored directory: those git's index lists there (or
// lists paths below), and, after a session's first scan, those followed there at the last one.
func (s *scan) unlistedNames(j dirJob) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) bool {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
		// Past the bound, the walk stops anyway: an index that lists a million paths here costs no
		// more than one that lists the bound.
		return len(out) <= walkLimit
	}
	s.tracked.children(j.rel, add)
	if s.sticky && j.prev != nil {
		j.prev.eachName(func(name string) {
			if s.prev.entries[joinRel(j.rel, name)] != nil {
				add(name)
			}
		})
	}
	return out
}

// wasThere tells whether rel, in the directory of j (open as fd), was there at the last scan though not
// followed (a rule ignored it, or the index did not list it): it is followed from now on, but it is not
// new, and an undo must not remove it. known is false when that is judged by its birth time, for a name
// the last scan did not look at: one born since that scan began counts as new. Its change time would not
// do: a command that touches a file it did not make would have an undo remove it. The file system's clock
// is coarse and lags the one snapshots are timed by, and one that keeps no birth time says nothing, so the
// judgement errs towards "there", which only leaves a new file in place after an undo.
func (s *scan) wasThere(j dirJob, fd int, rel string, listedBefore func(string) bool) (there, known bool) {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	unlistedBefore := j.prev != nil && j.prev.unlisted
	switch {
	case j.newHere:
		return false, true
	case unlistedBefore && s.wasTracked.has(rel):
		// Looked at by the last scan, and not there.
		return false, true
	case !j.ignored && j.unfollowed:
		return true, true
	case !unlistedBefore && listedBefore != nil:
		return listedBefore(name), true
	case !j.ignored && !unlistedBefore:
		return false, true
	}
	var sx unix.Statx_t
	if unix.Statx(fd, name, unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_DONT_SYNC, unix.STATX_BTIME, &sx) != nil ||
		sx.Mask&unix.STATX_BTIME == 0 {
		return true, false
	}
	return sx.Btime.Sec*1e9+int64(sx.Btime.Nsec) < s.lastStart.UnixNano(), false
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func readlinkat(fd int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(fd, name, buf)
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// hashFiles reads the regular files among touched, saves their content and fills in their ids. A file
// over maxSize, or that Warden may not read, is marked skipped; one that is not there any more (gone,
// replaced by a link) is dropped from touched, as if the walk had not seen it. It returns how many bytes
// the store grew by.
func hashFiles(rootFd int, touched []touched, store *objects, maxSize int64, start time.Time, borrow *lender) ([]touched, int64, error) {
	var mu sync.Mutex
	var grown int64
	var firstErr error
	keep := make([]bool, len(touched))
	next := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(touched) {
					return
				}
				t := touched[i]
				if !t.e.isReg() {
					keep[i] = true
					continue
				}
				n, ok, err := hashOne(rootFd, t.path, t.e, store, maxSize, start, borrow)
				mu.Lock()
				grown += n
				keep[i] = ok
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	out := touched[:0]
	for i, t := range touched {
		if keep[i] {
			out = append(out, t)
		}
	}
	return out, grown, firstErr
}

// hashOne reads the file rel into e, unless borrow names its content in the person's git. ok is false when
// the file is no longer a regular file there.
func hashOne(rootFd int, rel string, e *entry, store *objects, maxSize int64, start time.Time, borrow *lender) (grown int64, ok bool, err error) {
	fd, err := openInside(rootFd, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	if err != nil {
		if isGone(err) {
			return 0, false, nil
		}
		// There, but not to be read (a command took the permission away): what changed is recorded
		// all the same, from its stat, so that an undo puts back what was there before.
		e.skipped, e.unreadable = true, true
		return 0, true, nil
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, false, nil
	}
	// The stat kept is the one taken before reading: a change made while reading shows at the next
	// snapshot.
	*e = *entryFromStat(&st, start)
	if id, ok := borrow.lookup(rel, &st); ok {
		e.id = id
		return 0, true, nil
	}
	if st.Size > maxSize {
		e.skipped = true
		return 0, true, nil
	}
	content, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		e.skipped, e.unreadable = true, true
		return 0, true, nil
	}
	if int64(len(content)) > maxSize {
		e.skipped = true
		return 0, true, nil
	}
	if int64(len(content)) != st.Size {
		// Written while read: keep what was read, and look again next time.
		e.size, e.racy = int64(len(content)), true
	}
	e.id = blobID(content)
	n, err := store.put(e.id, content)
	if err != nil {
		return 0, true, err
	}
	return n, true, nil
}
