package mcp

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Proc is a started stdio server (a *bash.Program when the session starts it).
type Proc interface {
	// Pid is its process id and its process group's.
	Pid() int
	Exited() <-chan struct{}
	// Reap, once it has exited, says how it ended and stops what it left running.
	Reap() string
	// Signal signals its process group.
	Signal(sig syscall.Signal)
}

// StartFunc starts a program with files as its descriptors 0, 1 and 2, in a process group of its own.
type StartFunc func(name string, args, env []string, dir string, files []*os.File) (Proc, error)

// process is a stdio server and the pipes Warden holds to it. Warden starts it (through the session's
// supervisor, which stops it and all it started even if Warden is killed) rather than through the SDK's
// CommandTransport, which waits for the process itself and signals only the process it started, not what
// that started; here Warden alone reaps it, so how it ended is known without a race, and every signal goes
// to the whole group.
type process struct {
	proc   Proc
	stdin  *os.File // the write end of the server's stdin
	stdout *os.File // the read end of its stdout
	exited chan struct{}
	status string // how it ended; set before exited is closed
	// logged is closed once the server's stderr has been copied to its log to the end: a crash's last
	// words are still in the pipe when its exit is seen.
	logged chan struct{}
}

// startProcess starts a server with pipes for its stdin and stdout, and its stderr copied to log.
func startProcess(start StartFunc, name string, args, env []string, dir string, log io.Writer) (*process, error) {
	var pipes [6]*os.File // in r/w, out r/w, err r/w
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(pipes[:i])
			return nil, err
		}
		pipes[i], pipes[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	proc, err := start(name, args, env, dir, []*os.File{inR, outW, errW})
	// The child has its ends now; Warden keeps only its own.
	closeAll([]*os.File{inR, outW, errW})
	if err != nil {
		closeAll([]*os.File{inW, outR, errR})
		return nil, err
	}
	p := &process{proc: proc, stdin: inW, stdout: outR, exited: make(chan struct{}), logged: make(chan struct{})}
	go func() {
		// Until every process holding the pipe is gone; the log keeps a bounded part.
		_, _ = io.Copy(log, errR)
		errR.Close()
		close(p.logged)
	}()
	return p, nil
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// transport speaks MCP over the pipes, with the SDK's framing and its bound on one message.
func (p *process) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin}
}

// stop ends the server the way MCP asks a client to: its stdin closed, then SIGTERM, then SIGKILL, each
// after a short wait, to its whole process group; then what is left of the group is killed and the server
// reaped.
func (p *process) stop() {
	_ = p.stdin.Close() // the SDK may have closed it already
	if !p.wait(terminateAfter) {
		p.proc.Signal(syscall.SIGTERM)
		if !p.wait(terminateAfter) {
			p.proc.Signal(syscall.SIGKILL)
			p.wait(killWait)
		}
	}
	p.proc.Signal(syscall.SIGKILL)
	p.stdout.Close()
	select {
	case <-p.proc.Exited():
		p.status = p.proc.Reap()
		close(p.exited)
	default:
		// Not gone even after SIGKILL (stuck in the kernel): left unreaped rather than waited for.
	}
	// The group is gone, so the pipe's last writer is too, but for a process that left the group: what
	// the server wrote last (a panic) is read before anyone describes how it ended.
	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.logged:
	case <-t.C:
	}
}

// killWait bounds the wait for a process to go after SIGKILL.
const killWait = 2 * time.Second

func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.proc.Exited():
		return true
	case <-t.C:
		return false
	}
}

// exitStatus says how the process ended ("exit status 3", "signal: killed"), once it is stopped.
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
		return p.status
	default:
		return ""
	}
}

// execProc is a server started by Warden itself, for a manager without a StartFunc (tests, `warden mcp
// list` without a session): its own process group, killed by the kernel if Warden dies.
type execProc struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

func startExec(name string, args, env []string, dir string, files []*os.File) (Proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &execProc{cmd: cmd, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *execProc) Pid() int                { return p.cmd.Process.Pid }
func (p *execProc) Exited() <-chan struct{} { return p.exited }

func (p *execProc) Reap() string {
	<-p.exited
	return p.cmd.ProcessState.String()
}

// Signal signals the group. Go's Wait reaps the leader as soon as it exits, so unlike a supervised
// program its id could in principle be reused; the group lives on while any member does, and this fallback
// accepts that small window.
func (p *execProc) Signal(sig syscall.Signal) {
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
}
