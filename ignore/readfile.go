package ignore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// readLimited reads a file git would read for ignore rules: an ignore file, a configuration file, a
// .git file. Whoever controls the tree or the repository chose what stands at these paths, so only a
// regular file is read: a FIFO is opened without waiting for a writer (an open that blocks would stall
// every walk), and a device is never read. Per-directory files inside the tree are not followed when
// they are symbolic links (noFollow), as git does not follow them.
func readLimited(path string, noFollow bool) ([]byte, error) {
	flags := 0
	if noFollow {
		flags = syscall.O_NOFOLLOW
	}
	f, err := OpenRegular(path, flags)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFileSize)
	}
	return io.ReadAll(io.LimitReader(f, maxFileSize))
}

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
