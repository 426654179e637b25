package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// cwdPipe is the named pipe through which a shell reports its final directory (wrapScript). Warden holds
// its read end from before the shell starts; the shell's EXIT trap opens it by name and writes one line. A
// pipe given to the shell as a descriptor would be inherited by every program the command runs, and one
// that could be read would let them change which directory the next command runs in behind the model's
// back (the name is not secret, so a process that knows it still can; it can just as well `cd`).
type cwdPipe struct {
	path string
	dir  string
	fd   int
}

var cwdPipeSeq atomic.Int64

// Making a named pipe and removing it again costs about half a millisecond on a journalling file system,
// a third of a short command's run, so pipes are kept and used again: a handful, across the directories
// (the session's, the jail's) they were made in.
var cwdPipes struct {
	sync.Mutex
	free []*cwdPipe
}

// cwdPipesKept bounds the idle pipes kept.
const cwdPipesKept = 16

// getCwdPipe returns an idle pipe in dir, emptied, or a new one.
func getCwdPipe(dir string) (*cwdPipe, error) {
	cwdPipes.Lock()
	for i := len(cwdPipes.free) - 1; i >= 0; i-- {
		c := cwdPipes.free[i]
		if c.dir != dir {
			continue
		}
		cwdPipes.free = append(cwdPipes.free[:i], cwdPipes.free[i+1:]...)
		cwdPipes.Unlock()
		var st syscall.Stat_t
		if syscall.Stat(c.path, &st) != nil {
			// Its directory went (a jail that closed): make another.
			syscall.Close(c.fd)
			return newCwdPipe(dir)
		}
		c.read() // whatever a process that held it wrote since
		return c, nil
	}
	cwdPipes.Unlock()
	return newCwdPipe(dir)
}

// release gives the pipe back for another command.
func (c *cwdPipe) release() {
	cwdPipes.Lock()
	cwdPipes.free = append(cwdPipes.free, c)
	var old *cwdPipe
	if len(cwdPipes.free) > cwdPipesKept {
		old, cwdPipes.free = cwdPipes.free[0], cwdPipes.free[1:]
	}
	cwdPipes.Unlock()
	if old != nil {
		old.close()
	}
}

// dropCwdPipes closes the idle pipes in dir, which is about to go.
func dropCwdPipes(dir string) {
	cwdPipes.Lock()
	var drop []*cwdPipe
	keep := cwdPipes.free[:0]
	for _, c := range cwdPipes.free {
		if c.dir == dir {
			drop = append(drop, c)
		} else {
			keep = append(keep, c)
		}
	}
	cwdPipes.free = keep
	cwdPipes.Unlock()
	for _, c := range drop {
		c.close()
	}
}

// newCwdPipe makes a fresh pipe in dir, readable and writable by this user only, and opens its read end
// without blocking.
func newCwdPipe(dir string) (*cwdPipe, error) {
	path := filepath.Join(dir, fmt.Sprintf("cwd-%d", cwdPipeSeq.Add(1)))
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, fmt.Errorf("making the pipe for the final directory: %w", err)
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = syscall.Unlink(path)
		return nil, fmt.Errorf("opening the pipe for the final directory: %w", err)
	}
	return &cwdPipe{path: path, dir: dir, fd: fd}, nil
}

// read returns the directory the shell reported, or "". The shell wrote it before it exited, so it is in
// the pipe by now; nothing is waited for.
func (c *cwdPipe) read() string {
	var b []byte
	buf := make([]byte, 4096)
	for len(b) < 64<<10 {
		n, err := syscall.Read(c.fd, buf)
		if n > 0 {
			b = append(b, buf[:n]...)
		}
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			break
		}
	}
	// One line is expected; should a command have written more, only the first counts.
	line, _, ok := strings.Cut(string(b), "\n")
	if !ok {
		return ""
	}
	return line
}

func (c *cwdPipe) close() {
	syscall.Close(c.fd)
	_ = syscall.Unlink(c.path)
}
