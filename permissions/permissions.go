package permissions

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/warden-cli/warden/permissions/shell"
)

// Mode is the person's standing choice of how much runs without asking.
type Mode string

// The permission modes, in the order Shift+Tab cycles them (yolo is only chosen explicitly).
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "accept-edits"
	ModePlan        Mode = "plan"
	ModeYolo        Mode = "yolo"
)

// ParseMode accepts the names used on the command line and in settings files.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case ModeDefault, ModeAcceptEdits, ModePlan, ModeYolo:
		return Mode(s), nil
	case "":
		return ModeDefault, nil
	}
	// Claude Code's names for the same modes, so that its flags and settings work as they are.
	switch s {
	case "acceptEdits":
		return ModeAcceptEdits, nil
	case "bypassPermissions":
		return ModeYolo, nil
	}
	return "", fmt.Errorf("unknown permission mode %q: use default, accept-edits (acceptEdits), plan or yolo (bypassPermissions)", s)
}

// Next returns the mode Shift+Tab moves to.
func (m Mode) Next() Mode {
	switch m {
	case ModeDefault:
		return ModeAcceptEdits
	case ModeAcceptEdits:
		return ModePlan
	}
	return ModeDefault
}

// Decision is the outcome for one tool call.
type Decision string

// The three outcomes.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// Kind is what a request does.
type Kind int

// The kinds of request: a shell command, a file read, an edit of an existing file, a file write, a
// call with no effect outside Warden (None), a call to an MCP server's tool (mcp.go), and a fetch of a web
// page (webfetch.go).
const (
	Exec Kind = iota
	Read
	Edit
	Write
	None
	MCP
	Fetch
)

// Request is one tool call in the terms the engine understands.
type Request struct {
	Kind Kind
	// Command is the shell command of an Exec request.
	Command string
	// Path is the file of a Read, Edit or Write request, as given (relative paths resolve against Cwd).
	Path string
	// Cwd is the directory the command runs in or the path resolves against.
	Cwd string
	// Unsandboxed marks a command the model asked to run outside the OS sandbox: it always asks.
	Unsandboxed bool
	// MCP is the tool an MCP request calls.
	MCP MCPCall
	// HookAllowed says a hook answered "allow": the request is decided as if an allow rule named it,
	// no more (hook.go).
	HookAllowed bool
	// Host is the host a Fetch request reaches.
	Host string
}

// Verdict is the engine's answer with everything the person and the transcript need to understand it.
type Verdict struct {
	Decision Decision
	// By says who decided: "readonly", "rule", "mode" or "policy" ("user" is set by the agent after a prompt).
	By string
	// Reason is a sentence naming the part that needs approval ("`git push` is not read-only").
	Reason string
	// Part is the exact text of the command part that needs approval, for highlighting.
	Part string
	// Rule is the rule that decided, if one did.
	Rule string
	// ReadOnly says the request changes nothing (it may still read a secret and ask).
	ReadOnly bool
	// Dangerous marks catastrophic commands; the modal shows it in red and even yolo asks.
	Dangerous bool
	// SuggestedRule is the narrowest rule that "always allow" would save.
	SuggestedRule string
	// RuleCannotAllow says no allow rule would allow the request (it runs a program the repository
	// supplies): only the person, once, or yolo mode can.
	RuleCannotAllow bool
	// Unseen says the command does something Warden cannot see into while deny or ask rules are in
	// force: it asks in every mode, and no allow rule covers it; only the person, once, can.
	Unseen bool
}

// Policy is the configuration an Engine is built from.
type Policy struct {
	Mode Mode
	// Allow, Deny and Ask are rules in the syntax of DESIGN.md §5.
	Allow, Deny, Ask []string
	// Workspace is the project root; AdditionalDirectories are further roots treated like it.
	Workspace             string
	AdditionalDirectories []string
	// Home is the person's home directory, for `~` in paths and rules.
	Home string
	// SandboxAutoAllow lets commands that are not read-only run without asking because an OS sandbox
	// bounds them (writes only in the workspace, no network). Set it only while such a sandbox is on.
	SandboxAutoAllow bool
	// Env looks a variable up in the environment commands inherit; nil means Warden's own.
	Env func(name string) (string, bool)
	// ReadOnlyJail says that commands judged read-only run inside the read-only jail; see
	// Context.ReadOnlyJail.
	ReadOnlyJail bool
	// HookFiles are the files the person's and the project's hooks run (their scripts), absolute: a
	// write to one is guarded (guarded.go), since it runs outside the jail at the hook's next event.
	HookFiles []string
}

// Engine decides requests under a policy. It is safe for concurrent use; grants and mode changes made while
// a session runs take effect for the next decision.
type Engine struct {
	mu               sync.RWMutex
	policy           Policy
	allow, deny, ask []Rule
	workspace, home  string
	dirs             []string
	// hookFiles are Policy.HookFiles, as given and resolved.
	hookFiles []string
	// mem is what the engine remembers between decisions: repositories read, files judged by content,
	// directory listings (shell.Memory).
	mem *shell.Memory
}

// NewEngine validates the policy's rules and returns an engine. A bad rule is an error that names it.
func NewEngine(p Policy) (*Engine, error) {
	if p.Mode == "" {
		p.Mode = ModeDefault
	}
	if _, err := ParseMode(string(p.Mode)); err != nil {
		return nil, err
	}
	e := &Engine{policy: p, home: p.Home, mem: shell.NewMemory()}
	if p.Workspace != "" {
		e.workspace = shell.ResolvePath("/", p.Workspace, p.Home)
	}
	for _, d := range p.AdditionalDirectories {
		e.dirs = append(e.dirs, shell.ResolvePath(e.workspace, d, p.Home))
	}
	for _, f := range p.HookFiles {
		e.hookFiles = append(e.hookFiles, filepath.Clean(f), shell.ResolvePath("/", f, p.Home))
	}
	var err error
	if e.allow, err = e.compile("allow", p.Allow); err != nil {
		return nil, err
	}
	if e.deny, err = e.compile("deny", p.Deny); err != nil {
		return nil, err
	}
	if e.ask, err = e.compile("ask", p.Ask); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *Engine) compile(list string, raw []string) ([]Rule, error) {
	out := make([]Rule, 0, len(raw))
	for _, s := range raw {
		r, err := ParseRule(s)
		if err != nil {
			return nil, fmt.Errorf("permissions.%s: %w", list, err)
		}
		r.compile(e.workspace, e.home)
		if list != "allow" {
			r.resolveLinks()
		}
		out = append(out, r)
	}
	return out, nil
}

// Mode returns the current mode.
func (e *Engine) Mode() Mode {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.policy.Mode
}

// SetMode changes the mode for later decisions.
func (e *Engine) SetMode(m Mode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.Mode = m
}

// AddAllow adds an allow rule for the rest of the session. A rule that does not parse is refused.
func (e *Engine) AddAllow(rule string) error {
	r, err := ParseRule(rule)
	if err != nil {
		return err
	}
	r.compile(e.workspace, e.home)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.Allow = append(e.policy.Allow, rule)
	e.allow = append(e.allow, r)
	return nil
}

// Context returns the classification context for a command run in cwd.
func (e *Engine) Context(cwd string) shell.Context {
	if cwd == "" {
		cwd = e.workspace
	}
	e.mu.RLock()
	jail := e.policy.ReadOnlyJail
	e.mu.RUnlock()
	return shell.Context{Cwd: cwd, Workspace: e.workspace, AdditionalDirectories: e.dirs, Home: e.home, Env: e.policy.Env,
		ReadOnlyJail: jail, RootsResolved: true, Memory: e.mem}
}

// SetReadOnlyJail says whether commands judged read-only run in the read-only jail from now on (see
// Context.ReadOnlyJail): set it once the jail is known to work, and clear it if it stops.
func (e *Engine) SetReadOnlyJail(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.ReadOnlyJail = on
}

// snapshot copies what one decision needs, so that a decision never holds the lock while classifying.
type snapshot struct {
	mode             Mode
	allow, deny, ask []Rule
	sandboxAuto      bool
}

func (e *Engine) snapshot() snapshot {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return snapshot{mode: e.policy.Mode, allow: e.allow, deny: e.deny, ask: e.ask, sandboxAuto: e.policy.SandboxAutoAllow}
}

// SetSandboxAutoAllow turns the sandbox's auto-allow on or off, for example when the person chooses to run
// without a sandbox after all.
func (e *Engine) SetSandboxAutoAllow(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.policy.SandboxAutoAllow = on
}
