package supervisor

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Client is Warden's side of one supervisor. It is safe for concurrent use.
type Client struct {
	c    *conn
	proc *os.Process // the supervisor, waited for by Close
	wmu  sync.Mutex

	mu       sync.Mutex
	next     uint64
	starting map[uint64]chan startReply
	running  map[uint64]*Child
	err      error // why the connection ended, once it has

	hello  chan struct{}
	done   chan struct{} // closed when the connection ends
	exited chan struct{} // closed when the supervisor process has been waited for
	closed sync.Once
}

type startReply struct {
	err   error
	pidfd *os.File
}

// NewClient serves the local end of a socket pair whose remote end the supervisor process proc was
// started with. proc may be nil when something else waits for the process.
func NewClient(local *os.File, proc *os.Process) (*Client, error) {
	c, err := newConn(local)
	if err != nil {
		return nil, err
	}
	cl := &Client{c: c, proc: proc, starting: map[uint64]chan startReply{}, running: map[uint64]*Child{},
		hello: make(chan struct{}), done: make(chan struct{}), exited: make(chan struct{})}
	go cl.read()
	go func() {
		if proc != nil {
			_, _ = proc.Wait()
		}
		close(cl.exited)
	}()
	return cl, nil
}

// Ready is closed once the supervisor serves (or the connection ended before it did; Err says so).
func (cl *Client) Ready() <-chan struct{} { return cl.hello }

// Done is closed when the connection has ended: Close was called, or the supervisor died.
func (cl *Client) Done() <-chan struct{} { return cl.done }

// Err says why the connection ended, or nil while it serves.
func (cl *Client) Err() error {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.err
}

// read dispatches the supervisor's messages until the connection ends.
func (cl *Client) read() {
	helloOnce := sync.Once{}
	sayHello := func() { helloOnce.Do(func() { close(cl.hello) }) }
	var err error
	for {
		var m *message
		var files []*os.File
		m, files, err = cl.c.recv()
		if err != nil {
			break
		}
		switch m.op {
		case opHello:
			sayHello()
			closeAll(files)
		case opStarted:
			cl.mu.Lock()
			ch := cl.starting[m.id]
			delete(cl.starting, m.id)
			cl.mu.Unlock()
			r := startReply{}
			if len(m.fields) > 0 && m.fields[0] != "" {
				r.err = errors.New(m.fields[0])
				closeAll(files)
			} else if len(files) != 1 {
				r.err = errors.New("the supervisor sent no pidfd for the command")
				closeAll(files)
			} else {
				r.pidfd = files[0]
			}
			if ch == nil {
				closeAll(files)
				continue
			}
			ch <- r
		case opExited, opReaped:
			closeAll(files)
			cl.mu.Lock()
			ch := cl.running[m.id]
			if m.op == opReaped {
				delete(cl.running, m.id)
			}
			cl.mu.Unlock()
			if ch != nil {
				ch.end(syscall.WaitStatus(m.num), m.known)
			}
		default:
			closeAll(files)
		}
	}
	if errors.Is(err, errEOF) || errors.Is(err, os.ErrClosed) {
		err = errors.New("the supervisor has exited")
	}
	cl.mu.Lock()
	cl.err = fmt.Errorf("supervisor: %w", err)
	starting, running := cl.starting, cl.running
	cl.starting, cl.running = map[uint64]chan startReply{}, map[uint64]*Child{}
	cl.mu.Unlock()
	sayHello()
	close(cl.done)
	for _, ch := range starting {
		ch <- startReply{err: cl.Err()}
	}
	for _, ch := range running {
		ch.end(0, false)
	}
}

// Child is one command the supervisor started.
type Child struct {
	// Pid is the command's pid as Warden sees it; it leads its own session and process group.
	Pid int
	id  uint64
	cl  *Client
	// exited is closed as soon as the process exits: Warden watches a pidfd of it, which becomes readable
	// then (or, without one, the supervisor says so).
	exited     chan struct{}
	exitedOnce sync.Once
	// reported is closed once the supervisor has sent the status, which Warden asks for only when it
	// cannot read it itself.
	reported     chan struct{}
	reportedOnce sync.Once
	status       syscall.WaitStatus
	known        bool
}

func (ch *Child) end(ws syscall.WaitStatus, known bool) {
	ch.reportedOnce.Do(func() {
		ch.status, ch.known = ws, known
		close(ch.reported)
	})
	ch.markExited()
}

func (ch *Child) markExited() { ch.exitedOnce.Do(func() { close(ch.exited) }) }

// watch closes exited when the pidfd becomes readable, which it does when the process exits. It owns f.
// Should the pidfd not be watchable, the supervisor is asked to watch instead.
func (ch *Child) watch(f *os.File) {
	defer f.Close()
	rc, err := f.SyscallConn()
	if err == nil {
		// The poller reports edges, and a process that exited before the pidfd was watched makes none:
		// each wake-up, the first one included, asks the pidfd itself.
		err = rc.Read(func(fd uintptr) bool {
			p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			for {
				n, err := unix.Poll(p, 0)
				if err != unix.EINTR {
					return err == nil && n > 0
				}
			}
		})
	}
	if err != nil {
		_ = ch.cl.send(&message{op: opWatch, id: ch.id})
		return
	}
	ch.markExited()
}

// Exited is closed once the command has exited. It stays unreaped until Reap.
func (ch *Child) Exited() <-chan struct{} { return ch.exited }

// Reap lets the supervisor reap the command, after which its pid may be reused, and kill the processes it
// left outside its group that carry mark (NAME=VALUE) in their environment. It returns the wait status,
// and false when the status is not known (the supervisor died). Call it only once Exited is closed.
func (ch *Child) Reap(mark string) (syscall.WaitStatus, bool) {
	<-ch.exited
	// The exited process's status is in its /proc entry until it is reaped: the supervisor need not be
	// asked, nor the reap waited for, Warden being done signalling the group.
	if ws, ok := exitStatus(ch.Pid); ok {
		go func() { _ = ch.cl.send(&message{op: opReap, id: ch.id, fields: []string{mark}}) }()
		return ws, true
	}
	return ch.reapAsking(mark)
}

// reapAsking reaps the command and waits for the supervisor to say how it ended.
func (ch *Child) reapAsking(mark string) (syscall.WaitStatus, bool) {
	if err := ch.cl.send(&message{op: opReap, id: ch.id, num: 1, fields: []string{mark}}); err != nil {
		ch.end(0, false)
	}
	<-ch.reported
	return ch.status, ch.known
}

// exitStatus reads an exited, unreaped process's wait status from /proc/PID/stat (its 52nd field), which
// a process of the same user may read.
func exitStatus(pid int) (syscall.WaitStatus, bool) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	var buf [1024]byte
	n, err := unix.Read(fd, buf[:])
	unix.Close(fd)
	if err != nil || n <= 0 {
		return 0, false
	}
	s := string(buf[:n])
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3, the state: only a zombie's status is final.
	if len(f) < 50 || f[0] != "Z" {
		return 0, false
	}
	code, err := strconv.Atoi(f[49])
	if err != nil {
		return 0, false
	}
	return syscall.WaitStatus(code), true
}

// Start has the supervisor fork path with args and env in dir, in a session of its own; files become the
// command's descriptors 0, 1, 2, ... in order, and it gets no others.
func (cl *Client) Start(path string, args, env []string, dir string, files []*os.File) (*Child, error) {
	reply := make(chan startReply, 1)
	cl.mu.Lock()
	if cl.err != nil {
		cl.mu.Unlock()
		return nil, cl.err
	}
	cl.next++
	id := cl.next
	cl.starting[id] = reply
	ch := &Child{id: id, cl: cl, exited: make(chan struct{}), reported: make(chan struct{})}
	// Registered before the request goes, so that an exit that comes right after the start is not lost.
	cl.running[id] = ch
	cl.mu.Unlock()
	fields := make([]string, 0, 3+len(args)+len(env))
	fields = append(fields, path, dir, strconv.Itoa(len(args)))
	fields = append(fields, args...)
	fields = append(fields, env...)
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	err := cl.send(&message{op: opStart, id: id, fields: fields}, fds...)
	if err != nil {
		cl.forget(id)
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	r := <-reply
	if r.err != nil {
		cl.forget(id)
		return nil, r.err
	}
	pid, err := pidOf(r.pidfd)
	if err != nil {
		// Not a command we can reach: have it stopped rather than leave it running unseen.
		r.pidfd.Close()
		_ = cl.send(&message{op: opReap, id: id})
		cl.forget(id)
		return nil, err
	}
	ch.Pid = pid
	r.pidfd.Close()
	// Watched through Go's poller, a pidfd wakes Warden itself when the command exits. It is one of our
	// own: the passed one shares its flags with the supervisor's, which waits on it blocking. The command
	// stays unreaped until Reap, so the pid names it still.
	if fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK); err == nil {
		go ch.watch(os.NewFile(uintptr(fd), "pidfd"))
	} else if err := cl.send(&message{op: opWatch, id: id}); err != nil {
		ch.end(0, false)
	}
	return ch, nil
}

func (cl *Client) forget(id uint64) {
	cl.mu.Lock()
	delete(cl.starting, id)
	delete(cl.running, id)
	cl.mu.Unlock()
}

func (cl *Client) send(m *message, fds ...int) error {
	cl.wmu.Lock()
	defer cl.wmu.Unlock()
	return cl.c.send(m, fds...)
}

// pidOf reads the pid a pidfd refers to, in this process's pid namespace, from its fdinfo. A descriptor
// that is not a pidfd has no Pid line and is refused.
func pidOf(f *os.File) (int, error) {
	fd, err := unix.Open("/proc/self/fdinfo/"+strconv.Itoa(int(f.Fd())), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("supervisor: reading the command's pidfd: %w", err)
	}
	var buf [512]byte
	n, err := unix.Read(fd, buf[:])
	unix.Close(fd)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("supervisor: reading the command's pidfd: %v", err)
	}
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || pid <= 0 {
				break // -1: the process is already gone, or is in no namespace of ours
			}
			return pid, nil
		}
	}
	return 0, errors.New("supervisor: the command's pidfd does not name a process Warden can see")
}

// Close ends the connection: the supervisor stops every command still running and everything they
// started, then exits. Close waits for that, at most wait.
func (cl *Client) Close(wait time.Duration) {
	cl.closed.Do(func() { cl.c.c.Close() })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-cl.exited:
	case <-t.C:
	}
}
