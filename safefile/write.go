package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Warden writes a few files on the person's behalf: the rules saved with "always allow for this
// project", the .gitignore entry that keeps them out of commits, its records of trusted workspaces. The
// repository chooses what stands at those paths (a committed .warden may be a link to the home), so these
// writes go through descriptors opened one directory at a time from a root, never through a link: what
// is written lands below the root or nowhere.

// WriteWithin replaces the file rel (slash-separated, relative) below the directory root with data, or
// creates it. Each directory on the way is opened from root without following a link, and made when
// missing; data goes to a temporary file beside rel, which is then renamed over it, so a reader sees the
// old content or the new, never a part. A link anywhere on the way, rel itself included, is refused with
// a *Refused rather than followed or replaced, and so is anything at rel that is not a regular file.
// root itself is the person's (the workspace, the state directory) and may be reached through links. A
// new file gets perm; a file replaced keeps its mode.
func WriteWithin(root, rel string, data []byte, perm fs.FileMode) error {
	return writeWithin(root, rel, data, perm, false)
}

// CreateWithin is WriteWithin for a file that must not be there yet: when anything stands at rel (a
// link included), nothing is written and the error matches fs.ErrExist.
func CreateWithin(root, rel string, data []byte, perm fs.FileMode) error {
	return writeWithin(root, rel, data, perm, true)
}

func writeWithin(root, rel string, data []byte, perm fs.FileMode, create bool) error {
	shown := filepath.Join(root, filepath.FromSlash(rel))
	if err := PlainRel(rel); err != nil {
		return &Refused{Path: shown, Reason: err.Error(), Write: true}
	}
	rootFd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("writing %s: opening %s: %w", shown, root, err)
	}
	defer unix.Close(rootFd)
	dirFd, name, err := OpenParentAt(rootFd, rel, true)
	if err != nil {
		var r *Refused
		if errors.As(err, &r) {
			r.Path, r.Write = shown, true
			return r
		}
		return fmt.Errorf("writing %s: %w", shown, err)
	}
	defer unix.Close(dirFd)

	var st unix.Stat_t
	switch err := unix.Fstatat(dirFd, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil && create:
		return &os.PathError{Op: "create", Path: shown, Err: fs.ErrExist}
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return &Refused{Path: shown, Reason: linkReason(dirFd, name, "it"), Write: true}
	case err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG:
		return &Refused{Path: shown, Reason: "it is not a regular file", Write: true}
	case err == nil:
		perm = fs.FileMode(st.Mode & 0o777)
	case !errors.Is(err, unix.ENOENT):
		return fmt.Errorf("writing %s: %w", shown, err)
	}

	tmp, err := writeTemp(dirFd, name, data, perm)
	if err != nil {
		return fmt.Errorf("writing %s: %w", shown, err)
	}
	if create {
		err = renameNoReplace(dirFd, tmp, name)
	} else {
		// A link swapped in at name since it was looked at is replaced, not followed: rename never
		// follows the name it replaces.
		err = unix.Renameat(dirFd, tmp, dirFd, name)
	}
	if err != nil {
		unix.Unlinkat(dirFd, tmp, 0)
		if errors.Is(err, unix.EEXIST) {
			return &os.PathError{Op: "create", Path: shown, Err: fs.ErrExist}
		}
		return fmt.Errorf("writing %s: %w", shown, err)
	}
	return nil
}

// writeTemp writes data to a new file beside name in dirFd and returns its name.
func writeTemp(dirFd int, name string, data []byte, perm fs.FileMode) (string, error) {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	tmp := "." + name + ".tmp-" + hex.EncodeToString(b)
	fd, err := unix.Openat(dirFd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return "", err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(data)
	if err == nil {
		// The umask may have taken bits the file is meant to keep.
		err = f.Chmod(perm.Perm())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		unix.Unlinkat(dirFd, tmp, 0)
		return "", err
	}
	return tmp, nil
}

// renameNoReplace moves tmp to name unless something is at name (EEXIST). File systems without
// RENAME_NOREPLACE get a hard link, which never replaces either, and tmp is then removed.
func renameNoReplace(dirFd int, tmp, name string) error {
	err := unix.Renameat2(dirFd, tmp, dirFd, name, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	if err := unix.Linkat(dirFd, tmp, dirFd, name, 0); err != nil {
		return err
	}
	return unix.Unlinkat(dirFd, tmp, 0)
}

// PlainRel says why rel is not a plain relative path below a directory (absolute, empty, with an empty,
// "." or ".." component, or a NUL), or returns nil.
func PlainRel(rel string) error {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return fmt.Errorf("%q is not a plain relative path", rel)
	}
	for _, part := range strings.Split(rel, "/") {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("%q is not a plain relative path", rel)
		}
	}
	return nil
}

// OpenParentAt opens the directory that holds rel (a plain relative path, see PlainRel) below the
// directory dirFd, one component at a time without following a link, and returns it with rel's last
// name. The descriptor is an O_PATH one, which the *at calls take, so a directory a command made
// unreadable can still be written into; the caller closes it. With create, missing directories are made
// (mode 0755 less the umask). A component that is a link, or not a directory, is a *Refused whose Reason
// names it; its Path is rel.
func OpenParentAt(dirFd int, rel string, create bool) (fd int, name string, err error) {
	parts := strings.Split(rel, "/")
	fd, err = unix.Dup(dirFd)
	if err != nil {
		return -1, "", err
	}
	for i, p := range parts[:len(parts)-1] {
		next, err := openDirAt(fd, p, create)
		if err != nil {
			var st unix.Stat_t
			at := strings.Join(parts[:i+1], "/")
			switch {
			case unix.Fstatat(fd, p, &st, unix.AT_SYMLINK_NOFOLLOW) != nil:
			case st.Mode&unix.S_IFMT == unix.S_IFLNK:
				err = &Refused{Path: rel, Reason: linkReason(fd, p, at)}
			case st.Mode&unix.S_IFMT != unix.S_IFDIR:
				err = &Refused{Path: rel, Reason: at + " is not a directory"}
			}
			unix.Close(fd)
			return -1, "", err
		}
		unix.Close(fd)
		fd = next
	}
	return fd, parts[len(parts)-1], nil
}

// openDirAt opens the directory name in dirFd without following a link, making it first when create is
// set and it is missing.
func openDirAt(dirFd int, name string, create bool) (int, error) {
	const flags = unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(dirFd, name, flags, 0)
	if create && errors.Is(err, unix.ENOENT) {
		if err := unix.Mkdirat(dirFd, name, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, err
		}
		fd, err = unix.Openat(dirFd, name, flags, 0)
	}
	return fd, err
}

// linkReason says that name in dirFd (shown as what) is a link, and where it leads as written.
func linkReason(dirFd int, name, what string) string {
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(dirFd, name, buf)
	if err != nil || n <= 0 {
		return what + " is a link, and Warden writes nothing through a link"
	}
	return fmt.Sprintf("%s is a link to %s, and Warden writes nothing through a link", what, string(buf[:n]))
}
