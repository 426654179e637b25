package jail

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// The scan reads directories by the hundred thousand, and in other people's code (node_modules) it must
// know each file's inode, to tell a hard link to a key of the home (keys.go), without a stat per file,
// which would double the walk: the kernel gives the inode with each name. os.File.ReadDir drops it, so the
// directory entries are read here.

// dirent is one entry of a directory: its name, inode number and type (fs.ModeDir, fs.ModeSymlink, 0 for
// a regular file, fs.ModeIrregular for anything else).
type dirent struct {
	name string
	ino  uint64
	typ  fs.FileMode
}

func (e dirent) IsDir() bool     { return e.typ == fs.ModeDir }
func (e dirent) IsRegular() bool { return e.typ == 0 }

// direntBuffer is what a directory's entries are read into: a walk reads thousands of directories, and
// one buffer each would be garbage to collect.
var direntBuffer = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readDirents reads every entry of the open directory f, but . and ..; an entry whose type the file system
// does not give is looked at.
func readDirents(f *os.File) ([]dirent, error) {
	var out []dirent
	bp := direntBuffer.Get().(*[]byte)
	defer direntBuffer.Put(bp)
	buf := *bp
	fd := int(f.Fd())
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name NUL-terminated.
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino, typ, name := binary.NativeEndian.Uint64(b[0:8]), b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if s := string(name); s != "." && s != ".." {
				out = append(out, dirent{name: s, ino: ino, typ: direntType(fd, s, typ)})
			}
		}
	}
}

func direntType(dirfd int, name string, t uint8) fs.FileMode {
	switch t {
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_REG:
		return 0
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_UNKNOWN:
		var st unix.Stat_t
		if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFDIR:
				return fs.ModeDir
			case unix.S_IFREG:
				return 0
			case unix.S_IFLNK:
				return fs.ModeSymlink
			}
		}
	}
	return fs.ModeIrregular
}
