package checkpoint

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/safefile"
)

// Every file operation of a restore goes through a directory descriptor opened one component at a time
// from the workspace with O_NOFOLLOW: a symbolic link anywhere in a path stops the operation instead of
// being followed, so nothing outside the workspace can be reached, whatever links a command left behind
// or puts in place while Warden works.

// errNotDir says a path's parent is not a real directory (a link, a file, or nothing).
var errNotDir = errors.New("a directory in its path is a link, a file or missing")

// checkRel refuses a path that is not a plain relative path inside the workspace, or that is in .git.
func checkRel(rel string) error {
	if err := plainRel(rel); err != nil {
		return err
	}
	for _, part := range strings.Split(rel, "/") {
		if isDotGit(part) {
			return fmt.Errorf("%q is inside .git, which Warden never writes", rel)
		}
	}
	return nil
}

// plainRel refuses a path that is not a plain relative path inside the workspace.
func plainRel(rel string) error {
	if safefile.PlainRel(rel) != nil {
		return fmt.Errorf("%q is not a path inside the workspace", rel)
	}
	return nil
}

// isDotGit reports whether a name may reach a repository's .git: on a file system that folds case (vfat,
// exfat, a casefold directory) .GIT is .git, and on those that keep 8.3 names GIT~1 is too. Git refuses
// these names in any tree for the same reason.
func isDotGit(name string) bool {
	return strings.EqualFold(name, ".git") || strings.EqualFold(name, "git~1")
}

// openRoot opens the workspace directory itself.
func openRoot(root string) (int, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("opening the workspace %s: %w", root, err)
	}
	return fd, nil
}

// openParent opens the directory that holds rel, walking from rootFd without following links (see
// safefile.OpenParentAt). The descriptors are O_PATH ones, which the *at calls take: a directory a
// command made unreadable can still be restored into. The caller closes the returned descriptor.
func openParent(rootFd int, rel string) (fd int, name string, err error) {
	fd, name, err = safefile.OpenParentAt(rootFd, rel, false)
	var onTheWay *safefile.Refused
	switch {
	case errors.As(err, &onTheWay):
		// A link or a file stands where a directory should: nothing is there (isGone).
		return -1, "", fmt.Errorf("%w: %s: %w", errNotDir, onTheWay.Reason, unix.ENOTDIR)
	case err != nil:
		return -1, "", fmt.Errorf("%w: %w", errNotDir, err)
	}
	return fd, name, nil
}

// statAt lstats rel without following any link on the way.
func statAt(rootFd int, rel string) (st unix.Stat_t, err error) {
	fd, name, err := openParent(rootFd, rel)
	if err != nil {
		return st, err
	}
	defer unix.Close(fd)
	err = unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, err
}

// lstatAt reports what is at rel now, without following any link; ok is false when nothing is there, a
// directory on the way is not a real one, or it cannot be looked at.
func lstatAt(rootFd int, rel string) (st unix.Stat_t, ok bool) {
	st, err := statAt(rootFd, rel)
	return st, err == nil
}

// isGone reports whether an error opening or looking at a path says nothing is there (or a link is, on
// the way or in its place), rather than that Warden may not look.
func isGone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP)
}
