package jail

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/tools/confine"
	"github.com/warden-cli/warden/tools/supervisor"
)

// Backend names how the jail is built.
type Backend string

const (
	Bubblewrap Backend = "bubblewrap"
	Landlock   Backend = "landlock"
)

// Config is what a jail is built from. Backend, Helper and Secret are required.
type Config struct {
	Backend Backend
	// Bwrap is the path of bwrap, for Bubblewrap; PidNS says that its --unshare-pid works here.
	Bwrap string
	PidNS bool
	// Fallback is the backend to use when the masks are too many for bubblewrap (each is a mount, and
	// mounting grows slower with every one: a thousand take seconds); "" for none, and then the masks
	// beyond bwrapMaxMasks are left out.
	Fallback Backend
	// Helper is Warden's executable, which serves inside the jail as its supervisor: with Landlock it
	// confines itself first (HelperMain). It is opened or started by this name when a jail starts, so
	// it should be hostexec.SelfPath, the running file itself, never a path a command could write.
	Helper string
	// HelperArgs are the arguments that make Helper call HelperMain with what follows them.
	HelperArgs []string
	// Workspace is searched for secrets; Secret judges a path (the permission engine's IsSecretPath, and
	// the paths Read deny and ask rules cover). Hide are more paths the jail hides whole (Warden's own
	// state and settings: transcripts with outputs the person let through once, checkpoints holding a copy
	// of every workspace's files).
	Workspace string
	Secret    func(path string) bool
	Hide      []string
	// Homes are the home directories the jail hides (Homes), but for the workspace, the Trees and the
	// Places in them.
	Homes  []string
	Places []Place
	// Stores are the credential stores of the homes, as the secrets catalogue places them (~/.ssh,
	// ~/.netrc…): a file in other people's code that is one of their files under another name is masked
	// (keys.go).
	Stores []string
	// Trees are more directories searched as the workspace is (the additional directories); Roots are
	// where the paths of the person's Read deny and ask rules begin, which Secret covers too.
	Trees []string
	Roots []string
	// Show are paths commands must see although they are in the directories the jail replaces (/tmp,
	// /run, the homes): the workspace, bash, the helper, when they are there.
	Show []string
	// TmpSize bounds the jail's private /tmp (bytes); 0 means defaultTmpSize.
	TmpSize int64
	// Parent is the directory to make the jail's own directory in; "" means os.TempDir().
	Parent string
	// bound, when set, replaces the bound of every walk of the scan, so that tests reach it.
	bound int
	// listings are the directories of the toolchains' places the scans read, which a Keeper keeps
	// between them; nil reads them afresh.
	listings *listings
}

// helperFD is the supervisor as bubblewrap executes it: the descriptor (6) of the file Warden runs from.
const helperFD = "/proc/self/fd/6"

// bwrapMaxMasks bounds the masks a bubblewrap jail is built with: 400 mounts take about half a second.
const bwrapMaxMasks = 400

// defaultTmpSize is the room a jailed command has to write: enough for sort's spill files and here
// documents, not enough to fill the machine's memory.
const defaultTmpSize = 1 << 30

// startWait bounds the wait for a jail to start serving.
const startWait = 15 * time.Second

// Jail is one running jail: a supervisor inside it that forks the commands.
type Jail struct {
	cl      *supervisor.Client
	dir     string // the jail's own directory on the host
	run     string // where the commands' final-directory pipes are made, inside and outside alike
	tmp     string // the commands' TMPDIR, inside the jail
	masks   Masks
	backend Backend

	mu      sync.Mutex
	running int  // commands started and not yet reaped
	retired bool // a newer jail serves; this one closes when its last command is reaped
	closed  bool
}

// Start builds a jail with masks and waits until it serves.
func Start(cfg Config, masks Masks) (*Jail, error) {
	if cfg.Helper == "" || cfg.Secret == nil {
		return nil, errors.New("jail: no helper or secret judge")
	}
	if n := len(masks.Files) + len(masks.Dirs); cfg.Backend == Bubblewrap && n > bwrapMaxMasks {
		if cfg.Fallback != "" {
			cfg.Backend = cfg.Fallback
		} else {
			masks = masks.fewer(bwrapMaxMasks)
		}
	}
	parent := cfg.Parent
	if parent == "" {
		parent = os.TempDir()
	}
	dir, err := os.MkdirTemp(parent, fmt.Sprintf("warden-jail-%d-", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("jail: %w", err)
	}
	j := &Jail{dir: dir, run: filepath.Join(dir, "run"), masks: masks, backend: cfg.Backend}
	fail := func(err error) (*Jail, error) {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("jail (%s): %w", cfg.Backend, err)
	}
	// The masks: an empty file and an empty directory nobody may open. Bound over a secret, they make
	// reading it fail with "permission denied" rather than look empty.
	if err := os.Mkdir(j.run, 0o700); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mask"), nil, 0); err != nil {
		return fail(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "maskdir"), 0); err != nil {
		return fail(err)
	}
	local, remote, err := supervisor.Socketpair()
	if err != nil {
		return fail(err)
	}
	defer remote.Close()
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	var cmd *exec.Cmd
	switch cfg.Backend {
	case Bubblewrap:
		j.tmp = "/tmp"
		prog, err := confine.ProgramFile(false)
		if err != nil {
			local.Close()
			return fail(err)
		}
		defer prog.Close()
		opts := bwrapArgs(cfg, j, masks)
		if confine.Arch() != 0 {
			opts = append(opts, "--seccomp", "4")
		}
		// The options, one mount per mask, can outgrow what a command line holds: bubblewrap reads
		// them from a pipe.
		list, err := argsFile(opts)
		if err != nil {
			local.Close()
			return fail(err)
		}
		defer list.Close()
		// The supervisor is the file Warden runs from, whatever stands at its path now: bubblewrap
		// executes it through the descriptor it inherits, which names that file even once it was
		// replaced or removed (a path would be looked up afresh, inside the jail's mount namespace).
		// O_PATH: executing needs no read permission, only what running it needs.
		fd, err := unix.Open(cfg.Helper, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			local.Close()
			return fail(fmt.Errorf("opening Warden's own executable: %w", err))
		}
		self := os.NewFile(uintptr(fd), cfg.Helper)
		defer self.Close()
		args := append([]string{"--args", "5", "--", helperFD}, cfg.HelperArgs...)
		cmd = exec.Command(cfg.Bwrap, append(args, "serve")...)
		cmd.ExtraFiles = []*os.File{remote, prog, list, self} // 3, 4, 5, 6
	case Landlock:
		j.tmp = filepath.Join(dir, "tmp")
		if err := os.Mkdir(j.tmp, 0o700); err != nil {
			local.Close()
			return fail(err)
		}
		spec, err := landlockSpecFile(cfg, j, masks)
		if err != nil {
			local.Close()
			return fail(err)
		}
		defer spec.Close()
		args := append(append([]string{}, cfg.HelperArgs...), "serve-landlock")
		cmd = exec.Command(cfg.Helper, args...)
		cmd.ExtraFiles = []*os.File{remote, spec} // 3, 4
	default:
		local.Close()
		return fail(fmt.Errorf("unknown backend %q", cfg.Backend))
	}
	// Nothing of Warden's environment goes in: the API key would be readable in the supervisor's /proc.
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stderr := &limitedWriter{n: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		local.Close()
		return fail(err)
	}
	remote.Close()
	cl, err := supervisor.NewClient(local, cmd.Process)
	if err != nil {
		_ = cmd.Process.Kill()
		return fail(err)
	}
	t := time.NewTimer(startWait)
	defer t.Stop()
	select {
	case <-cl.Ready():
	case <-t.C:
		_ = cmd.Process.Kill()
	}
	if err := cl.Err(); err != nil {
		cl.Close(time.Second)
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fail(errors.New(msg))
	}
	select {
	case <-cl.Ready():
	default:
		cl.Close(time.Second)
		return fail(fmt.Errorf("it did not start within %s", startWait))
	}
	j.cl = cl
	return j, nil
}

// bwrapArgs are bubblewrap's options for the jail: the whole file system read-only, a fresh /tmp (size
// bounded) and /run, fresh /dev and /proc in a pid namespace of its own (so that Warden's /proc/PID/environ,
// which holds the API key, is not there to read), no network, no capabilities, the homes dark (an empty
// file system over each, read-only, with what is shown of them bound back in it), and the masks.
func bwrapArgs(cfg Config, j *Jail, masks Masks) []string {
	size := cfg.TmpSize
	if size <= 0 {
		size = defaultTmpSize
	}
	a := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--cap-drop", "ALL"}
	if cfg.PidNS {
		a = append(a, "--unshare-pid", "--proc", "/proc")
	}
	a = append(a, "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session",
		"--tmpfs", "/run", "--size", strconv.FormatInt(size, 10), "--tmpfs", "/tmp")
	fresh := func(p string) bool { return within("/tmp", p) || within("/run", p) }
	var dark []string
	for _, h := range masks.Dark {
		if !fresh(h) {
			// It holds nothing but the mount points of what is shown in it.
			a = append(a, "--size", strconv.Itoa(darkHomeSize), "--tmpfs", h)
			dark = append(dark, h)
		}
	}
	replaced := func(p string) bool { return fresh(p) || inAny(dark, p) }
	// What is shown is bound back, each once: a bind takes what is below it along.
	var shown []string
	want := append(append(slices.Clone(masks.Shown), cfg.Show...), j.run)
	slices.Sort(want)
	for _, p := range slices.Compact(want) {
		if p != "" && replaced(p) && !inAny(shown, p) && exists(p) {
			a = append(a, "--ro-bind", p, p)
			shown = append(shown, p)
		}
	}
	for _, l := range masks.Links {
		if replaced(l.Path) && !inAny(shown, l.Path) {
			a = append(a, "--symlink", l.Target, l.Path)
		}
	}
	visible := func(p string) bool {
		if within("/proc", p) || within("/dev", p) || within(j.dir, p) {
			return false
		}
		if !replaced(p) {
			return true
		}
		for _, s := range shown {
			if within(s, p) && s != j.run {
				return true
			}
		}
		return false
	}
	for _, d := range masks.Dirs {
		if visible(d) {
			a = append(a, "--ro-bind", filepath.Join(j.dir, "maskdir"), d)
		}
	}
	for _, f := range masks.Files {
		if visible(f) {
			a = append(a, "--ro-bind", filepath.Join(j.dir, "mask"), f)
		}
	}
	// The kernel keyring's listings: /proc/keys names every key a process may view (what it is for, whose
	// it is), key-users who holds how many. The seccomp filter refuses the keyring calls; these are files.
	for _, f := range keyringFiles {
		if exists(f) {
			a = append(a, "--ro-bind", filepath.Join(j.dir, "mask"), f)
		}
	}
	for _, h := range dark {
		a = append(a, "--remount-ro", h)
	}
	a = append(a, "--chdir", "/")
	return a
}

// keyringFiles are /proc's listings of the kernel keyring, masked under bubblewrap. Landlock cannot hide
// them: /proc is granted whole, since the processes a command starts get entries of it only later.
var keyringFiles = []string{"/proc/keys", "/proc/key-users"}

// darkHomeSize bounds the empty file system over a dark home: it holds mount points only, and is
// read-only once they are made.
const darkHomeSize = 1 << 20

// argsFile returns a pipe from which args can be read NUL-separated, as bubblewrap's --args wants them.
func argsFile(args []string) (*os.File, error) {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a)
		b.WriteByte(0)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	go func() {
		_, _ = w.WriteString(b.String())
		w.Close()
	}()
	return r, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Client is the supervisor inside the jail.
func (j *Jail) Client() *supervisor.Client { return j.cl }

// RunDir is where a command's final-directory pipe is made: the same path inside the jail and out.
func (j *Jail) RunDir() string { return j.run }

// TmpDir is the directory jailed commands may write, as they see it; their TMPDIR.
func (j *Jail) TmpDir() string { return j.tmp }

// Backend is how this jail is built.
func (j *Jail) Backend() Backend { return j.backend }

// Masks are what this jail hides.
func (j *Jail) Masks() Masks { return j.masks }

// Start runs a command in the jail, as supervisor.Client.Start does. The jail stays up while the command
// runs, even after a newer one replaced it.
func (j *Jail) Start(path string, args, env []string, dir string, files []*os.File) (*Child, error) {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil, errors.New("jail: closed")
	}
	j.running++
	j.mu.Unlock()
	ch, err := j.cl.Start(path, args, env, dir, files)
	if err != nil {
		j.done()
		return nil, err
	}
	return &Child{Child: ch, j: j}, nil
}

// Child is a command running in a jail.
type Child struct {
	*supervisor.Child
	j    *Jail
	once sync.Once
}

// Reap reaps the command (supervisor.Child.Reap) and lets a retired jail go once it was its last.
func (c *Child) Reap(mark string) (syscall.WaitStatus, bool) {
	ws, known := c.Child.Reap(mark)
	c.once.Do(c.j.done)
	return ws, known
}

func (j *Jail) done() {
	j.mu.Lock()
	j.running--
	last := j.retired && j.running == 0
	j.mu.Unlock()
	if last {
		go j.Close()
	}
}

// retire marks the jail as replaced: it closes when the commands still running in it are done.
func (j *Jail) retire() {
	j.mu.Lock()
	j.retired = true
	idle := j.running == 0
	j.mu.Unlock()
	if idle {
		go j.Close()
	}
}

// Close stops the jail and everything still running in it, and removes its directory.
func (j *Jail) Close() {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return
	}
	j.closed = true
	j.mu.Unlock()
	j.cl.Close(startWait)
	os.RemoveAll(j.dir)
}

// Alive reports whether the jail's supervisor still serves.
func (j *Jail) Alive() bool { return j.cl.Err() == nil }

// limitedWriter keeps the first n bytes written to it, for the error when a jail does not start.
type limitedWriter struct {
	mu sync.Mutex
	b  strings.Builder
	n  int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n > 0 {
		k := min(len(p), l.n)
		l.b.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

func (l *limitedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
