package gitrepo

import (
	"os"
	"syscall"
)

// fileID identifies a file's content without reading it: a change to the file changes its size or its
// modification or change time, and replacing it changes its inode.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// identify stats path. ok is false when it does not exist or is not a regular file.
func identify(path string) (fileID, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, false
	}
	return idOf(fi)
}

// fileIDOf is identify for a file already open.
func fileIDOf(f *os.File) (fileID, bool) {
	fi, err := f.Stat()
	if err != nil {
		return fileID{}, false
	}
	return idOf(fi)
}

func idOf(fi os.FileInfo) (fileID, bool) {
	if !fi.Mode().IsRegular() {
		return fileID{}, false
	}
	id := fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(st.Dev), st.Ino
		id.ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return id, true
}
