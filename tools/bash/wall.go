package bash

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/secrets"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/confine"
	"github.com/warden-cli/warden/tools/jail"
	"github.com/warden-cli/warden/tools/sandbox"
)

// The second wall: a command that runs without asking because it was judged read-only (Call.Jailed) runs
// in the session's read-only jail (tools/jail) when BashSettings.Jail is on and a backend works here.
// Everything else about it is as for any command: output, limits, timeouts, the background.

// WallInfo says how read-only commands are jailed, for the status line and the start-up notes.
type WallInfo struct {
	Backend jail.Backend
	// Notes are limitations of this backend on this machine, one short sentence each.
	Notes []string
}

// String is the short form for the status line: "wall: bubblewrap".
func (w WallInfo) String() string { return "wall: " + string(w.Backend) }

// ProbeWall finds out how the jail would be built here: bubblewrap (found with programs) when it works,
// else Landlock with Warden's executable (helper) confining itself. The error says, in a sentence the
// person can act on, why there is no wall. It probes afresh; Tasks.ProbeWall keeps the answer for the
// session's commands.
func ProbeWall(helper string, programs *hostexec.Finder) (WallInfo, error) {
	return probeWall(sandbox.NewProber(), helper, programs, "")
}

// ProbeWall is the package's ProbeWall with the Tasks' helper, answered by the prober its commands use,
// so that the jail the first read-only command starts need not run bubblewrap again.
func (t *Tasks) ProbeWall(programs *hostexec.Finder) (WallInfo, error) {
	return probeWall(t.prober(), t.Helper, programs, t.JailBackend)
}

// probeWall is ProbeWall with one backend forced ("" for either).
func probeWall(probes *sandbox.Prober, helper string, programs *hostexec.Finder, only jail.Backend) (WallInfo, error) {
	b, err := probes.Bubblewrap(programs)
	if only == jail.Landlock {
		err = errors.New("bubblewrap is not to be used")
	}
	if err == nil {
		info := WallInfo{Backend: jail.Bubblewrap}
		if !b.PidNS {
			info.Notes = append(info.Notes, "no pid namespace (bwrap --unshare-pid does not work here): jailed commands can see Warden's processes")
		}
		if confine.Arch() == 0 {
			info.Notes = append(info.Notes, "no seccomp filter on "+runtime.GOARCH+": Unix sockets are not refused")
		}
		return info, nil
	}
	why := []string{err.Error()}
	if only == jail.Bubblewrap {
		return WallInfo{}, fmt.Errorf("no backend for the read-only jail: %s", why[0])
	}
	// Landlock needs the helper, which is Warden's own executable: it is not run here, because that costs
	// a start of Warden, and the jail's start says so if it does not serve.
	abi, lerr := llsys.LandlockGetABIVersion()
	switch {
	case helper == "":
		why = append(why, "no helper executable for Landlock")
	case lerr != nil || abi < 1:
		why = append(why, "Landlock is not enabled in this kernel")
	case abi < 4:
		why = append(why, fmt.Sprintf("Landlock ABI %d cannot block the network (needs 4, Linux 6.7)", abi))
	default:
		info := WallInfo{Backend: jail.Landlock, Notes: []string{"Landlock cannot hide /tmp or /run from jailed commands; they write only in their own TMPDIR"}}
		if abi < 6 {
			info.Notes = append(info.Notes, fmt.Sprintf("Landlock ABI %d cannot keep jailed commands from signalling other processes (needs 6)", abi))
		}
		return info, nil
	}
	return WallInfo{}, fmt.Errorf("no backend for the read-only jail: %s", strings.Join(why, "; "))
}

// jailed starts commands in a jail.
type jailSpawner struct{ j *jail.Jail }

func (s *jailSpawner) spawn(path string, args, env []string, dir string, files []*os.File) (child, int, error) {
	ch, err := s.j.Start(path, args, env, dir, files)
	if err != nil {
		return nil, 0, err
	}
	return ch, ch.Pid, nil
}

func (s *jailSpawner) runDir() string { return s.j.RunDir() }

// keeper returns the session's jail keeper, made on first use from env; nil when there is no backend (the
// reason is kept for WallProblem).
func (t *Tasks) keeper(env *tools.Env) *jail.Keeper {
	run, err := t.runDir()
	if err != nil {
		return nil
	}
	// KillAll takes jailMu after it marks the tasks closed, so a keeper made here is either seen by it
	// or never made.
	t.jailMu.Lock()
	defer t.jailMu.Unlock()
	if t.jails != nil || t.wallErr != nil || t.isClosed() {
		return t.jails
	}
	programs := env.Finder()
	info, err := probeWall(t.prober(), t.Helper, programs, t.JailBackend)
	if err != nil {
		t.wallErr = err
		return nil
	}
	b, _ := t.prober().Bubblewrap(programs)
	bash, _ := t.shell(env)
	home, _ := os.UserHomeDir()
	// Warden's own files, and every session's (outputs the person once let through may be in them), but
	// never the workspace, should one of them hold it.
	var hide []string
	private := slices.Clone(env.Private)
	if env.SessionDir != "" {
		private = append(private, filepath.Dir(env.SessionDir))
	}
	for _, p := range private {
		hide = append(hide, around(resolveExisting(p), env.Workspace)...)
	}
	hide = append(hide, run) // the unjailed commands' final-directory pipes
	// The secrets, and what a Read rule keeps from being read unasked: SearchRule is asked only below
	// where a rule's paths begin, since the scan asks about every path it meets.
	isSecret, searchRule, roots := env.Secret, env.SearchRule, env.RuleRoots
	secret := func(p string) bool {
		if isSecret != nil && isSecret(p) {
			return true
		}
		if searchRule == nil || !slices.ContainsFunc(roots, func(r string) bool { return within(r, p) }) {
			return false
		}
		rule, _ := searchRule(p)
		return rule != ""
	}
	var fallback jail.Backend
	if abi, err := llsys.LandlockGetABIVersion(); err == nil && abi >= 4 && info.Backend == jail.Bubblewrap {
		fallback = jail.Landlock
	}
	// The helper is the running file (hostexec.SelfPath) whichever backend serves, the Landlock fallback
	// included: the jail opens it or starts it by that link, never by the path Warden was started from,
	// where a file built since (a warden in the workspace) would become the supervisor.
	places := jail.Toolchains(home, os.Getenv)
	for _, p := range env.JailReadable {
		places = append(places, jail.Place{Path: p, Scan: true})
	}
	t.jails = jail.NewKeeper(jail.Config{
		Backend: info.Backend, Bwrap: b.Path, PidNS: b.PidNS, Fallback: fallback,
		Helper: t.Helper, HelperArgs: []string{sandbox.HelperMarker, "jail"},
		Workspace: env.Workspace, Secret: secret, Hide: hide,
		Homes: jail.Homes(home), Places: places, Stores: homeStores(jail.Homes(home)),
		Trees: env.AdditionalDirs, Roots: env.RuleRoots,
		Show: append([]string{env.Workspace, bash}, env.AdditionalDirs...),
	})
	return t.jails
}

// joinNotes puts notes for the model one under the other, leaving out the empty.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// homeStores are where the catalogue keeps credentials in each of homes.
func homeStores(homes []string) []string {
	var out []string
	for _, h := range homes {
		out = append(out, secrets.HomeStores(h)...)
	}
	return out
}

// around returns what hides dir but leaves ws visible: dir itself when ws is not in it, else the entries
// on the way down to ws that do not lead to it.
func around(dir, ws string) []string {
	if ws == "" || (ws != dir && !strings.HasPrefix(ws, strings.TrimSuffix(dir, "/")+"/")) {
		return []string{dir}
	}
	if ws == dir {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		out = append(out, around(filepath.Join(dir, e.Name()), ws)...)
	}
	return out
}

// resolveExisting is p with the symbolic links of its longest existing part resolved and the rest kept as
// written: a mask is made where a path leads, bubblewrap cannot make one through a link (XDG_STATE_HOME,
// and the sessions directory in it, may be one), and a directory made later is masked at a rescan.
func resolveExisting(p string) string {
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolveExisting(parent), filepath.Base(p))
}

// WallProblem says why read-only commands are not jailed although the jail is on, or "".
func (t *Tasks) WallProblem() string {
	t.jailMu.Lock()
	defer t.jailMu.Unlock()
	if t.wallErr != nil {
		return t.wallErr.Error()
	}
	return ""
}

// SecretsChanged says a secret file may have been written outside any command (a file tool did): the
// jail rescans before the next jailed command.
func (t *Tasks) SecretsChanged() {
	t.jailMu.Lock()
	k := t.jails
	t.jailMu.Unlock()
	if k != nil {
		k.Stale()
	}
}

func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
