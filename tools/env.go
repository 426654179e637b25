package tools

import (
	"crypto/sha256"
	"os"
	"sync"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/hostexec"
)

// Env is the state one session's tools share: the workspace, the current directory that `cd` moves,
// where large outputs are kept, and the settings every tool runs with. It is safe for concurrent use.
type Env struct {
	EnvConfig

	mu  sync.Mutex
	cwd string
	// seen holds the content hashes of the files this agent has read or written, which edit_file checks
	// so that it never edits a file the model has not seen as it is. It belongs to one conversation: a
	// sub-agent's reads do not count for its parent, nor the parent's for it.
	seen map[string][sha256.Size]byte
	// envs are the environments filtered lately for the programs the tools start (ChildEnv, HelperEnv),
	// by what they were filtered from: Warden's environment and the settings rarely change within a
	// session, and filtering costs a tenth of a short command's run. Made on first use.
	envs *cache.LRU[string, []string]
}

// EnvConfig is the part of an Env that does not change while tools run. Its fields are promoted, so
// env.Workspace reads as before; a fork copies it whole.
type EnvConfig struct {
	// Workspace is the absolute path of the directory Warden was started in.
	Workspace string
	// SessionDir is a directory for this session's files (full outputs of long commands).
	SessionDir string
	// Bash holds the settings of the bash engine (package bash).
	Bash BashSettings
	// Resolve turns a path the model gave into the absolute path it means, relative paths against cwd.
	// The file tools resolve every path through it and never on their own, so that a path means what the
	// permission engine decides about (wiring sets it to permissions.ResolvePath with the home directory).
	// The file tools refuse to run while it is nil.
	Resolve func(cwd, path string) string
	// Secret reports whether a file may hold secrets (.env, keys); grep skips such files when it searches a
	// directory. Wiring sets it to permissions.IsSecretPath; nil skips nothing.
	Secret func(path string) bool
	// SearchRule returns the Read rule that keeps a file's content out of a search of a directory above
	// it: a deny rule, or an ask rule (ask set); "" for none. grep leaves such files out and names the
	// rule. Wiring sets it to permissions.Engine.SearchRule; nil keeps nothing out.
	SearchRule func(path string) (rule string, ask bool)
	// Private are Warden's own state directory and settings files, which the read-only jail hides whole:
	// they hold every session's transcript, checkpoints with a copy of every workspace's files, the MCP
	// servers' tokens. Wiring sets them.
	Private []string
	// AdditionalDirs are the roots treated like the workspace: the read-only jail searches them for
	// secrets as it does the workspace, and shows them when they are in a home.
	AdditionalDirs []string
	// JailReadable are more places in the home directories, absolute, that the read-only jail shows
	// (sandbox.jail_readable), searched for secrets as the additional directories are.
	JailReadable []string
	// RuleRoots are where the paths of Read deny and ask rules begin (permissions.Engine.ReadRuleRoots):
	// the read-only jail masks what SearchRule finds a rule for at or below them. Wiring sets them.
	RuleRoots []string
	// HardLinks returns the other names of those of paths that have more than one (an entry for each such
	// path), and whether they could all be looked for: a hard link to .env is .env, so grep judges a file
	// under each of its names and leaves out one whose names it does not all know. Wiring sets it to
	// permissions.Engine.HardLinks; nil judges every file by its own name.
	HardLinks func(paths []string) (others map[string][]string, complete bool)
	// Programs finds the programs Warden runs for itself (bash, bwrap, rg, git): never from the
	// workspace, the additional directories or a relative PATH entry. Wiring builds it at the session's
	// start; nil means one built from PATH with Workspace and AdditionalDirs.
	Programs *hostexec.Finder
	// SecretWritten is called when a file tool has created a file Secret judges secret, so that the
	// read-only jail masks it before the next jailed command (wiring sets it to bash.Tasks.SecretsChanged).
	SecretWritten func()
	// Hosts judges a host web_fetch meets, by the rules and the mode alone, never asking: the host of
	// its URL, to learn whether a rule names it, and the host a redirect leads to. Wiring sets it over
	// permissions.Engine (Decide and NamesHost); nil allows no other host and names none.
	Hosts func(host string) HostJudgement
}

// HostJudgement is what the rules say of one host web_fetch meets.
type HostJudgement struct {
	// Allowed says a rule or the mode allows fetching from the host without asking.
	Allowed bool
	// Named says an allow rule names the host exactly: only then may web_fetch reach a loopback,
	// private or link-local address there.
	Named bool
	// Reason is the engine's sentence about it, for the model when the host is not allowed.
	Reason string
}

// NewEnv returns an Env rooted at workspace, with the current directory at the workspace.
func NewEnv(workspace, sessionDir string) *Env {
	return &Env{EnvConfig: EnvConfig{Workspace: workspace, SessionDir: sessionDir}, cwd: workspace}
}

// Fork returns an Env with the same configuration and current directory whose `cd`s do not move e's, and
// with no record of files read: a sub-agent works beside its parent, not in its place, and edits only
// what it has read itself.
func (e *Env) Fork() *Env {
	return &Env{EnvConfig: e.EnvConfig, cwd: e.Cwd()}
}

// RememberFile records the content of abs as the model now knows it (read_file reads it, write_file and
// edit_file write it).
func (e *Env) RememberFile(abs string, sum [sha256.Size]byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen == nil {
		e.seen = map[string][sha256.Size]byte{}
	}
	e.seen[abs] = sum
}

// Finder is the Finder of Warden's own programs: Programs, or one built from PATH with the workspace and
// the additional directories as the places no program may come from.
func (e *Env) Finder() *hostexec.Finder {
	if e.Programs != nil {
		return e.Programs
	}
	return hostexec.NewFinder(os.Getenv("PATH"), append([]string{e.Workspace}, e.AdditionalDirs...))
}

// RecallFile returns the hash of abs as the model last read or wrote it, which edit_file compares with
// the file's content before it changes anything.
func (e *Env) RecallFile(abs string) ([sha256.Size]byte, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sum, ok := e.seen[abs]
	return sum, ok
}

// Cwd returns the directory commands run in.
func (e *Env) Cwd() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cwd
}

// SetCwd moves the directory commands run in.
func (e *Env) SetCwd(dir string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cwd = dir
}
