package bash

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

// Making a named pipe and removing it again costs about half a millisecond on a journalling file system,
// a third of a short command's run, so pipes are kept and used again: a handful, across the directories
// (the session's, the jail's) they were made in. The Tasks keeps its pipes (Tasks.pipes); the zero value
// is an empty pool.
type cwdPipes struct {
	mu   sync.Mutex
	free []*cwdPipe
	seq  atomic.Int64 // names the pipes, which live in the Tasks' own directories
}

// cwdPipesKept bounds the idle pipes kept.
const cwdPipesKept = 16

// get returns an idle pipe in dir, emptied, or a new one.
func (ps *cwdPipes) get(dir string) (*cwdPipe, error) {
	ps.mu.Lock()
	for i := len(ps.free) - 1; i >= 0; i-- {
		c := ps.free[i]
		if c.dir != dir {
			continue
		}
		ps.free = append(ps.free[:i], ps.free[i+1:]...)
		ps.mu.Unlock()
		var st syscall.Stat_t
		if syscall.Stat(c.path, &st) != nil {
			// Its directory went (a jail that closed): make another.
			syscall.Close(c.fd)
			return ps.make(dir)
		}
		c.read() // whatever a process that held it wrote since
		return c, nil
	}
	ps.mu.Unlock()
	return ps.make(dir)
}

// put gives a pipe back for another command, closing the oldest idle one past cwdPipesKept.
func (ps *cwdPipes) put(c *cwdPipe) {
	ps.mu.Lock()
	ps.free = append(ps.free, c)
	var old *cwdPipe
	if len(ps.free) > cwdPipesKept {
		old, ps.free = ps.free[0], ps.free[1:]
	}
	ps.mu.Unlock()
	if old != nil {
		old.close()
	}
}

// closeAll closes every idle pipe: the Tasks is done, and its directories are about to go.
func (ps *cwdPipes) closeAll() {
	ps.mu.Lock()
	free := ps.free
	ps.free = nil
	ps.mu.Unlock()
	for _, c := range free {
		c.close()
	}
}

// make makes a fresh pipe in dir.
func (ps *cwdPipes) make(dir string) (*cwdPipe, error) {
	return newCwdPipe(filepath.Join(dir, fmt.Sprintf("cwd-%d", ps.seq.Add(1))), dir)
}

// newCwdPipe makes a fresh pipe at path in dir, readable and writable by this user only, and opens its
// read end without blocking.
func newCwdPipe(path, dir string) (*cwdPipe, error) {
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
