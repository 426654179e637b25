package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/files"
	"github.com/warden-cli/warden/tools/sandbox"
	"github.com/warden-cli/warden/tools/web"
)

// Composition: a session built from the settings, its permission engine, bash engine and tasks, file tools,
// MCP servers and checkpoints, and the agent's options over them.

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

// newSession builds the session the settings describe, with a new session file or the one --continue or
// --resume names. The supervisor, the jail, the MCP servers and the first snapshot are not started here:
// the run that uses the session starts them when it can afford to (settle, Prewarm, Release, Start).
func newSession(version string, cfg *config.Config, c *commonFlags, tasks *bash.Tasks) (*session, error) {
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
	s.checkpointCalls()
	s.env.SecretWritten = s.tasks.SecretsChanged
	home, _ := os.UserHomeDir()
	// One path-resolution function for the whole program: the engine decides on the path the tools use.
	s.env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, home) }
	s.env.Secret = s.engine.IsSecretPath
	s.env.SearchRule = s.engine.SearchRule
	s.env.RuleRoots = s.engine.ReadRuleRoots()
	s.env.AdditionalDirs = additionalDirs(cfg)
	for _, d := range cfg.SandboxJailReadable {
		s.env.JailReadable = append(s.env.JailReadable, permissions.ResolvePath(cfg.Workspace, d, home))
	}
	s.env.Private = wardenPrivate()
	s.env.HardLinks = s.engine.HardLinks
	s.env.Hosts = hostJudge(s.engine)
	own := append(append(bash.NewTools(s.tasks), files.NewTools()...), tools.NewTodo(),
		web.NewTool("Warden/"+version+" (web_fetch)"))
	offerSkills, skillWarnings := s.loadSkills()
	s.warnings = append(s.warnings, skillWarnings...)
	if offerSkills {
		own = append(own, s.skills.Tool())
	}
	s.reg = tools.NewRegistry(own...)
	s.mcp = newMCP(version, cfg, s.env, s.tasks, s.dir)
	s.warnings = append(s.warnings, mcpRuleWarnings(cfg)...)
	s.newHooks()
	s.started = "startup"
	if s.resumed != nil {
		s.started = "resume"
	}
	return s, nil
}

// agentOptions are the agent's options over the session's parts, its events going to sink and its questions
// to approver.
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
		More:          s.mcpOffer(),
		Checkpoints:   s.checkpoints,
		Notes:         agent.PendingNotes(s.resumed),
		Hooks:         s.hooks,
		SessionStart:  s.started,
		SaveProjectRule: func(rule string) error {
			return config.AddProjectAllow(s.opener, os.Getenv, s.cfg.Workspace, rule)
		},
	}
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
		// What a hook runs runs outside the jail at its next event: no mode or hook's allow writes it.
		HookFiles: cfg.HookFiles(home),
	})
	if err != nil {
		return nil, fmt.Errorf("in the permission rules: %w", err)
	}
	return engine, nil
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

// sandboxConfig is the bash engine's sandbox as the settings describe it.
func sandboxConfig(cfg *config.Config) sandbox.Config {
	return sandbox.Config{Enabled: cfg.SandboxEnabled, Network: cfg.SandboxNetwork, Writable: cfg.SandboxWritable}
}

// ownPrograms finds the programs Warden runs for itself: on PATH as Warden was started, but never inside
// the workspace or the additional directories, where the project (or the model) chooses what stands.
func ownPrograms(cfg *config.Config) *hostexec.Finder {
	return hostexec.NewFinder(os.Getenv("PATH"), append([]string{cfg.Workspace}, additionalDirs(cfg)...))
}

// wardenPrivate are Warden's own files, which the read-only jail hides (permissions.IsSecretPath judges
// them secret): the whole state directory, and what the settings directory holds but the custom commands
// and the skills.
// They are named as their links resolve: a mask is made where a path leads, and bubblewrap cannot make
// one through a link (XDG_STATE_HOME may be one).
func wardenPrivate() []string {
	out := []string{permissions.ResolvePath("/", config.StateDir(os.Getenv), "")}
	dir := permissions.ResolvePath("/", config.ConfigDir(os.Getenv), "")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "commands" && e.Name() != "skills" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}
