package checkpoint

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// A snapshot reaches every path from the workspace directory without following a link anywhere on the
// way. A directory the watch names, or one whose parent was listed a moment before, may have been
// replaced by a link since (a command's mv and ln -s): followed, it would have what the link points to,
// outside the workspace, read into the store, from where an undo could write it back inside. The kernel
// resolves such a path in one call (openat2, Linux 5.6); where it cannot, one directory at a time.

// noOpenat2 says the kernel, or a filter around Warden, refuses openat2.
var noOpenat2 atomic.Bool

// openInside opens rel below the workspace directory rootFd ("" is the workspace itself), refusing a link
// anywhere in rel with ELOOP or ENOTDIR, which isGone counts as nothing there.
func openInside(rootFd int, rel string, flags int) (int, error) {
	if rel == "" {
		return unix.Openat(rootFd, ".", flags|unix.O_CLOEXEC, 0)
	}
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(rootFd, rel, &unix.OpenHow{
			Flags:   uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		switch {
		case err == nil:
			return fd, nil
		case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
			noOpenat2.Store(true)
		case !errors.Is(err, unix.ENAMETOOLONG):
			return -1, err
		}
	}
	parent, name, err := openParent(rootFd, rel)
	if err != nil {
		return -1, err
	}
	defer unix.Close(parent)
	return unix.Openat(parent, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
}
