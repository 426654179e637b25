package ignore

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Entry is one name read from a directory, with the type the listing gives, so that no stat is needed
// to tell files from directories.
type Entry struct {
	name string
	typ  fs.FileMode
	dir  string
}

var _ fs.DirEntry = Entry{}

func (e Entry) Name() string { return e.name }

// Type is the type bits of the entry's mode: fs.ModeDir, fs.ModeSymlink, ..., or 0 for a regular file.
func (e Entry) Type() fs.FileMode { return e.typ }

// IsDir reports whether the entry is a directory; a symbolic link is not one.
func (e Entry) IsDir() bool { return e.typ&fs.ModeDir != 0 }

// Info lstats the entry.
func (e Entry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.dir, e.name)) }

// ReadDir lists a directory sorted by name, with the types the file system reports, reading it with
// as few system calls as the kernel allows. An entry whose type the file system does not report is
// lstat'ed.
func ReadDir(dir string) ([]Entry, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	return ReadDirFd(fd, dir)
}

// ReadDirFd is ReadDir of a directory the caller opened (for reading, from its start); dir is its path,
// for errors and for Entry.Info. The descriptor is left open. A walker that opens each directory itself,
// relative to its parent or without following links, lists it this way without opening it again.
func ReadDirFd(fd int, dir string) ([]Entry, error) {
	var out []Entry
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) > 0; {
			d := (*unix.Dirent)(unsafe.Pointer(&b[0]))
			reclen := int(d.Reclen)
			if reclen == 0 || reclen > len(b) {
				break
			}
			nameBytes := b[unsafe.Offsetof(d.Name):reclen]
			if i := slices.Index(nameBytes, 0); i >= 0 {
				nameBytes = nameBytes[:i]
			}
			b = b[reclen:]
			name := string(nameBytes)
			if name == "." || name == ".." || d.Ino == 0 {
				continue
			}
			e := Entry{name: name, dir: dir}
			switch d.Type {
			case unix.DT_REG:
			case unix.DT_DIR:
				e.typ = fs.ModeDir
			case unix.DT_LNK:
				e.typ = fs.ModeSymlink
			case unix.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case unix.DT_SOCK:
				e.typ = fs.ModeSocket
			case unix.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case unix.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				var st unix.Stat_t
				if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone since it was listed
				}
				e.typ = typeOf(st.Mode)
			}
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// typeOf is the type bits of a stat mode as fs.FileMode spells them.
func typeOf(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
