package ignore

import (
	"io"
	"os"

	"github.com/warden-cli/warden/safefile"
)

// read reads a file git would read for ignore rules through the matcher's Opener: an ignore file of the
// tree, info/exclude, core.excludesFile. Whoever controls the tree or the repository chose what stands at
// these paths: the Opener reads only a regular file (a FIFO is never waited on, which would stall every
// walk), refuses a link out of the workspace or into a secret place, and bounds the size. A
// per-directory file (perDir) that is itself a symbolic link is not read, as git does not follow it.
func (m *Matcher) read(path string, perDir bool) ([]byte, error) {
	if perDir {
		fi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil, &safefile.Refused{Path: path, Reason: "git does not follow a link there"}
		}
	}
	f, err := m.open.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxFileSize))
}
