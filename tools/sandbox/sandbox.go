package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/secrets"
	"github.com/warden-cli/warden/tools/confine"
)

// Config says whether and how commands are confined.
type Config struct {
	Enabled bool
	// Network lets commands reach the network. Off, they have none (bubblewrap) or no TCP (Landlock).
	Network bool
	// Writable lists more paths commands may write, besides the workspace and the temporary directories.
	// Relative paths are taken against the workspace, "~/" against the home directory.
	Writable []string
	// Backend forces one backend; empty picks bubblewrap when it works, else Landlock.
	Backend Backend
	// Helper is the executable that runs HelperMain when given the helper's marker (Warden itself);
	// empty means hostexec.SelfPath. Only Landlock uses it.
	Helper string
}

// Backend names a way of confining commands.
type Backend string

// The backends.
const (
	Bubblewrap Backend = "bubblewrap"
	Landlock   Backend = "landlock"
)

// Info says how commands will be confined, for the status line.
type Info struct {
	Backend Backend
	// Notes are limitations of this backend on this machine, one short sentence each.
	Notes []string
}

// String is the short form for a status line: "sandbox: bubblewrap, no network".
func (s Info) String() string {
	return "sandbox: " + string(s.Backend)
}

// Probe finds out which backend would confine commands with cfg (Enabled is not looked at); bwrap is
// found with programs. The error, when no backend works, explains why in a sentence the person can act
// on. It probes afresh: a session keeps its answers in its Prober.
func Probe(cfg Config, programs *hostexec.Finder) (Info, error) {
	return NewProber().Probe(cfg, programs)
}

// Probe is the package's Probe, answered from what p found before when it can.
func (p *Prober) Probe(cfg Config, programs *hostexec.Finder) (Info, error) {
	b, err := p.probe(cfg, programs)
	if err != nil {
		return Info{}, err
	}
	info := Info{Backend: b.backend}
	switch b.backend {
	case Bubblewrap:
		if !b.pidNS {
			info.Notes = append(info.Notes, "no pid namespace (bwrap --unshare-pid does not work here)")
		}
		if confine.Arch() == 0 {
			info.Notes = append(info.Notes, "no seccomp filter on "+runtime.GOARCH+": Unix sockets in writable paths are not refused")
		}
	case Landlock:
		info.Notes = append(info.Notes, fmt.Sprintf("Landlock ABI %d", b.abi),
			"/tmp is shared with the machine",
			"files cannot be created directly in the workspace root (nor in a writable directory above it) "+
				"while it has .git or .warden")
		if confine.Arch() == 0 {
			info.Notes = append(info.Notes, "no seccomp filter on "+runtime.GOARCH+": Unix sockets and, with the network off, UDP are not refused")
		}
	}
	return info, nil
}

// backendProbe is what probing found.
type backendProbe struct {
	backend Backend
	bwrap   hostexec.Program
	pidNS   bool   // --unshare-pid --proc /proc works
	helper  string // path of the Landlock helper
	abi     int
}

// Prober finds out which backends work here and keeps the answers, since each probe runs bubblewrap or
// Warden's own executable: a command must not wait for one. Its answers belong to one session (package
// bash's Tasks keeps one), so that two sessions, or two tests, never share what one of them found. Make
// one with NewProber; it is safe for concurrent use.
type Prober struct {
	// mu is held across a probe, so that calls made at once run it once.
	mu      sync.Mutex
	answers *cache.LRU[string, probeAnswer]
}

// answersKept bounds the answers a Prober keeps: one per combination of backend, network, helper and the
// bwrap found, of which a session uses two or three.
const answersKept = 16

// NewProber returns a Prober that has found nothing yet.
func NewProber() *Prober {
	return &Prober{answers: cache.New[string, probeAnswer](answersKept)}
}

type probeAnswer struct {
	b   backendProbe
	err error
}

// probe is Probe's answer. The answer is kept by the bwrap that was found: this session's, once its PATH
// changed, may find another.
func (p *Prober) probe(cfg Config, programs *hostexec.Finder) (backendProbe, error) {
	bwrap, findErr := programs.Find("bwrap")
	key := fmt.Sprintf("%s|%v|%s|%s", cfg.Backend, cfg.Network, cfg.Helper, bwrap.Path)
	if findErr != nil {
		key += "|" + findErr.Error() // which programs were passed over, for the message
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.answers.Get(key); ok {
		return a.b, a.err
	}
	b, err := probeNow(cfg, bwrap, findErr)
	p.answers.Put(key, probeAnswer{b, err})
	return b, err
}

// Bwrap is the bubblewrap found to work here, for the read-only jail, which builds its own.
type Bwrap struct {
	// Path is the bwrap executable.
	Path string
	// PidNS says that it can give a command a pid namespace of its own (--unshare-pid --proc /proc).
	PidNS bool
}

// Bubblewrap finds bwrap with programs and tells whether it works here, as Probe would with the
// bubblewrap backend and no network.
func (p *Prober) Bubblewrap(programs *hostexec.Finder) (Bwrap, error) {
	b, err := p.probe(Config{Backend: Bubblewrap}, programs)
	if err != nil {
		return Bwrap{}, err
	}
	return Bwrap{Path: b.bwrap.Path, PidNS: b.pidNS}, nil
}

func probeNow(cfg Config, bwrap hostexec.Program, findErr error) (backendProbe, error) {
	var why []string
	if cfg.Backend == "" || cfg.Backend == Bubblewrap {
		b, err := probeBwrap(cfg.Network, bwrap, findErr)
		if err == nil {
			return b, nil
		}
		why = append(why, err.Error())
	}
	if cfg.Backend == "" || cfg.Backend == Landlock {
		b, err := probeLandlock(cfg)
		if err == nil {
			return b, nil
		}
		why = append(why, err.Error())
	}
	if len(why) == 0 {
		return backendProbe{}, fmt.Errorf("unknown sandbox backend %q: use bubblewrap or landlock", cfg.Backend)
	}
	return backendProbe{}, fmt.Errorf("no sandbox is available: %s", strings.Join(why, "; "))
}

func probeBwrap(network bool, bwrap hostexec.Program, findErr error) (backendProbe, error) {
	if findErr != nil {
		return backendProbe{}, fmt.Errorf("bubblewrap cannot be used: %v (apt install bubblewrap)", findErr)
	}
	try := func(pidNS bool) error {
		args := bwrapBase(network, pidNS)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// Nothing of Warden's environment: bwrap and the shell it starts need none of it.
		cmd := hostexec.Command(ctx, bwrap, nil)
		if confine.Arch() != 0 { // as every command will have it
			f, err := confine.ProgramFile(network)
			if err != nil {
				return err
			}
			defer f.Close()
			cmd.ExtraFiles = []*os.File{f}
			args = append(args, "--seccomp", "3")
		}
		cmd.Args = append(append(cmd.Args, args...), "--", "/bin/sh", "-c", "exit 0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
		}
		return nil
	}
	if try(true) == nil {
		return backendProbe{backend: Bubblewrap, bwrap: bwrap, pidNS: true}, nil
	}
	if err := try(false); err != nil {
		return backendProbe{}, fmt.Errorf("bubblewrap does not work here (%v)", err)
	}
	return backendProbe{backend: Bubblewrap, bwrap: bwrap}, nil
}

func probeLandlock(cfg Config) (backendProbe, error) {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return backendProbe{}, errors.New("this kernel does not enable Landlock")
	}
	if !cfg.Network && abi < 4 {
		return backendProbe{}, fmt.Errorf("this kernel's Landlock (ABI %d) cannot block the network (needs ABI 4, Linux 6.7); "+
			"allow the network in the sandbox settings or install bubblewrap", abi)
	}
	helper := cfg.Helper
	if helper == "" {
		if helper, err = hostexec.Self(); err != nil {
			return backendProbe{}, fmt.Errorf("the Landlock sandbox needs Warden's own executable: %v", err)
		}
	}
	// The helper must answer the marker; a binary without the hook would do something else entirely.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := hostexec.Command(ctx, hostexec.Program{Name: "warden-sandbox", Path: helper}, nil, HelperMarker, "probe").Output()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		return backendProbe{}, fmt.Errorf("the sandbox helper %s does not answer (%v)", helper, err)
	}
	return backendProbe{backend: Landlock, helper: helper, abi: abi}, nil
}

// bwrapBase are the options every sandboxed command gets, before the paths.
func bwrapBase(network, pidNS bool) []string {
	// Run as root, bubblewrap keeps every capability unless told otherwise, and with CAP_SYS_ADMIN a
	// command could remount the read-only root writable.
	a := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--cap-drop", "ALL"}
	if pidNS {
		a = append(a, "--unshare-pid", "--proc", "/proc")
	}
	a = append(a, "--tmpfs", "/tmp", "--die-with-parent", "--unshare-ipc")
	if !network {
		// A read-only mount does not stop connect() on a Unix socket, and daemons keep theirs in /run
		// (docker.sock, the user's D-Bus and agents under /run/user): without the network they are hidden
		// too. Abstract sockets belong to the network namespace and go with it.
		a = append(a, "--unshare-net", "--tmpfs", "/run")
	}
	return a
}

// Plan is how one command is confined.
type Plan struct {
	probe    backendProbe
	network  bool
	writable []string // existing absolute paths, workspace included
	readOnly []string // existing protected paths inside writable ones (protectedNames)
}

// protectedNames are the entries of the workspace's top folder that stay read-only in the sandbox, by
// their lower-case names: what is run or obeyed outside it later, without asking (git's hooks and
// configuration, Warden's settings, Claude Code's hooks, .mcp.json, .envrc, an editor's tasks, a package
// manager's configuration: secrets.ProjectEntries). A place below the top folder (.vscode/tasks.json)
// keeps its whole top-level entry: a command allowed to rename .vscode could put another folder, with
// another tasks.json, in its place. Those that exist are bound read-only, found whatever their case, as a
// case-insensitive file system or an editor opens them; one a command creates shows among the call's
// changes.
var protectedNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range secrets.ProjectEntries() {
		top, _, _ := strings.Cut(n, "/")
		m[strings.ToLower(top)] = true
	}
	return m
}()

// Plan resolves which paths a command may write, with the backend cfg gets here; bwrap is found with
// programs.
func (pr *Prober) Plan(cfg Config, programs *hostexec.Finder, workspace string) (*Plan, error) {
	b, err := pr.probe(cfg, programs)
	if err != nil {
		return nil, err
	}
	p := &Plan{probe: b, network: cfg.Network}
	home, _ := os.UserHomeDir()
	add := func(path string) {
		if path == "" {
			return
		}
		if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
			path = filepath.Join(home, rest)
		} else if !filepath.IsAbs(path) {
			path = filepath.Join(workspace, path)
		}
		path = filepath.Clean(path)
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		} else {
			return // a path that does not exist cannot be bound, and need not be
		}
		if !slices.Contains(p.writable, path) {
			p.writable = append(p.writable, path)
		}
	}
	add(workspace)
	if t := os.Getenv("TMPDIR"); t != "" {
		add(t)
	}
	add(os.TempDir())
	for _, w := range cfg.Writable {
		add(w)
	}
	if ws, err := filepath.EvalSymlinks(workspace); err == nil {
		entries, _ := os.ReadDir(ws)
		for _, e := range entries {
			// A link is left out: a mount cannot be put on a link, only on what it leads to, which may
			// be missing (the sandbox would not start) or outside the workspace.
			if protectedNames[strings.ToLower(e.Name())] && e.Type()&os.ModeSymlink == 0 {
				p.readOnly = append(p.readOnly, filepath.Join(ws, e.Name()))
			}
		}
	}
	return p, nil
}

// Backend is the backend that confines the command.
func (p *Plan) Backend() Backend { return p.probe.backend }

// Command returns the program and arguments that run `bash -c script` confined, and files the program
// must inherit, which will be its descriptors from fd on (the caller closes its copies once started).
// fifo is the named pipe the shell reports its final directory through, which it must be able to open.
func (p *Plan) Command(bash, script, dir string, fd int, fifo string) (string, []string, []*os.File, error) {
	switch p.probe.backend {
	case Bubblewrap:
		a := []string{"bwrap"}
		a = append(a, bwrapBase(p.network, p.probe.pidNS)...)
		var files []*os.File
		if confine.Arch() != 0 {
			// The same filter as the Landlock helper's; bwrap reads it from the descriptor and applies
			// it just before it execs bash.
			f, err := confine.ProgramFile(p.network)
			if err != nil {
				return "", nil, nil, err
			}
			files = append(files, f)
			a = append(a, "--seccomp", strconv.Itoa(fd))
		}
		for _, w := range p.writable {
			if w == "/tmp" {
				continue // a fresh one already
			}
			a = append(a, "--bind", w, w)
		}
		for _, r := range p.readOnly {
			// -try: an entry removed since the plan was made is nothing to keep.
			a = append(a, "--ro-bind-try", r, r)
		}
		// A named pipe opens for writing on a read-only mount; under a fresh /tmp it must be shown again.
		a = append(a, "--ro-bind", filepath.Dir(fifo), filepath.Dir(fifo))
		a = append(a, "--chdir", dir, "--", bash, "-c", script)
		return p.probe.bwrap.Path, a, files, nil
	case Landlock:
		rules := p.landlockSpec()
		rules.WriteFiles = append(rules.WriteFiles, fifo)
		spec, err := json.Marshal(rules)
		if err != nil {
			return "", nil, nil, err
		}
		return p.probe.helper, []string{"warden-sandbox", HelperMarker, string(spec), bash, "-c", script}, nil, nil
	}
	return "", nil, nil, fmt.Errorf("unknown sandbox backend %q", p.probe.backend)
}

// landlockSpec lists the Landlock rules. A Landlock right granted on a directory holds for everything
// below it, so a writable directory that holds a protected path (at any depth) is granted entry by entry
// instead, down the way to the protected path, which is left out.
func (p *Plan) landlockSpec() helperSpec {
	s := helperSpec{Network: p.network, WriteFiles: []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty"},
		WriteDirs: []string{"/dev/shm"}}
	holds := func(dir string) (self, below bool) {
		for _, r := range p.readOnly {
			if r == dir {
				self = true
			} else if strings.HasPrefix(r, dir+"/") || dir == "/" {
				below = true
			}
		}
		return self, below
	}
	var grant func(path string, isDir bool)
	grant = func(path string, isDir bool) {
		self, below := holds(path)
		switch {
		case self:
		case !isDir:
			s.WriteFiles = append(s.WriteFiles, path)
		case !below:
			s.WriteDirs = append(s.WriteDirs, path)
		default:
			entries, _ := os.ReadDir(path)
			for _, e := range entries {
				// Symbolic links are left out: a rule follows them, and would grant their target.
				if e.IsDir() || e.Type().IsRegular() {
					grant(filepath.Join(path, e.Name()), e.IsDir())
				}
			}
		}
	}
	for _, w := range p.writable {
		fi, err := os.Stat(w)
		if err == nil {
			grant(w, fi.IsDir())
		}
	}
	return s
}

// Note recognises a command that probably failed because of the sandbox and tells the model what it may
// do about it; "" when the failure does not look like the sandbox's, or p is nil (nothing confined it).
func (p *Plan) Note(output string, exit *int, sig string) string {
	if p == nil || (sig == "" && (exit == nil || *exit == 0)) {
		return ""
	}
	low := strings.ToLower(output)
	var what string
	switch {
	case containsAny(low, "socket", "/dev/udp", "/dev/tcp", "dial ") && containsAny(low, "permission denied", "operation not permitted"):
		what = "Unix sockets are refused in the sandbox, and internet sockets too while the network is off"
	case containsAny(low, "read-only file system", "permission denied", "operation not permitted"):
		what = "writing is allowed only in " + strings.Join(p.writable, ", ")
		if len(p.readOnly) > 0 {
			what += " (except " + strings.Join(p.readOnly, ", ") + ", which are read-only)"
		}
		if p.probe.backend == Landlock && len(p.readOnly) > 0 {
			what += "; under Landlock new files cannot be created directly in the workspace root"
		}
	case p.probe.backend == Bubblewrap && strings.Contains(low, "no such file or directory") && strings.Contains(output, "/tmp/"):
		what = "the sandbox has a fresh, empty /tmp of its own; the machine's /tmp is not visible inside it"
	case !p.network && containsAny(low, "network is unreachable", "could not resolve", "temporary failure in name resolution",
		"name or service not known", "connection refused", "no route to host", "failed to connect", "couldn't connect",
		"dial tcp", "getaddrinfo"):
		what = "the network is off"
	default:
		return ""
	}
	return "[this may have failed because of the sandbox (" + string(p.probe.backend) + "): " + what + ". If the " +
		"command really needs more, run it again with \"dangerously_unsandboxed\": true; the user will be asked " +
		"to approve running it outside the sandbox.]"
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
