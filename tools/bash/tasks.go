package bash

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/jail"
	"github.com/warden-cli/warden/tools/sandbox"
	"github.com/warden-cli/warden/tools/supervisor"
)

// Tasks runs the shell commands of a session and keeps track of every process it started: the foreground
// calls (so that the person can send one to the background), the background tasks the model reads with
// bash_output, and the means to stop them all when Warden exits. Use one per session; it is safe for
// concurrent use.
type Tasks struct {
	// MaxBackground limits how many background tasks may run at once; zero means 16.
	MaxBackground int
	// Grace is how long a command that is being stopped gets between TERM and KILL; zero means 2 s.
	Grace time.Duration
	// Shell is the bash binary: an absolute path, or a name looked up with the Env's Programs (never in
	// the workspace: a poisoned PATH must not choose the shell every command runs in); empty means "bash".
	Shell string
	// Helper is Warden's own executable, which serves as the session's supervisor when started with the
	// helper's marker (sandbox.HelperMain). Empty, commands are started by Warden itself, and those a
	// command left running outlive a Warden killed with SIGKILL until the next one starts.
	Helper string
	// JailBackend forces one backend for the read-only jail; empty picks bubblewrap when it works, else
	// Landlock.
	JailBackend jail.Backend

	mu     sync.Mutex
	closed bool
	// quit is closed when closed is set, for the waits that must end then.
	quit     chan struct{}
	nextID   int
	starting int // background tasks being started: they hold a slot before they run
	// startingFg are foreground calls whose process is being started; wantBackground are those of them the
	// person sent to the background meanwhile.
	startingFg, wantBackground map[string]bool
	fg                         map[string]*job // running foreground calls, by call id
	bg                         map[string]*job // background tasks, running or finished, by task id
	bgOrder                    []string        // background task ids, oldest first
	bashPath                   string
	instance                   string // the value of instanceVar in every command's environment
	calls                      atomic.Int64

	// The supervisor, started once (Prewarm or the first command) and again if it died; supErr is why it
	// could not be had, after which commands are started directly.
	supMu  sync.Mutex
	sup    *supervisor.Client
	supErr error
	runMu  sync.Mutex
	run    string // the session's directory for final-directory pipes; "" until made
	// jails keeps the read-only jail (wall.go); wallErr is why there is none.
	jailMu  sync.Mutex
	jails   *jail.Keeper
	wallErr error

	onEnd    []func(TaskEnd) // see OnEnd
	watchers sync.WaitGroup

	// What the commands reuse, kept here rather than by the package so that two sessions in one process
	// (tests, sub-agents' own Tasks) share nothing: the answers of the sandbox's and the jail's probes,
	// idle final-directory pipes, emptied pids cgroups and the buffers output is read into.
	probes  *sandbox.Prober // made by initLocked
	pipes   cwdPipes
	cgroups cgroupPool
	bufs    sync.Pool
}

// NewTasks returns an empty task manager with the default limits. The zero Tasks is ready to use too.
func NewTasks() *Tasks {
	t := &Tasks{}
	t.mu.Lock()
	t.initLocked()
	t.mu.Unlock()
	return t
}

func (t *Tasks) initLocked() {
	if t.fg != nil {
		return
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	t.fg, t.bg = map[string]*job{}, map[string]*job{}
	t.quit = make(chan struct{})
	t.startingFg, t.wantBackground = map[string]bool{}, map[string]bool{}
	t.instance = fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b))
	t.probes = sandbox.NewProber()
}

// prober is what finds out, once, which backends of the sandbox and the jail work here.
func (t *Tasks) prober() *sandbox.Prober {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.initLocked()
	return t.probes
}

// ProbeSandbox is sandbox.Probe answered by the prober the Tasks' commands use, so that the first
// sandboxed command need not probe again.
func (t *Tasks) ProbeSandbox(cfg sandbox.Config, programs *hostexec.Finder) (sandbox.Info, error) {
	return t.prober().Probe(cfg, programs)
}

const (
	defaultMaxBackground = 16
	defaultGrace         = 2 * time.Second
	// keepFinished bounds how many finished background tasks are remembered for bash_output.
	keepFinished = 64
)

// Stop reasons.
const (
	stopTimeout   = "timeout"
	stopInterrupt = "interrupt"
	stopKill      = "kill_bash"
	stopShutdown  = "shutdown"
	stopUser      = "user"
)

// job is one command: its process, its output and, once it is done, how it ended.
type job struct {
	command string
	started time.Time
	proc    *proc
	out     *capture

	done      chan struct{} // closed once the process is reaped and the output complete
	killOnce  sync.Once
	hurryOnce sync.Once
	killCh    chan struct{}
	killWhy   string
	promoteCh chan struct{}
	promoteMu sync.Once

	// Set before done is closed.
	stopped string // why Warden stopped it; "" if it ended on its own
	cwd     string
	status  exitStatus
	ended   time.Time

	// jail is the jail the command ran in, nil if none; after runs once it is done.
	jail  *jail.Jail
	after func()

	// Background tasks only, guarded by Tasks.mu.
	id   string
	read cursor // what bash_output has returned so far
}

// kill asks the job to stop; the first reason given is the one reported. Asked again while it is still
// stopping (an interrupt during a timeout's grace period), it kills at once.
func (j *job) kill(why string) {
	first := false
	j.killOnce.Do(func() {
		first = true
		j.killWhy = why
		close(j.killCh)
	})
	if !first {
		j.hurryOnce.Do(func() { close(j.proc.hurry) })
	}
}

func (j *job) isDone() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// supervise waits for the shell to exit or for a request to stop it, then cleans up after it.
func (j *job) supervise(grace time.Duration) {
	select {
	case <-j.proc.exited:
	case <-j.killCh:
		j.stopped = j.killWhy
		j.proc.stop(grace)
	}
	j.cwd, j.status = j.proc.finish()
	j.out.Finish()
	j.ended = time.Now()
	if j.after != nil {
		j.after()
	}
	close(j.done)
}

// start runs command in the session's directory: in the read-only jail if it was judged read-only
// (jailed) and the jail is on, else in the sandbox if the settings ask for one, unless the call asked to
// run outside both (unsandboxed). name names the spool file; live receives output as it comes.
// The note, if any, is for the model (the directory had to change).
func (t *Tasks) start(env *tools.Env, command, name string, unsandboxed, jailed bool, live func(string)) (*job, string, error) {
	bash, err := t.shell(env)
	if err != nil {
		return nil, "", err
	}
	t.mu.Lock()
	instance := t.instance
	t.mu.Unlock()
	cwd, note := env.Cwd(), ""
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		note = fmt.Sprintf("[the working directory %s no longer exists; the command ran in the workspace %s]",
			cwd, env.Workspace)
		cwd = env.Workspace
		env.SetCwd(cwd)
	}
	childEnv := append(env.ChildEnv(cwd), instanceVar+"="+instance)
	var sp spawner
	var confined *sandbox.Plan
	var cell *jail.Jail
	if jailed && env.Bash.Jail && !unsandboxed {
		if k := t.keeper(env); k != nil {
			// Fail closed: a jail that works here but cannot be had now stops the command.
			if cell, err = k.Get(); err != nil {
				return nil, "", fmt.Errorf("%v. The command did not run; if it must, run it again with "+
					"\"dangerously_unsandboxed\": true, and the user will be asked", err)
			}
			sp = &jailSpawner{j: cell}
			childEnv = cell.Env(childEnv)
			note = joinNotes(note, k.Untold(cell))
		}
	}
	if sp == nil {
		if sp, err = t.spawner(); err != nil {
			return nil, "", err
		}
	}
	if cell == nil && env.Bash.Sandbox.Enabled && !unsandboxed {
		// Fail closed: a sandbox that was asked for and cannot be had stops the command.
		if confined, err = t.prober().Plan(env.Bash.Sandbox, env.Finder(), env.Workspace); err != nil {
			return nil, "", fmt.Errorf("%v. The command did not run", err)
		}
	}
	out := newCapture(contentBudget(env), spoolDir(env), name, live)
	mark := fmt.Sprintf("%s=%s.%d", callVar, instance, t.calls.Add(1))
	p, err := startProc(procSpec{bash: bash, command: command, dir: cwd, env: append(childEnv, mark), out: out,
		limits: env.Bash.Limits, sandbox: confined, mark: mark, spawner: sp, pipes: &t.pipes, cgroups: &t.cgroups,
		bufs: &t.bufs})
	if err != nil {
		return nil, "", fmt.Errorf("starting bash: %w", err)
	}
	j := &job{command: command, started: time.Now(), proc: p, out: out, done: make(chan struct{}),
		killCh: make(chan struct{}), promoteCh: make(chan struct{}), jail: cell}
	if cell == nil {
		// A command outside the jail may write a secret file the jail does not mask yet.
		j.after = func() { t.SecretsChanged() }
	}
	go j.supervise(t.grace())
	return j, note, nil
}

// shell is the path of the bash that runs every command, found once with env's Programs.
func (t *Tasks) shell(env *tools.Env) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.initLocked()
	if t.closed {
		return "", errShuttingDown
	}
	if t.bashPath != "" {
		return t.bashPath, nil
	}
	name := t.Shell
	if name == "" {
		name = "bash"
	}
	if filepath.IsAbs(name) {
		if fi, err := os.Stat(name); err != nil || fi.IsDir() {
			return "", fmt.Errorf("cannot run commands: bash was not found at %s; install bash or name another", name)
		}
		t.bashPath = name
		return name, nil
	}
	p, err := env.Finder().Find(name)
	if err != nil {
		return "", fmt.Errorf("cannot run commands: %v; install bash or put it on PATH outside the workspace", err)
	}
	t.bashPath = p.Path
	return p.Path, nil
}

func (t *Tasks) grace() time.Duration {
	if t.Grace > 0 {
		return t.Grace
	}
	return defaultGrace
}

func (t *Tasks) maxBackground() int {
	if t.MaxBackground > 0 {
		return t.MaxBackground
	}
	return defaultMaxBackground
}

// runningLocked counts the background tasks still running.
func (t *Tasks) runningLocked() int {
	n := 0
	for _, j := range t.bg {
		if !j.isDone() {
			n++
		}
	}
	return n
}

// Running is the number of background tasks still running, for the status line.
func (t *Tasks) Running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runningLocked()
}

// TaskInfo describes a background task for display.
type TaskInfo struct {
	ID       string
	Command  string
	Started  time.Time
	Running  bool
	ExitCode *int   // when it exited
	Signal   string // when a signal ended it
}

// List describes the background tasks, oldest first.
func (t *Tasks) List() []TaskInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]TaskInfo, 0, len(t.bgOrder))
	for _, id := range t.bgOrder {
		j := t.bg[id]
		info := TaskInfo{ID: id, Command: j.command, Started: j.started, Running: !j.isDone()}
		if !info.Running {
			info.ExitCode, info.Signal = exitOf(j.status)
		}
		out = append(out, info)
	}
	return out
}

// Background moves the running foreground call with this id to the background: its bash call returns at
// once with a task id, and the command keeps running. It reports whether there was such a call and room for
// another background task.
func (t *Tasks) Background(callID string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.initLocked()
	if t.closed || t.runningLocked()+t.starting >= t.maxBackground() {
		return false
	}
	j := t.fg[callID]
	if j == nil {
		if !t.startingFg[callID] {
			return false
		}
		// The person saw the call start, but its process is not running yet: it goes to the background
		// as soon as it is.
		t.wantBackground[callID] = true
		return true
	}
	j.promoteMu.Do(func() { close(j.promoteCh) })
	return true
}

// KillAll stops every command Warden started, foreground and background, and returns once they are gone.
// No command starts afterwards. Call it when Warden exits, also on SIGTERM and SIGHUP.
func (t *Tasks) KillAll() {
	t.mu.Lock()
	t.initLocked()
	if !t.closed {
		close(t.quit) // a supervisor still starting is stopped, not waited for
	}
	t.closed = true
	var jobs []*job
	for _, j := range t.fg {
		jobs = append(jobs, j)
	}
	for _, j := range t.bg {
		jobs = append(jobs, j)
	}
	t.mu.Unlock()
	for _, j := range jobs {
		j.kill(stopShutdown)
	}
	for _, j := range jobs {
		<-j.done
	}
	t.watchers.Wait() // no task end is reported once KillAll has returned
	sweep(instanceVar+"="+t.instance, 0, syscall.SIGKILL)
	t.cgroups.close()
	t.jailMu.Lock()
	jails := t.jails
	t.jails = nil
	t.jailMu.Unlock()
	t.supMu.Lock()
	sup := t.sup
	t.sup = nil
	t.supMu.Unlock()
	t.runMu.Lock()
	run := t.run
	t.run = ""
	t.runMu.Unlock()
	// The jail's supervisor and the session's are told to go at once, and waited for together.
	var closing sync.WaitGroup
	if jails != nil {
		closing.Go(jails.Close)
	}
	if sup != nil {
		// Everything was stopped above; the supervisor stops whatever slipped through, and exits.
		sup.Close(supervisorWait)
	}
	closing.Wait()
	t.pipes.closeAll()
	if run != "" {
		os.RemoveAll(run)
	}
}

// Prewarm starts the read-only jail if env has it on, and then the session's supervisor, in the
// background, so that the first command does not wait for them. Call it once the screen is up: each costs
// a start of Warden's executable. The jail comes first and alone: a request's first commands are mostly
// read-only ones, which wait for it, and started side by side the two starts take each other's CPU. A
// command that needs the supervisor sooner starts it itself; a run that ends before it is up (headless,
// read-only commands only) stops it rather than wait for it.
func (t *Tasks) Prewarm(env *tools.Env) {
	go func() {
		if env.Bash.Jail {
			if k := t.keeper(env); k != nil {
				_, _ = k.Get()
			}
		}
		_, _ = t.spawner()
	}()
}

// closed reports whether KillAll has begun.
func (t *Tasks) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// runDir returns the session's directory for final-directory pipes, made on first use.
func (t *Tasks) runDir() (string, error) {
	t.runMu.Lock()
	defer t.runMu.Unlock()
	if t.isClosed() {
		return "", errShuttingDown
	}
	if t.run == "" {
		removeStaleRunDirs()
		dir, err := os.MkdirTemp("", fmt.Sprintf("warden-run-%d-", os.Getpid()))
		if err != nil {
			return "", fmt.Errorf("making Warden's run directory: %w", err)
		}
		t.run = dir
	}
	return t.run, nil
}

// spawner returns what starts the next command: the supervisor, started if need be, or Warden itself
// when there is none.
func (t *Tasks) spawner() (spawner, error) {
	run, err := t.runDir()
	if err != nil {
		return nil, err
	}
	// KillAll takes supMu after it marks the tasks closed, so a supervisor started here is either seen
	// by it or never started.
	t.supMu.Lock()
	defer t.supMu.Unlock()
	if t.isClosed() {
		return nil, errShuttingDown
	}
	if t.sup != nil && t.sup.Err() != nil {
		t.sup = nil // it died (killed, or out of memory); its commands went with it
	}
	if t.sup == nil && t.supErr == nil && t.Helper != "" {
		t.mu.Lock()
		t.initLocked()
		quit := t.quit
		t.mu.Unlock()
		t.sup, t.supErr = launchSupervisor(t.Helper, quit)
		if errors.Is(t.supErr, errShuttingDown) {
			return nil, t.supErr
		}
	}
	if t.sup != nil {
		return &supervised{cl: t.sup, dir: run}, nil
	}
	return &direct{dir: run}, nil
}

// removeStaleRunDirs removes the run and jail directories of Wardens that are gone (killed, so they could
// not).
func removeStaleRunDirs() {
	runs, _ := filepath.Glob(filepath.Join(os.TempDir(), "warden-run-*-*"))
	jails, _ := filepath.Glob(filepath.Join(os.TempDir(), "warden-jail-*-*"))
	for _, d := range append(runs, jails...) {
		var pid int
		name := strings.Replace(filepath.Base(d), "warden-jail-", "warden-run-", 1)
		if _, err := fmt.Sscanf(name, "warden-run-%d-", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			os.RemoveAll(d)
		}
	}
}

// SupervisorProblem says why commands are started by Warden itself rather than by the supervisor, or "".
func (t *Tasks) SupervisorProblem() string {
	t.supMu.Lock()
	defer t.supMu.Unlock()
	if t.supErr != nil {
		return t.supErr.Error()
	}
	return ""
}

// instanceVar marks every process started through one Tasks, so that those that left their process group
// (setsid, daemons) can still be found when Warden exits; callVar marks the processes of one command, so
// that they can be found when it ends.
const (
	instanceVar = "WARDEN_INSTANCE"
	callVar     = "WARDEN_CALL"
)

// SweepOrphans kills the processes left running by Wardens that are gone: one killed with SIGKILL cannot
// clean up after itself, so the next one does, at start. A process is an orphan when its instanceVar names
// a Warden pid that no longer exists (a reused pid spares it, which errs on the safe side). It returns how
// many it killed.
func SweepOrphans() int {
	prefix := []byte(instanceVar + "=")
	killed := 0
	eachProcess(func(pid int, dir string) {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil {
			return
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			v, ok := bytes.CutPrefix(kv, prefix)
			if !ok {
				continue
			}
			owner, _, _ := bytes.Cut(v, []byte("-"))
			if _, err := strconv.Atoi(string(owner)); err != nil {
				break
			}
			if _, err := os.Stat("/proc/" + string(owner)); os.IsNotExist(err) {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
			break
		}
	})
	return killed
}

// eachProcess calls f with every process on the machine but Warden itself, and its /proc directory.
func eachProcess(f func(pid int, dir string)) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid != self {
			f(pid, "/proc/"+e.Name())
		}
	}
}

// sweep sends sigs to every process of ours whose environment holds mark, except those in process group
// spare (0 spares none). Processes that cleared their environment are out of reach; that takes a
// deliberate effort.
func sweep(mark string, spare int, sigs ...syscall.Signal) {
	want := []byte("\x00" + mark + "\x00")
	eachProcess(func(pid int, dir string) {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), want) {
			return
		}
		if spare != 0 {
			if pg, err := syscall.Getpgid(pid); err == nil && pg == spare {
				return
			}
		}
		for _, sig := range sigs {
			_ = syscall.Kill(pid, sig)
		}
	})
}

// addBackgroundLocked registers a background task under id, taken from nextID.
func (t *Tasks) addBackgroundLocked(j *job, id string) {
	j.id = id
	t.bg[j.id] = j
	t.bgOrder = append(t.bgOrder, j.id)
	t.watchers.Go(func() { t.watchEnd(j) })
	// Forget the oldest finished tasks beyond keepFinished; their files stay in the session directory.
	finished := 0
	for i := len(t.bgOrder) - 1; i >= 0; i-- {
		id := t.bgOrder[i]
		if t.bg[id].isDone() {
			finished++
			if finished > keepFinished {
				delete(t.bg, id)
				t.bgOrder = slices.Delete(t.bgOrder, i, i+1)
			}
		}
	}
}

// lookup finds a background task, or explains which exist.
func (t *Tasks) lookup(id string) (*job, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if j, ok := t.bg[strings.TrimSpace(id)]; ok {
		return j, nil
	}
	if len(t.bgOrder) == 0 {
		return nil, fmt.Errorf("there is no background task %q; no background tasks were started", id)
	}
	var known []string
	for _, k := range t.bgOrder {
		state := "running"
		if t.bg[k].isDone() {
			state = "finished"
		}
		known = append(known, k+" ("+state+")")
	}
	return nil, fmt.Errorf("there is no background task %q; the tasks are: %s", id, strings.Join(known, ", "))
}

// exitOf reads how a process ended: its exit code, or the signal that killed it.
func exitOf(st exitStatus) (*int, string) {
	switch {
	case !st.known:
		return nil, ""
	case st.status.Signaled():
		return nil, signalName(st.status.Signal())
	}
	code := st.status.ExitStatus()
	return &code, ""
}

// insideWorkspace reports whether dir is the workspace or below it. The paths are compared with their
// symbolic links resolved, when they can be: a shell's directory is its logical path, and ws/link may be
// anywhere. Only a path that no longer resolves is judged as written.
func insideWorkspace(workspace, dir string) bool {
	within := func(root, d string) bool {
		rel, err := filepath.Rel(root, d)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	if workspace == "" {
		return true
	}
	rw, err1 := filepath.EvalSymlinks(workspace)
	rd, err2 := filepath.EvalSymlinks(dir)
	if err1 == nil && err2 == nil {
		return within(rw, rd)
	}
	return within(workspace, dir)
}
