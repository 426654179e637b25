package supervisor

import (
	"bytes"
	"errors"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Serve is the supervisor's main function: it serves the connection on descriptor fd until the client
// goes, then stops everything it started and returns the exit status for the process.
func Serve(fd int) int {
	// Orphans below us come to us, not to init; nobody of the same user reads our memory; and nothing we
	// hold leaks into a command (commands get exactly the descriptors they are sent).
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	c, err := newBlockingConn(fd)
	if err != nil {
		os.Stderr.WriteString("warden supervisor: " + err.Error() + "\n")
		return 2
	}
	// Every command is forked from this thread, and the kernel gives an orphan to the thread that forked
	// the ancestor it had in common with us: so orphans are found in this one thread's list of children.
	runtime.LockOSThread()
	s := &server{c: c, leaders: map[uint64]*leader{}, byPid: map[int]bool{},
		forker: "/proc/self/task/" + strconv.Itoa(unix.Gettid()) + "/children"}
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		c.shutdown() // ends the loop below, as the client's going would
	}()
	go func() {
		for range chld {
			s.reapOrphans()
		}
	}()
	if err := s.send(&message{op: opHello}); err == nil {
		s.loop()
	}
	s.stopAll()
	return 0
}

// server is the supervisor's state.
type server struct {
	c   *conn
	wmu sync.Mutex // sends
	// mu guards leaders and byPid, and is held across every fork and every reap, so that a command that
	// was just forked is never taken for an orphan and reaped before it is registered.
	mu      sync.Mutex
	leaders map[uint64]*leader
	byPid   map[int]bool // pids of the leaders, registered or not yet reaped
	forker  string       // the children list of the thread that forks
}

// leader is a command's first process, which the client alone decides when to reap.
type leader struct {
	pid   int
	pidfd int
}

func (s *server) send(m *message, fds ...int) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.c.send(m, fds...)
}

func (s *server) loop() {
	for {
		m, files, err := s.c.recv()
		if err != nil {
			return
		}
		switch m.op {
		case opStart:
			s.start(m, files)
		case opReap:
			closeAll(files)
			s.reap(m)
		case opWatch:
			closeAll(files)
			s.mu.Lock()
			l := s.leaders[m.id]
			s.mu.Unlock()
			if l != nil {
				go s.watch(m.id, l)
			}
		default:
			closeAll(files)
		}
	}
}

// start forks a command: fields are the path, the directory, the number of arguments, the arguments and
// the environment; the descriptors become the command's 0, 1, 2, ...
func (s *server) start(m *message, files []*os.File) {
	defer closeAll(files)
	fail := func(msg string) { _ = s.send(&message{op: opStarted, id: m.id, fields: []string{msg}}) }
	if len(m.fields) < 3 {
		fail("malformed start request")
		return
	}
	argc, err := strconv.Atoi(m.fields[2])
	if err != nil || argc < 1 || 3+argc > len(m.fields) {
		fail("malformed start request")
		return
	}
	fds := make([]uintptr, len(files))
	for i, f := range files {
		fds[i] = f.Fd()
	}
	pidfd := -1
	attr := &syscall.ProcAttr{
		Dir: m.fields[1], Env: m.fields[3+argc:], Files: fds,
		Sys: &syscall.SysProcAttr{Setsid: true, PidFD: &pidfd},
	}
	s.mu.Lock()
	pid, err := syscall.ForkExec(m.fields[0], m.fields[3:3+argc], attr)
	if err == nil && pidfd < 0 {
		// A kernel that could not hand a pidfd over at clone time can still open one.
		pidfd, err = unix.PidfdOpen(pid, 0)
		if err != nil {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
	}
	if err != nil {
		s.mu.Unlock()
		fail(startError(m.fields[0], m.fields[1], err))
		return
	}
	l := &leader{pid: pid, pidfd: pidfd}
	s.leaders[m.id] = l
	s.byPid[pid] = true
	s.mu.Unlock()
	_ = s.send(&message{op: opStarted, id: m.id, fields: []string{""}}, pidfd)
}

// startError words a failed fork or exec for the model.
func startError(path, dir string, err error) string {
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.ENOTDIR) {
		if _, serr := os.Stat(dir); serr != nil {
			return "cannot enter " + dir + ": " + serr.Error()
		}
	}
	return "cannot start " + path + ": " + err.Error()
}

// watch waits for a leader to exit, without reaping it, and reports its status: for a client that could
// not watch the command itself.
func (s *server) watch(id uint64, l *leader) {
	var info unix.Siginfo
	for {
		err := waitid(unix.P_PIDFD, l.pidfd, &info, unix.WEXITED|unix.WNOWAIT)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			_ = s.send(&message{op: opExited, id: id})
			return
		}
	}
	ws := waitStatus(&info)
	_ = s.send(&message{op: opExited, id: id, num: uint32(ws), known: true})
}

// waitid is waitid(2) for a pidfd, which package unix spells with a pid.
func waitid(idtype, id int, info *unix.Siginfo, options int) error {
	_, _, e := unix.Syscall6(unix.SYS_WAITID, uintptr(idtype), uintptr(id), uintptr(unsafe.Pointer(info)),
		uintptr(options), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// waitStatus turns waitid's siginfo into the status wait4 would have given.
func waitStatus(info *unix.Siginfo) syscall.WaitStatus {
	// siginfo_t for SIGCHLD: si_signo, si_errno, si_code, then (after padding) si_pid, si_uid, si_status.
	raw := (*[128]byte)(unsafe.Pointer(info))
	code := int32(nativeUint32(raw[8:]))
	status := int32(nativeUint32(raw[24:]))
	const cldExited, cldDumped = 1, 3 // si_code values (CLD_KILLED is 2)
	switch code {
	case cldExited:
		return syscall.WaitStatus((status & 0xff) << 8)
	case cldDumped:
		return syscall.WaitStatus(status&0x7f | 0x80)
	default: // CLD_KILLED
		return syscall.WaitStatus(status & 0x7f)
	}
}

func nativeUint32(b []byte) uint32 { return *(*uint32)(unsafe.Pointer(&b[0])) }

// reap reaps a command's leader, which the client has done with, and then kills what is left of the
// command outside its group: processes the subreaper inherited that carry the command's mark (the first
// field).
func (s *server) reap(m *message) {
	s.mu.Lock()
	l := s.leaders[m.id]
	delete(s.leaders, m.id)
	s.mu.Unlock()
	if l == nil {
		if m.num == 1 {
			_ = s.send(&message{op: opReaped, id: m.id})
		}
		return
	}
	// The client asks only once the leader has exited, so this returns at once; should it not have, the
	// wait must not hold up the other commands.
	var info unix.Siginfo
	if err := waitid(unix.P_PIDFD, l.pidfd, &info, unix.WEXITED|unix.WNOHANG); err != nil || nativeUint32((*[128]byte)(unsafe.Pointer(&info))[16:]) == 0 {
		go s.finishReap(m, l, true)
		return
	}
	s.finishReap(m, l, false)
	if m.num == 1 {
		_ = s.send(&message{op: opReaped, id: m.id, num: uint32(waitStatus(&info)), known: true})
	}
}

// finishReap waits for the leader if wait says so (and then answers a request for its status), forgets it,
// and has what is left of its command killed.
func (s *server) finishReap(m *message, l *leader, wait bool) {
	if wait {
		var info unix.Siginfo
		for waitid(unix.P_PIDFD, l.pidfd, &info, unix.WEXITED) == unix.EINTR {
		}
		if m.num == 1 {
			_ = s.send(&message{op: opReaped, id: m.id, num: uint32(waitStatus(&info)), known: true})
		}
	}
	s.mu.Lock()
	delete(s.byPid, l.pid)
	s.mu.Unlock()
	unix.Close(l.pidfd)
	s.reapOrphans()
	if len(m.fields) > 0 && m.fields[0] != "" {
		go s.killMarked(m.fields[0])
	}
}

// killMarked kills the orphans that carry mark in their environment, and what they started, round by
// round: a killed process's children come to us when it dies. A process caught in the middle of an exec
// shows no environment for a moment, so an orphan whose environment could not be read is looked at again,
// for at most unreadableWait.
func (s *server) killMarked(mark string) {
	want := []byte("\x00" + mark + "\x00")
	deadline := time.Now().Add(unreadableWait)
	for round := 0; round < 1000; round++ {
		var killed []int
		unsure := false
		s.mu.Lock()
		for _, pid := range s.orphans() {
			env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if err != nil || len(env) == 0 {
				unsure = true
				continue
			}
			if !bytes.Contains(append([]byte{0}, env...), want) {
				continue
			}
			killTree(pid)
			killed = append(killed, pid)
		}
		s.mu.Unlock()
		for _, pid := range killed {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil) // ECHILD if the SIGCHLD handler reaped it first
		}
		if len(killed) == 0 {
			if !unsure || time.Now().After(deadline) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// unreadableWait bounds how long killMarked waits for an orphan's environment to become readable.
const unreadableWait = 100 * time.Millisecond

// killTree kills a process and, when it leads a process group, the group.
func killTree(pid int) {
	if pg, err := syscall.Getpgid(pid); err == nil && pg == pid {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// orphans lists our children that are not commands' leaders. The caller holds mu.
func (s *server) orphans() []int {
	b, err := os.ReadFile(s.forker)
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		if !s.byPid[pid] {
			out = append(out, pid)
		}
	}
	return out
}

// children lists this process's children, from every thread's list: whichever thread forked a process,
// or was given an orphan, it is in one of them.
func children() []int {
	tasks, _ := os.ReadDir("/proc/self/task")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// reapOrphans reaps the orphans that have exited; commands' leaders are left for the client. It runs on
// every SIGCHLD, so it reads no files: waitid without reaping names an exited child, which is reaped
// unless it is a leader. A leader that is not reaped yet hides the children after it, which are reaped
// once the client has it reaped (reap calls this again).
func (s *server) reapOrphans() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		var info unix.Siginfo
		if err := waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT); err != nil {
			return
		}
		pid := int(nativeUint32((*[128]byte)(unsafe.Pointer(&info))[16:]))
		if pid == 0 || s.byPid[pid] {
			return
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); err != nil {
			return
		}
	}
}

// stopAll kills every command's group and everything below us, round by round until nothing is left, for
// at most stopBound.
func (s *server) stopAll() {
	deadline := time.Now().Add(stopBound)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for _, l := range s.leaders {
			_ = syscall.Kill(-l.pid, syscall.SIGKILL)
		}
		kids := children()
		for _, pid := range kids {
			killTree(pid)
		}
		s.mu.Unlock()
		if len(kids) == 0 {
			return
		}
		// Reap whatever died; orphans of the killed come to us meanwhile and are killed next round.
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return
			}
			if pid <= 0 {
				break
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// stopBound is how long stopAll keeps at it: a process in uninterruptible sleep (a hung network file
// system) cannot be killed at all.
const stopBound = 10 * time.Second
