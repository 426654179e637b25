package ignore

import (
	"fmt"
	"io"
	"syscall"

	"github.com/warden-cli/warden/safefile"
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
	f, err := safefile.OpenRegular(path, flags)
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
