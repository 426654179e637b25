package bash

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/sandbox"
)

// procSpec is everything needed to start one shell.
type procSpec struct {
	bash    string // path of the bash binary
	command string // the command as the model gave it
	dir     string
	env     []string
	out     io.Writer // receives stdout and stderr, merged in their real order, from one goroutine
	limits  tools.Limits
	// sandbox confines the command; nil runs it unconfined.
	sandbox *sandbox.Plan
	// mark is an environment entry (callVar=...) that only this command's processes carry, so that those
	// that left its process group can be found and stopped with it.
	mark string
	// spawner starts the shell's process.
	spawner spawner
	// What the command borrows from its Tasks: a final-directory pipe, a pids cgroup, a read buffer.
	pipes   *cwdPipes
	cgroups *cgroupPool
	bufs    *sync.Pool
}

// proc is one running `bash -c` and its process group.
//
// Its lifecycle: the shell exits (or is told to stop); then whatever is left of its group is killed, the
// output pipe is drained for at most drainWait, the final directory is read back and only then is the shell
// reaped. Until it is reaped the shell's pid cannot be reused, so signalling its group can never hit a
// stranger.
type proc struct {
	child   child
	pgid    int
	out     *os.File        // read end of stdout+stderr
	cwd     *cwdPipe        // where the EXIT trap writes the final directory
	pipes   *cwdPipes       // where cwd goes back once read
	exited  <-chan struct{} // closed once the shell has exited (it stays unreaped until finish)
	outDone chan struct{}   // closed once the output pipe is drained
	limits  *limitPlan
	sandbox *sandbox.Plan
	mark    string
	hurry   chan struct{} // closed to cut a stop's grace period short
	// pidsHit, set by finish, says whether the command's pids cgroup refused a fork; it waits for the
	// count, which is read after the command's end.
	pidsHit func() bool
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

// readBufSize is the size of the buffers output is read into, which the Tasks recycles (Tasks.bufs).
const readBufSize = 256 << 10

// startProc starts the shell. It is the one place processes are created: the resource limits are the
// first statements of the script (see limits.go), and a sandbox, if any, wraps bash (package sandbox). The
// shell gets descriptors 0 (empty), 1 and 2 (the output pipe) and, while the limits are set, 3 (its pids
// cgroup); nothing else.
func startProc(spec procSpec) (*proc, error) {
	null, err := devNull()
	if err != nil {
		return nil, err
	}
	cwd, err := spec.pipes.get(spec.spawner.runDir())
	if err != nil {
		return nil, err
	}
	lim := planLimits(spec.limits, spec.cgroups)
	script := lim.prefix + wrapScript(spec.command, cwd.path)
	outR, outW, err := outputPipe()
	if err != nil {
		spec.pipes.put(cwd)
		lim.release()
		return nil, err
	}
	// A larger pipe means fewer wake-ups for chatty commands; the kernel may refuse, which is fine.
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, outW.Fd(), syscall.F_SETPIPE_SZ, 1<<20)
	files := []*os.File{null, outW, outW}
	if lim.procs != nil {
		files = append(files, lim.procs) // fd 3, for the shell to join its pids cgroup
	}
	fail := func(err error) (*proc, error) {
		outR.Close()
		outW.Close()
		spec.pipes.put(cwd)
		lim.closeProcs()
		lim.release()
		return nil, err
	}
	path, args := spec.bash, []string{"bash", "-c", script}
	if spec.sandbox != nil {
		var extra []*os.File
		path, args, extra, err = spec.sandbox.Command(spec.bash, script, spec.dir, len(files), cwd.path)
		if err != nil {
			return fail(err)
		}
		files = append(files, extra...)
		defer func() {
			for _, f := range extra {
				f.Close()
			}
		}()
	}
	ch, pid, err := spec.spawner.spawn(path, args, spec.env, spec.dir, files)
	if err != nil {
		return fail(err)
	}
	outW.Close()
	lim.closeProcs()
	p := &proc{child: ch, pgid: pid, out: outR, cwd: cwd, pipes: spec.pipes, exited: ch.Exited(),
		outDone: make(chan struct{}), limits: lim, sandbox: spec.sandbox, mark: spec.mark, hurry: make(chan struct{})}
	go p.read(spec.out, spec.bufs)
	return p, nil
}

// outputPipe makes the pipe a command's output comes through. Only the read end goes to Go's poller (for
// its deadlines); the write end, which is only handed on, stays a plain blocking descriptor, which spares a
// registration and its undoing on every command.
func outputPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("output pipe: %w", err)
	}
	if err := syscall.SetNonblock(p[0], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, nil, fmt.Errorf("output pipe: %w", err)
	}
	return os.NewFile(uintptr(p[0]), "output"), os.NewFile(uintptr(p[1]), "output"), nil
}

// read copies the output to w until the pipe is closed or its read deadline passes, through a buffer of
// bufs.
func (p *proc) read(w io.Writer, bufs *sync.Pool) {
	defer close(p.outDone)
	bp, _ := bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, readBufSize)
		bp = &b
	}
	defer bufs.Put(bp)
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
//
// Sparing the leader means one TERM per member instead of one for the group, and between two of them the
// members run: a child that got its TERM first could die, and the shell waiting for it (`cmd & wait`) go on
// and exit normally before its own TERM came, its handler never run. So the group is stopped first (one
// signal, which reaches a child being forked too) and continued once every member has its TERM pending:
// none of them runs before the last TERM is sent, and each acts on its TERM before anything else.
func (p *proc) terminate() map[int]string {
	if p.sandbox == nil || p.sandbox.Backend() != sandbox.Bubblewrap {
		before := p.members()
		p.signal(syscall.SIGTERM) // the whole group at once, as a terminal would
		return before
	}
	p.signal(syscall.SIGSTOP)
	defer p.signal(syscall.SIGCONT)
	before := p.members()
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
func (p *proc) finish() (cwd string, st exitStatus) {
	select {
	case <-p.exited:
	default:
		p.signal(syscall.SIGKILL)
		<-p.exited
	}
	// Leftovers of the command (`server &`) die with it: a finished command never waits for its children.
	// So do those that left the group (setsid, `timeout`, `set -m`): they are in the command's pids cgroup
	// when there is one, and carry its mark, by which the spawner finds them when the shell is reaped.
	// Looking for the mark among all processes means reading every process's environment, so it is done
	// here only when something still holds the output pipe.
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
	cwd = p.cwd.read()
	ws, known := p.child.Reap(p.mark)
	p.out.Close()
	p.pipes.put(p.cwd)
	return cwd, exitStatus{status: ws, known: known}
}

// exitStatus is how a shell ended; known is false when it could not be learnt (its supervisor died).
type exitStatus struct {
	status syscall.WaitStatus
	known  bool
}

// wrapScript makes the shell report its final directory when it exits, however it exits, by writing it to
// the named pipe at fifo, which it opens only then: a descriptor held open for it would be inherited by
// every program the command runs. The pipe is opened for reading and writing, which never blocks, so a
// shell whose reader is gone still exits. The statements are on the command's first line so that bash's
// line numbers in error messages stay the model's.
func wrapScript(command, fifo string) string {
	return "trap " + shellQuote("builtin pwd 2>/dev/null 1<>"+shellQuote(fifo)) + " EXIT; " + command
}

// shellQuote quotes s as one word for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// retermAfter is when a stop sends its second TERM.
const retermAfter = 100 * time.Millisecond

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
