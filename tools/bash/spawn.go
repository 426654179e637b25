package bash

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/tools/sandbox"
	"github.com/warden-cli/warden/tools/supervisor"
)

// A spawner starts a command's first process. There are three: the session's supervisor (a process Warden
// keeps for the session, which forks every command and stops them all when Warden goes, even when Warden is
// killed with SIGKILL; tools/supervisor), the read-only jail's supervisor (tools/jail), and, when no
// supervisor can be had, Warden itself.
type spawner interface {
	// spawn starts path with args and env in dir, in a session and process group of its own; files are
	// its descriptors 0, 1, 2, ... and it gets no others. The pid is the process's, as Warden sees it.
	spawn(path string, args, env []string, dir string, files []*os.File) (child, int, error)
	// runDir is a directory for the command's final-directory pipe, reachable by the command.
	runDir() string
}

// child is a started process.
type child interface {
	// Exited is closed once the process has exited. It stays unreaped until Reap.
	Exited() <-chan struct{}
	// Reap reaps the process, after which its pid may be reused, and stops what is left of the command
	// outside its group that carries mark in its environment. The bool says whether the status is known.
	Reap(mark string) (syscall.WaitStatus, bool)
}

// supervised starts commands through a supervisor.
type supervised struct {
	cl  *supervisor.Client
	dir string
}

func (s *supervised) spawn(path string, args, env []string, dir string, files []*os.File) (child, int, error) {
	ch, err := s.cl.Start(path, args, env, dir, files)
	if err != nil {
		return nil, 0, err
	}
	return ch, ch.Pid, nil
}

func (s *supervised) runDir() string { return s.dir }

// direct starts commands as Warden's own children: what runs when no supervisor can be had. Then nothing
// stops a command's processes if Warden is killed with SIGKILL until the next Warden starts (SweepOrphans).
type direct struct{ dir string }

func (d *direct) spawn(path string, args, env []string, dir string, files []*os.File) (child, int, error) {
	closeInheritedOnExec()
	p, err := os.StartProcess(path, args, &os.ProcAttr{Dir: dir, Env: env, Files: files,
		Sys: &syscall.SysProcAttr{Setsid: true}})
	if err != nil {
		return nil, 0, err
	}
	c := &directChild{p: p, exited: make(chan struct{})}
	go c.watch()
	return c, p.Pid, nil
}

func (d *direct) runDir() string { return d.dir }

type directChild struct {
	p      *os.Process
	exited chan struct{}
}

// watch waits for the process to exit without reaping it.
func (c *directChild) watch() {
	defer close(c.exited)
	const pPID, wEXITED, wNOWAIT = 1, 4, 0x01000000
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(c.p.Pid),
			uintptr(unsafe.Pointer(&info[0])), wEXITED|wNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}

func (c *directChild) Exited() <-chan struct{} { return c.exited }

func (c *directChild) Reap(mark string) (syscall.WaitStatus, bool) {
	state, err := c.p.Wait()
	// Without a subreaper, a process that left the group is found only by its mark.
	sweep(mark, 0, syscall.SIGKILL)
	if err != nil {
		return 0, false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	return ws, ok
}

// closeInheritedOnExec marks every descriptor above 2 close-on-exec. Warden opens its own that way, but it
// may have inherited others from whatever started it (a terminal multiplexer's, an editor's), which would
// otherwise pass on to every command. Called before each start, it costs one system call.
func closeInheritedOnExec() {
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
}

// devNull is the empty input of every command.
var devNull = sync.OnceValues(func() (*os.File, error) { return os.Open(os.DevNull) })

// supervisorWait bounds the wait for a supervisor to start serving: Warden's own start-up takes tens of
// milliseconds, more on a loaded machine. One that does not answer in time is not Warden's helper.
const supervisorWait = 10 * time.Second

// launchSupervisor starts helper as a supervisor and waits until it serves, or until quit is closed (Warden
// is exiting: a supervisor that has started nothing yet is not waited for). The process starts with an
// empty environment: it must not hold the API key, which a command could otherwise read in its /proc.
func launchSupervisor(helper string, quit <-chan struct{}) (*supervisor.Client, error) {
	if helper == "" {
		return nil, errors.New("no helper executable")
	}
	local, remote, err := supervisor.Socketpair()
	if err != nil {
		return nil, err
	}
	closeInheritedOnExec()
	cmd := exec.Command(helper, sandbox.HelperMarker, "serve")
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{remote} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	remote.Close()
	if err != nil {
		local.Close()
		return nil, fmt.Errorf("starting the supervisor: %w", err)
	}
	cl, err := supervisor.NewClient(local, cmd.Process)
	if err != nil {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
		return nil, err
	}
	t := time.NewTimer(supervisorWait)
	defer t.Stop()
	select {
	case <-cl.Ready():
		if err := cl.Err(); err != nil {
			cl.Close(time.Second)
			return nil, err
		}
		return cl, nil
	case <-t.C:
		_ = cmd.Process.Kill()
		cl.Close(time.Second)
		return nil, fmt.Errorf("%s did not answer as a supervisor within %s", helper, supervisorWait)
	case <-quit:
		_ = cmd.Process.Kill()
		cl.Close(time.Second)
		return nil, errShuttingDown
	}
}

// errShuttingDown is why nothing starts once KillAll has begun.
var errShuttingDown = errors.New("no new commands are started: Warden is shutting down")
