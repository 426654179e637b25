package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/mcp"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/files"
	"github.com/warden-cli/warden/tools/sandbox"
)

func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("warden")
	var common commonFlags
	common.register(fs)
	var prompt promptFlag
	fs.Var(&prompt, "p", "run one request headless; the prompt follows, or comes on stdin")
	format := fs.String("output-format", agent.FormatText, "text, json or stream-json")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return nil
		}
		return err
	}
	if common.version {
		fmt.Fprintf(stdout, "warden %s\n", version)
		return nil
	}
	switch *format {
	case agent.FormatText, agent.FormatJSON, agent.FormatStreamJSON:
	default:
		return usageError{fmt.Sprintf("unknown --output-format %q: use text, json or stream-json", *format)}
	}
	headless := prompt.set || !isTerminal(stdin) // piped input without -p: the prompt comes on stdin
	err = startMain(&common, prompt.text, words, headless, *format, stdin, stdout, stderr)
	if headless {
		setupFailure(stdout, *format, err)
	}
	return err
}

// startMain runs the TUI, or one headless request, once the flags are read.
func startMain(c *commonFlags, flagPrompt string, words []string, headless bool, format string, stdin io.Reader, stdout, stderr io.Writer) error {
	if _, err := permissions.ParseMode(c.mode); err != nil {
		return usageError{err.Error()}
	}
	if err := notYet(c); err != nil {
		return err
	}
	text := strings.TrimSpace(flagPrompt + " " + strings.Join(words, " "))
	if !headless {
		return runTUI(c, text, stdout)
	}
	if c.pick {
		return usageError{"--resume needs a session id with -p (warden sessions lists them)"}
	}
	if text == "" || text == "-" {
		if isTerminal(stdin) {
			return usageError{"empty prompt: give the request with -p \"PROMPT\" or on stdin (warden -p < file)"}
		}
		b, err := io.ReadAll(io.LimitReader(stdin, 10<<20))
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		text = strings.TrimSpace(string(b))
	}
	if text == "" {
		return usageError{"empty prompt: give the request with -p \"PROMPT\" or on stdin"}
	}
	return runHeadless(c, text, format, stdout, stderr)
}

// notYet refuses flag combinations that make no sense, rather than ignoring one.
func notYet(c *commonFlags) error {
	if c.cont && (c.resume != "" || c.pick) {
		return usageError{"use either --continue or --resume, not both"}
	}
	return nil
}

// session is everything one run of Warden shares.
type session struct {
	cfg   *config.Config
	id    string
	dir   string
	store *agent.Store
	// resumed is the earlier session being continued, if any; history is its conversation.
	resumed *agent.Loaded
	history []openai.ChatCompletionMessage
	// instructions is the project's AGENTS.md (or CLAUDE.md) and WARDEN.md, read from instructionFiles;
	// warnings are told to the person at start.
	instructions     string
	instructionFiles []string
	warnings         []string
	// refusals are the warnings about files Warden would not read for itself (among warnings), which
	// stream-json also reports as events.
	refusals []string
	// opener is how Warden reads the person's files for itself (instruction files, commands, settings,
	// records): links stay in the workspace and out of secret places.
	opener *safefile.Opener
	// closed is set once close has run.
	closed bool
	// sandboxLabel describes the working sandbox for the status line; sandboxProblem says why the sandbox
	// the person asked for cannot be had.
	sandboxLabel, sandboxProblem string
	// helper is Warden's own executable, which serves as the supervisor and the jail.
	helper string
	// programs finds the programs Warden runs for itself (bash, bwrap, rg, git).
	programs *hostexec.Finder
	env      *tools.Env
	engine   *permissions.Engine
	reg      *tools.Registry
	tasks    *bash.Tasks
	// mcp runs the configured MCP servers; their tools reach the agent through Options.More.
	mcp *mcp.Manager
	// checkpoints snapshots the workspace around calls that may change files; nil when it cannot.
	checkpoints *checkpoint.Checkpoints
}

func loadConfig(c *commonFlags) (*config.Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the current directory: %w", err)
	}
	cfg, err := config.Load(config.Sources{Workspace: wd, Opener: newOpener(wd, nil)}, config.Overrides{
		Model: c.model, BaseURL: c.baseURL, Mode: c.mode, Allow: c.allow, Deny: c.deny,
		Sandbox: c.sandbox.value(), Trust: c.trust,
	})
	if err != nil {
		return nil, err
	}
	return cfg, checkRules(cfg.RuleOrigins, c)
}

// sayConfigWarnings tells the person, on stderr, what the settings could not be read from, for the
// commands that print results rather than start a session (which tells them with its other warnings).
func sayConfigWarnings(stderr io.Writer, cfg *config.Config) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "warden: %s\n", printableText(w))
	}
}

// checkRules parses every permission rule where it was written, so that a bad one is reported with the
// settings file or flag it came from (config cannot parse rules itself: it imports nothing of Warden's).
func checkRules(origins []config.RuleOrigin, c *commonFlags) error {
	check := func(where func(i int) string, list string, rules []string) error {
		for i, r := range rules {
			if _, err := permissions.ParseRule(r); err != nil {
				return fmt.Errorf("%s: permissions.%s: %v", where(i), list, err)
			}
		}
		return nil
	}
	for _, o := range origins {
		for _, l := range []struct {
			name  string
			rules []string
		}{{"allow", o.Allow}, {"deny", o.Deny}, {"ask", o.Ask}} {
			if err := check(func(i int) string { return o.Where(l.name, i) }, l.name, l.rules); err != nil {
				return err
			}
		}
	}
	flag := func(name string) func(int) string { return func(int) string { return name } }
	if err := check(flag("--allow"), "allow", c.allow); err != nil {
		return usageError{err.Error()}
	}
	if err := check(flag("--deny"), "deny", c.deny); err != nil {
		return usageError{err.Error()}
	}
	return nil
}

func sessionsDir() string { return filepath.Join(config.StateDir(os.Getenv), "sessions") }

// wardenPrivate are Warden's own files, which the read-only jail hides (permissions.IsSecretPath judges
// them secret): the whole state directory, and what the settings directory holds but the custom commands.
// They are named as their links resolve: a mask is made where a path leads, and bubblewrap cannot make
// one through a link (XDG_STATE_HOME may be one).
func wardenPrivate() []string {
	out := []string{permissions.ResolvePath("/", config.StateDir(os.Getenv), "")}
	dir := permissions.ResolvePath("/", config.ConfigDir(os.Getenv), "")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "commands" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// newOpener is the opener of Warden's own reads (package safefile) for workspace ws and the additional
// directories: a file of theirs that leads out of them through a link is refused, and so is one that is
// or leads to what the permission engine judges secret, except Warden's own settings and records, which
// the engine keeps from commands, not from Warden. The settings are read before the additional
// directories are known (they are among the settings), with an opener of the workspace alone: the files
// it reads lie in the workspace or are the person's own.
func newOpener(ws string, additional []string) *safefile.Opener {
	home, _ := os.UserHomeDir()
	own := map[string]bool{}
	for _, p := range config.OwnFiles(os.Getenv) {
		own[p] = true
		if r, err := filepath.EvalSymlinks(p); err == nil {
			own[r] = true
		}
	}
	secret := func(p string) bool { return !own[p] && permissions.IsSecretPath(p, home) }
	return safefile.NewOpener(append([]string{ws}, additional...), secret, 0)
}

// additionalDirs are the settings' additional directories, resolved as the engine resolves paths.
func additionalDirs(cfg *config.Config) []string {
	home, _ := os.UserHomeDir()
	var dirs []string
	for _, d := range cfg.AdditionalDirectories {
		dirs = append(dirs, permissions.ResolvePath(cfg.Workspace, d, home))
	}
	return dirs
}

// sandboxConfig is the bash engine's sandbox as the settings describe it.
func sandboxConfig(cfg *config.Config) sandbox.Config {
	return sandbox.Config{Enabled: cfg.SandboxEnabled, Network: cfg.SandboxNetwork, Writable: cfg.SandboxWritable}
}

// envSettings are the settings of the environment Warden gives what it starts: bash.env's names, and
// the API key removed by its name and wherever its value appears.
func envSettings(cfg *config.Config) tools.BashSettings {
	settings := tools.BashSettings{Env: slices.Clone(cfg.BashEnv)}
	if cfg.APIKey != "" {
		settings.Secrets = []string{cfg.APIKey}
		settings.Env = append(settings.Env, "-"+cfg.APIKeyEnv)
	}
	return settings
}

// newEngine builds the permission engine the settings describe. sandboxed says whether commands run in a
// working sandbox: only then may sandbox.auto_allow let commands run unasked, and only without network.
func newEngine(cfg *config.Config, sandboxed bool) (*permissions.Engine, error) {
	mode, err := permissions.ParseMode(cfg.Mode)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	engine, err := permissions.NewEngine(permissions.Policy{
		Mode: mode, Allow: cfg.Allow, Deny: cfg.Deny, Ask: cfg.Ask,
		Workspace: cfg.Workspace, AdditionalDirectories: cfg.AdditionalDirectories, Home: home,
		SandboxAutoAllow: sandboxed && cfg.SandboxAutoAllow && !cfg.SandboxNetwork,
		// Commands are judged with the variables they run with (GIT_DIR, GIT_CONFIG_GLOBAL...), which are
		// the allow-list's, not all of Warden's.
		Env: tools.ChildLookup(envSettings(cfg)),
	})
	if err != nil {
		return nil, fmt.Errorf("in the permission rules: %w", err)
	}
	return engine, nil
}

// ownPrograms finds the programs Warden runs for itself: on PATH as Warden was started, but never inside
// the workspace or the additional directories, where the project (or the model) chooses what stands.
func ownPrograms(cfg *config.Config) *hostexec.Finder {
	return hostexec.NewFinder(os.Getenv("PATH"), append([]string{cfg.Workspace}, additionalDirs(cfg)...))
}

// newTasks makes a session's bash engine. Warden's own executable serves as its supervisor, which starts
// every command and stops them all if Warden is killed, and as the read-only jail's; started again by the
// kernel's link to the running file, so that nothing written at its path since can take its place. It is
// made before the session opens (newSession takes it) because it keeps what probing the sandbox and the
// jail finds, and a run may start that probing at once.
func newTasks() *bash.Tasks {
	tasks := bash.NewTasks()
	tasks.Helper, _ = hostexec.Self()
	return tasks
}

func newSession(cfg *config.Config, c *commonFlags, tasks *bash.Tasks) (*session, error) {
	sandbox := sandboxConfig(cfg)
	s := &session{cfg: cfg, programs: ownPrograms(cfg), tasks: tasks, helper: tasks.Helper}
	if sandbox.Enabled {
		info, err := s.tasks.ProbeSandbox(sandbox, s.programs)
		if err != nil {
			s.sandboxProblem = err.Error()
		} else {
			s.sandboxLabel = info.String()
			if sandbox.Network {
				s.sandboxLabel += ", network"
			} else {
				s.sandboxLabel += ", no network"
			}
			for _, n := range info.Notes {
				s.warnings = append(s.warnings, "sandbox: "+n)
			}
		}
	}
	engine, err := newEngine(cfg, sandbox.Enabled && s.sandboxProblem == "")
	if err != nil {
		return nil, err
	}
	s.engine = engine
	if err := s.openStore(c); err != nil {
		return nil, err
	}
	if s.resumed != nil && s.resumed.Model != "" && c.model == "" {
		// A resumed session goes on with the model it last used, unless --model says otherwise.
		cfg.Model = s.resumed.Model
	}
	s.dir = filepath.Join(sessionsDir(), s.id)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the session directory: %w", err)
	}
	s.env = tools.NewEnv(cfg.Workspace, s.dir)
	s.env.Programs = s.programs
	childEnv := envSettings(cfg)
	s.env.Bash = tools.BashSettings{
		TimeoutMS: cfg.BashTimeoutMS, MaxTimeoutMS: cfg.BashMaxTimeoutMS, MaxOutputChars: cfg.BashMaxOutputChars,
		Env: childEnv.Env, Secrets: childEnv.Secrets, AutoBackgroundAfterMS: cfg.BashAutoBackgroundAfterMS,
		Sandbox: sandbox, Limits: tools.Limits(cfg.Limits), Jail: cfg.SandboxJail,
	}
	if st := bash.LimitStatus(s.env.Bash.Limits); strings.Contains(st, "NOT ENFORCED") {
		s.warnings = append(s.warnings, "resource limits: "+st)
	}
	s.opener = newOpener(cfg.Workspace, additionalDirs(cfg))
	instructions, read, warnings := agent.LoadInstructionFiles(s.opener, cfg.Workspace)
	s.instructions, s.instructionFiles = instructions, read
	s.refusals = append(append(s.refusals, cfg.Warnings...), warnings...)
	s.warnings = append(s.warnings, s.refusals...)
	s.openCheckpoints()
	s.env.SecretWritten = s.tasks.SecretsChanged
	home, _ := os.UserHomeDir()
	// One path-resolution function for the whole program: the engine decides on the path the tools use.
	s.env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, home) }
	s.env.Secret = func(p string) bool { return permissions.IsSecretPath(p, home) }
	s.env.SearchRule = s.engine.SearchRule
	s.env.RuleRoots = s.engine.ReadRuleRoots()
	s.env.AdditionalDirs = additionalDirs(cfg)
	for _, d := range cfg.SandboxJailReadable {
		s.env.JailReadable = append(s.env.JailReadable, permissions.ResolvePath(cfg.Workspace, d, home))
	}
	s.env.Private = wardenPrivate()
	s.env.HardLinks = s.engine.HardLinks
	s.reg = tools.NewRegistry(append(append(bash.NewTools(s.tasks), files.NewTools()...), tools.NewTodo())...)
	s.mcp = newMCP(cfg, s.env, s.tasks, s.dir)
	s.warnings = append(s.warnings, mcpRuleWarnings(cfg)...)
	return s, nil
}

// settle does the start-up work that the first frame need not wait for: it finds out how read-only
// commands are jailed (running bubblewrap once) and stops the processes a killed Warden left running. It
// returns the wall's label for the header and the status line, and what to tell the person. Until it has
// run, the engine treats programs whose only risk is running project code as it would without the jail
// (it asks), so a command decided before it never gets the jail's leniency without the jail.
func (s *session) settle() (wall string, warnings []string) {
	probed := make(chan func(), 1)
	go func() {
		if !s.cfg.SandboxJail {
			// Nothing is jailed: bubblewrap need not be run to find out how it would be.
			probed <- func() { wall, warnings = s.setWall(bash.WallInfo{}, nil) }
			return
		}
		info, err := s.tasks.ProbeWall(s.programs)
		probed <- func() { wall, warnings = s.setWall(info, err) }
	}()
	if n := bash.SweepOrphans(); n > 0 {
		defer func() {
			warnings = append(warnings, fmt.Sprintf("stopped %d processes left running by a Warden that was killed", n))
		}()
	}
	(<-probed)()
	return wall, warnings
}

// setWall says how read-only commands are jailed, for the status line, and what to tell the person once
// at start when they cannot be.
func (s *session) setWall(info bash.WallInfo, err error) (label string, warnings []string) {
	switch {
	case !s.cfg.SandboxJail:
		return "wall: off (sandbox.jail is false)", nil
	case err != nil:
		return "wall: off — no backend (install bubblewrap)", []string{"read-only commands run without the read-only jail: " + err.Error()}
	}
	for _, n := range info.Notes {
		warnings = append(warnings, "wall: "+n)
	}
	// Programs whose only risk is running project code are read-only inside the jail.
	if s.engine != nil {
		s.engine.SetReadOnlyJail(true)
	}
	return info.String(), warnings
}

// openStore starts a new session file, or reopens the one --continue or --resume names.
func (s *session) openStore(c *commonFlags) error {
	dir := sessionsDir()
	path := ""
	switch {
	case c.resume != "":
		if err := checkSessionID(c.resume); err != nil {
			return err
		}
		path = agent.SessionPath(dir, c.resume)
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("no session %q; run warden sessions to see this directory's sessions", c.resume)
		}
	case c.cont:
		p, err := latestAnswered(dir, s.cfg.Workspace)
		if err != nil {
			return err
		}
		path = p
	}
	if path == "" {
		s.id = newSessionID(time.Now())
		st, err := agent.CreateStore(dir, s.id, s.cfg.Workspace, s.cfg.Model)
		s.store = st
		return err
	}
	l, msgs, st, err := agent.ResumeSession(path)
	if err != nil {
		return err
	}
	s.id, s.store, s.resumed, s.history = l.ID, st, l, msgs
	return nil
}

// checkSessionID refuses an id that is not a plain name in the sessions directory: a path would open, and
// append to, a file elsewhere.
func checkSessionID(id string) error {
	if id == "." || id == ".." || strings.ContainsAny(id, `/\`) || filepath.Base(id) != id {
		return usageError{fmt.Sprintf("%q is not a session id; run warden sessions to see this directory's sessions", id)}
	}
	return nil
}

// trust records the workspace as trusted and applies what its project settings loosen that can change
// while Warden runs: allow rules and the permission mode (unless a flag chose the mode).
func (s *session) trust(c *commonFlags) error {
	if err := config.Trust(s.opener, os.Getenv, s.cfg.Workspace); err != nil {
		return err
	}
	trusted, err := loadConfig(c)
	if err != nil {
		return err
	}
	// The MCP servers that waited for trust start now that the person has seen what each would run.
	held := map[string]bool{}
	for _, e := range s.cfg.UntrustedMCPServers {
		held[e.Name] = true
	}
	var start []config.MCPServerEntry
	for _, e := range trusted.MCPServers {
		if held[e.Name] {
			start = append(start, e)
		}
	}
	s.mcp.Add(start)
	for _, r := range trusted.Allow {
		if !slices.Contains(s.cfg.Allow, r) {
			if err := s.engine.AddAllow(r); err != nil {
				return err
			}
		}
	}
	if c.mode == "" && trusted.Mode != s.cfg.Mode {
		mode, err := permissions.ParseMode(trusted.Mode)
		if err != nil {
			return err
		}
		s.engine.SetMode(mode)
	}
	return nil
}

// allWarnings gathers what the person should be told at start.
func (s *session) allWarnings() []string {
	w := append([]string(nil), s.warnings...)
	if s.resumed != nil {
		w = append(w, s.resumed.Warnings...)
	}
	return w
}

// close ends every process the session started and closes its file.
func (s *session) close() {
	if s.closed {
		return
	}
	s.closed = true
	s.mcp.Close()
	s.tasks.KillAll()
	if s.checkpoints != nil {
		s.checkpoints.Close()
	}
	s.retire()
}

// prewarmAfter is when the TUI starts the session's helper processes.
const prewarmAfter = 300 * time.Millisecond

// newSessionID is sortable by time and unique: 20261121-214700-1a2b3c.
func newSessionID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return now.Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// resolveServer fills in the base URL and model: a local server is looked for when neither a key nor a
// base URL is set, and the server's first model is used when none is named.
func resolveServer(ctx context.Context, cfg *config.Config) error {
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		cfg.BaseURL = agent.Discover(ctx, "127.0.0.1", agent.LocalServers)
		if cfg.BaseURL == "" {
			return errors.New(agent.NoServerHelp())
		}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.openai.com/v1"
	}
	if !strings.Contains(cfg.BaseURL, "://") {
		return fmt.Errorf("the base URL %q has no scheme: add http:// or https:// (for example http://%s)", cfg.BaseURL, cfg.BaseURL)
	}
	if cfg.Model != "" {
		return nil
	}
	models, err := agent.ListModels(ctx, cfg.BaseURL, cfg.APIKey)
	models = agent.ChatModels(models)
	if err != nil {
		return fmt.Errorf("no model set and listing the server's models failed: %w; set --model or WARDEN_MODEL", err)
	}
	if len(models) == 0 {
		return fmt.Errorf("no model set and the server at %s lists none that can chat; set --model or WARDEN_MODEL", cfg.BaseURL)
	}
	cfg.Model = models[0]
	return nil
}

func (s *session) agentOptions(sink agent.Sink, approver agent.Approver) agent.Options {
	home, _ := os.UserHomeDir()
	return agent.Options{
		Provider:      agent.NewProvider(s.cfg.BaseURL, s.cfg.APIKey, s.cfg.Model),
		Tools:         s.reg,
		Env:           s.env,
		Engine:        s.engine,
		Approver:      approver,
		Sink:          sink,
		Prompt:        &agent.PromptInfo{Cwd: s.cfg.Workspace, Now: time.Now(), Instructions: s.instructions},
		SubAgents:     true,
		MaxSteps:      s.cfg.MaxSteps,
		Home:          home,
		Store:         s.store,
		ContextWindow: s.cfg.ContextWindow,
		History:       s.history,
		More:          s.mcp,
		Checkpoints:   s.checkpoints,
		Notes:         agent.PendingNotes(s.resumed),
		SaveProjectRule: func(rule string) error {
			return config.AddProjectAllow(s.opener, os.Getenv, s.cfg.Workspace, rule)
		},
	}
}
