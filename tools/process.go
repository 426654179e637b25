package tools

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// procSpec is everything needed to start one shell.
type procSpec struct {
	bash   string // path of the bash binary
	script string // the command, already wrapped by wrapScript
	dir    string
	env    []string
	out    io.Writer // receives stdout and stderr, merged in their real order, from one goroutine
	limits Limits
	// sandbox confines the command; nil runs it unconfined.
	sandbox *sandboxPlan
	// mark is an environment entry (callVar=...) that only this command's processes carry, so that those
	// that left its process group can be found and stopped with it.
	mark string
}

// proc is one running `bash -c` and its process group.
//
// Its lifecycle: the shell exits (or is told to stop); then whatever is left of its group is killed, the
// output pipe is drained for at most drainWait, the final directory is read back and only then is the shell
// reaped. Until it is reaped the shell's pid cannot be reused, so signalling its group can never hit a
// stranger.
type proc struct {
	cmd     *exec.Cmd
	pgid    int
	out     *os.File      // read end of stdout+stderr
	cwdR    *os.File      // read end of the pipe the EXIT trap writes the final directory to
	exited  chan struct{} // closed once the shell has exited (it stays unreaped until finish)
	outDone chan struct{} // closed once the output pipe is drained
	limits  *limitPlan
	sandbox *sandboxPlan
	mark    string
	hurry   chan struct{} // closed to cut a stop's grace period short
	pidsHit bool          // set by finish: the command's pids cgroup refused a fork
	// drainEnd (Unix nanoseconds) is set by finish when the group is gone: the reader then renews the read
	// deadline after every read that got output, up to drainEnd.
	drainEnd atomic.Int64
}

// drainWait bounds how long output is waited for after a command's group is gone: a process that left the
// group (setsid) may keep the pipe open forever, and the command must not wait for it. The wait starts again
// after each read that got output, so what the command wrote before it ended is read however slowly it is
// taken in, but never for longer than drainMax in all (an escaped process may keep writing).
const (
	drainWait = 100 * time.Millisecond
	drainMax  = 5 * time.Second
)

// readBufs recycles the buffers that output is read into.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// startProc starts the shell. It is the one place processes are created: the resource limits are the
// first statements of the script (see limits.go), and a sandbox, if any, wraps bash (see sandbox.go).
func startProc(spec procSpec) (*proc, error) {
	lim := planLimits(spec.limits)
	script := lim.prefix + spec.script
	outR, outW, err := os.Pipe()
	if err != nil {
		lim.release()
		return nil, err
	}
	cwdR, cwdW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		lim.release()
		return nil, err
	}
	// A larger pipe means fewer wake-ups for chatty commands; the kernel may refuse, which is fine.
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, outW.Fd(), syscall.F_SETPIPE_SZ, 1<<20)
	extra := []*os.File{cwdW}
	if lim.procs != nil {
		extra = append(extra, lim.procs) // fd 4, for the shell to join its pids cgroup
	}
	path, args := spec.bash, []string{"bash", "-c", script}
	if spec.sandbox != nil {
		var files []*os.File
		path, args, files, err = spec.sandbox.command(spec.bash, script, spec.dir, 3+len(extra))
		if err != nil {
			outR.Close()
			outW.Close()
			cwdR.Close()
			cwdW.Close()
			lim.closeProcs()
			lim.release()
			return nil, err
		}
		extra = append(extra, files...)
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
	}
	cmd := &exec.Cmd{
		Path:       path,
		Args:       args,
		Dir:        spec.dir,
		Env:        spec.env,
		Stdout:     outW,
		Stderr:     outW,
		ExtraFiles: extra,
		// A new session: the group can be signalled as one, and without a controlling terminal a program
		// that opens /dev/tty to ask for a password fails at once instead of stopping the group for good.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	err = cmd.Start()
	outW.Close()
	cwdW.Close()
	lim.closeProcs()
	if err != nil {
		outR.Close()
		cwdR.Close()
		lim.release()
		return nil, err
	}
	p := &proc{cmd: cmd, pgid: cmd.Process.Pid, out: outR, cwdR: cwdR,
		exited: make(chan struct{}), outDone: make(chan struct{}), limits: lim, sandbox: spec.sandbox,
		mark: spec.mark, hurry: make(chan struct{})}
	go p.watchExit()
	go p.read(spec.out)
	return p, nil
}

// watchExit waits for the shell to exit without reaping it.
func (p *proc) watchExit() {
	defer close(p.exited)
	const pPID, wEXITED, wNOWAIT = 1, 4, 0x01000000
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.pgid),
			uintptr(unsafe.Pointer(&info[0])), wEXITED|wNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}

// read copies the output to w until the pipe is closed or its read deadline passes.
func (p *proc) read(w io.Writer) {
	defer close(p.outDone)
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	for {
		n, err := p.out.Read(buf)
		if n > 0 {
			w.Write(buf[:n])
			if end := p.drainEnd.Load(); end != 0 {
				// Draining: there may be more in the pipe, which a deadline that passed during the
				// write would otherwise throw away.
				_ = p.out.SetReadDeadline(time.Unix(0, min(time.Now().Add(drainWait).UnixNano(), end)))
			}
		}
		if err != nil {
			return
		}
	}
}

// signal sends sig to the whole group. It must not be called after finish has reaped the shell.
func (p *proc) signal(sig syscall.Signal) {
	_ = syscall.Kill(-p.pgid, sig)
}

// members lists the processes of the group, the leader included, with the name of the program each runs.
func (p *proc) members() map[int]string {
	out := map[int]string{}
	eachProcess(func(pid int, dir string) {
		if pg, err := syscall.Getpgid(pid); err == nil && pg == p.pgid {
			comm, _ := os.ReadFile(dir + "/comm")
			out[pid] = string(comm)
		}
	})
	return out
}

// terminate sends TERM to the group and returns its members as they were just before. Under bubblewrap the
// group's leader is bwrap itself, which dies of a TERM at once and takes the sandbox down with SIGKILL
// (--die-with-parent), leaving the command no time to clean up; so there the leader is spared, and bwrap
// ends when the command does.
func (p *proc) terminate() map[int]string {
	before := p.members()
	if p.sandbox == nil || p.sandbox.probe.backend != BackendBubblewrap {
		p.signal(syscall.SIGTERM) // the whole group at once, as a terminal would
		return before
	}
	for pid := range before {
		if pid != p.pgid {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
	return before
}

// reterm sends a second TERM to the members that were there at the first but have run a new program since.
// A child the shell had forked but not yet turned into the command when the TERM came takes the signal as
// the shell would and then runs the command, which never hears of it; a shell with a trap then waits for
// it until the grace period ends. A process gets no second TERM otherwise: it would run a cleanup handler
// again, or kill the child the handler started.
func (p *proc) reterm(before map[int]string) {
	for pid, comm := range p.members() {
		if old, ok := before[pid]; ok && old != comm {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

// stop asks the group, and the command's processes that left it (`timeout` makes a group of its own), to
// end: TERM, then, after grace (or as soon as the shell and every holder of the output are gone, or hurry
// is closed), finish's KILL.
func (p *proc) stop(grace time.Duration) {
	deadline := time.Now().Add(grace)
	before := p.terminate()
	p.signal(syscall.SIGCONT) // a stopped process only acts on TERM once it runs
	sweep(p.mark, p.pgid, syscall.SIGTERM, syscall.SIGCONT)
	// A child caught between fork and exec when the TERM went out never passes it on (see reterm).
	again := time.NewTimer(min(retermAfter, grace/2))
	select {
	case <-p.exited:
	case <-p.hurry:
	case <-again.C:
		p.reterm(before)
	}
	again.Stop()
	t := time.NewTimer(max(time.Until(deadline), 0))
	defer t.Stop()
	select {
	case <-p.exited:
		// Children may still be cleaning up after their TERM; they hold the pipe until they are done.
		select {
		case <-p.outDone:
		case <-p.hurry:
		case <-t.C:
		}
	case <-p.hurry:
	case <-t.C:
	}
}

// escapeWait is how long the output pipe may stay open after the group was killed before the command's
// processes outside its group are looked for: killed processes take a moment to close their ends.
const escapeWait = 20 * time.Millisecond

// finish kills what is left of the group once the shell has exited, drains the output, reads back the final
// directory and reaps the shell. It returns the directory ("" if the shell did not report one).
func (p *proc) finish() (cwd string, state *os.ProcessState) {
	select {
	case <-p.exited:
	default:
		p.signal(syscall.SIGKILL)
		<-p.exited
	}
	// Leftovers of the command (`server &`) die with it: a finished command never waits for its children.
	// So do those that left the group (setsid, `timeout`, `set -m`): they are in the command's pids cgroup
	// when there is one, and otherwise carry its mark. Looking for the mark means reading every process's
	// environment, so it is done only when something still holds the output pipe.
	p.signal(syscall.SIGKILL)
	p.pidsHit = p.limits.release()
	select {
	case <-p.outDone:
	case <-time.After(escapeWait):
		sweep(p.mark, p.pgid, syscall.SIGKILL)
	}
	now := time.Now()
	p.drainEnd.Store(now.Add(drainMax).UnixNano())
	_ = p.out.SetReadDeadline(now.Add(drainWait))
	<-p.outDone
	// The shell wrote its directory before it exited, so it is in the pipe now; what is read stops at the
	// line's end rather than waiting for the pipe to close, which a process holding it would delay.
	_ = p.cwdR.SetReadDeadline(time.Now().Add(drainWait))
	var b []byte
	buf := make([]byte, 4096)
	for len(b) < 64<<10 && !strings.HasSuffix(string(b), "\n") {
		n, err := p.cwdR.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	if s := string(b); strings.HasSuffix(s, "\n") {
		cwd = strings.TrimSuffix(s, "\n")
	}
	// Every process the command started inherits this pipe too, so one that still holds it has outlived
	// the group even with its output sent elsewhere (`setsid server >/dev/null 2>&1 &`). With no holder the
	// read ends at once.
	_ = p.cwdR.SetReadDeadline(time.Now().Add(time.Millisecond))
	if _, err := p.cwdR.Read(buf); errors.Is(err, os.ErrDeadlineExceeded) {
		sweep(p.mark, p.pgid, syscall.SIGKILL)
	}
	_ = p.cmd.Wait()
	p.out.Close()
	p.cwdR.Close()
	return cwd, p.cmd.ProcessState
}

// wrapScript makes the shell report its final directory when it exits, however it exits. The pipe arrives
// on fd 3 and is moved out of the way first, to fd cwdFD: fd 3 is the first a script opens for itself
// (exec 3>log), and the directory must neither end up in its file nor be lost. The statements are on the
// command's first line so that bash's line numbers in error messages stay the model's.
func wrapScript(command string) string {
	return "{ exec " + cwdFD + ">&3 3>&-; } 2>/dev/null; trap 'builtin pwd 2>/dev/null >&" + cwdFD + "' EXIT; " + command
}

// retermAfter is when a stop sends its second TERM.
const retermAfter = 100 * time.Millisecond

// cwdFD is where the shell keeps the pipe for its final directory: a descriptor scripts do not name.
const cwdFD = "63"

// signalName is the conventional name of a signal ("SIGTERM").
func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT", syscall.SIGILL: "SIGILL",
		syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
		syscall.SIGKILL: "SIGKILL", syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV",
		syscall.SIGUSR2: "SIGUSR2", syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM",
		syscall.SIGTERM: "SIGTERM", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return s.String()
}
