package checkpoint

import (
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A stat walk costs a system call per file, tens of milliseconds for ten thousand files on a busy
// machine. So, after a full walk, every directory walked is watched (inotify, one watch per directory,
// which reports what happens to the names in it), and the next snapshot looks again only at the
// directories something happened in. Each watch is added before its directory is read, so nothing can
// change unseen between the two.
//
// The watch is an accelerator, never the authority: a full walk is taken when the kernel's queue
// overflowed, when a watch could not be added, when an ignore file changed in the tree or outside it,
// and at least every fullWalkEvery. What inotify cannot see (a write through a memory map, or through a
// hard link from outside the workspace) is found by the next full walk, and is then reported as changed
// outside Warden rather than as a call's.

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR |
	unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

type watcher struct {
	fd   int
	root string

	mu   sync.Mutex
	byWD map[int32]string // watch -> directory, relative to the root ("" for the root)
	// failed says a watch could not be added since the last reset: the watches do not cover the tree.
	failed bool
}

func newWatcher(root string) (*watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &watcher{fd: fd, root: root, byWD: map[int32]string{}}, nil
}

// add watches the directory rel, open as fd. It is called before the directory is listed. The watch is
// added through the descriptor's name in /proc, which is the directory itself, whatever stands at its
// path now and however deep it is; without /proc, by its path.
func (w *watcher) add(rel string, fd int) {
	wd, err := unix.InotifyAddWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(fd), watchMask&^unix.IN_DONT_FOLLOW)
	if errors.Is(err, unix.ENOENT) {
		wd, err = unix.InotifyAddWatch(w.fd, filepath.Join(w.root, filepath.FromSlash(rel)), watchMask)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		// Gone since it was seen is fine: its parent's event says so. Anything else (the kernel's
		// limit on watches, say) leaves the watches short of the tree.
		if !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ENOTDIR) {
			w.failed = true
		}
		return
	}
	w.byWD[int32(wd)] = rel
}

// drain reads what happened since the last drain: the directories in which something changed, with the
// names involved, and the watched directories that were deleted (a directory at that path now is
// another one, even when the file system gives it the same inode number). ok is false when the events
// cannot be trusted to be complete (the queue overflowed, the workspace itself moved, a watch is
// missing).
func (w *watcher) drain() (dirty map[string][]string, deleted map[string]bool, ok bool) {
	dirty, deleted = map[string][]string{}, map[string]bool{}
	ok = true
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameBytes := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			name := string(nameBytes)
			for i := 0; i < len(name); i++ {
				if name[i] == 0 {
					name = name[:i]
					break
				}
			}
			w.mu.Lock()
			rel, known := w.byWD[ev.Wd]
			switch {
			case ev.Mask&unix.IN_Q_OVERFLOW != 0:
				ok = false
			case ev.Mask&unix.IN_IGNORED != 0:
				delete(w.byWD, ev.Wd)
			case !known:
			case ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				if rel == "" {
					ok = false // the workspace itself went
				}
				if ev.Mask&unix.IN_DELETE_SELF != 0 {
					deleted[rel] = true
				}
				// Its parent's event says what took its place.
			default:
				dirty[rel] = append(dirty[rel], name)
			}
			w.mu.Unlock()
		}
	}
	w.mu.Lock()
	if w.failed {
		ok = false
	}
	w.mu.Unlock()
	return dirty, deleted, ok
}

// reset forgets that a watch failed, before a full walk adds them all again.
func (w *watcher) reset() {
	w.mu.Lock()
	w.failed = false
	w.mu.Unlock()
}

func (w *watcher) close() { unix.Close(w.fd) }
