// Package safefile opens the person's files for Warden's own reading. Whoever controls a repository
// chooses what stands at every path Warden reads on its own account (a .git file, a ref, an ignore file,
// an instruction file), so an open must never wait on a FIFO, never read a device, and never be led
// somewhere else by a link the repository planted. An Opener (opener.go) is the one way to read such a
// file: it keeps links inside the workspace, out of secret places and off the kernel's files, refuses a
// file of the workspace with another name (a hard link) elsewhere (names.go), and bounds the size;
// OpenRegular and ReadRegular are the lower step for files whose place is already decided (git's objects
// and packs, which a repository's own reader opens by the dozen).
//
// Warden's writes on the person's behalf (saved rules, the .gitignore entry, its records) go through
// WriteWithin and CreateWithin (write.go), which open every directory from a root without following a
// link, so that what they write lands below the root or nowhere.
//
// It is a leaf: it imports nothing of Warden's, so that every package that reads files can use it.
package safefile

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// OpenRegular opens path for reading only if what stands there is a regular file when it is opened,
// without waiting: a FIFO is opened without waiting for a writer and then refused, a device is never
// read. Whoever controls a repository chooses what stands at the paths git reads (.git files, refs,
// packs, alternates), and a blocking open or read would stall whoever judges or snapshots the tree.
// flags adds open flags (O_NOFOLLOW).
func OpenRegular(path string, flags int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|flags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &os.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadRegular reads the whole of path if it is a regular file when opened (see OpenRegular).
func ReadRegular(path string) ([]byte, error) {
	f, err := OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
