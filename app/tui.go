package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/commands"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/piped"
	"github.com/warden-cli/warden/ui"
)

// The full-screen run: the TUI is given the session, what it shows of it and the commands it offers;
// /clear, /new and /resume put another session in its place, and on the way out the person is told how to
// come back.

// runTUI runs the session full-screen. When no server or model can be settled on, the TUI still starts
// and shows why (ui.Options.SetupError), rather than the reason being printed before it.
func runTUI(version string, c *commonFlags, prompt string, in *piped.Input, stdout io.Writer) error {
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	if err := resumeWhereItWas(cfg, c); err != nil {
		return err
	}
	opts := ui.Options{Workspace: cfg.Workspace, ContextWindow: cfg.ContextWindow, Prompt: prompt, Piped: in}
	if cfg.TranscriptOnExit {
		// Scrolling up after quitting shows the conversation (ui.transcript_on_exit, DESIGN.md §6).
		opts.Transcript = stdout
	}
	opts.MouseOff = !cfg.Mouse
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	err = resolveServer(ctx, cfg)
	cancel()
	if err != nil {
		opts.SetupError = err.Error()
		return ui.Run(opts)
	}
	s, err := newSession(version, cfg, c, newTasks())
	if err != nil {
		return err
	}
	defer s.close()
	s.notifier = &hookNotifier{s: s}
	s.tuiOptions(&opts, c)
	opts.Resumed = s.resumed
	opts.SessionID, opts.Model, opts.Engine = s.id, cfg.Model, s.engine
	// The TUI stops every command once its program ends; the SessionEnd hooks run just before, while
	// commands (the hooks among them) may still be started.
	opts.Tasks = endingTasks{s.tasks, func() { s.endHooks("prompt_input_exit", os.Stderr) }}
	opts.Sandbox, opts.SandboxProblem, opts.Warnings = s.sandboxLabel, s.sandboxProblem, s.warnings
	opts.Settle = s.settle
	opts.Trust = sessionTrust{s, c}
	if len(cfg.MCPServers)+len(cfg.UntrustedMCPServers) > 0 {
		opts.MCP = s.mcp
	}
	if s.hooks != nil {
		opts.Hooks = s.hooks
	}
	opts.RunUnsandboxed = func() {
		// Called before anything runs, from the UI's loop.
		s.env.Bash.Sandbox.Enabled = false
		s.engine.SetSandboxAutoAllow(false)
	}
	opts.Notifier = s.notifier
	opts.NewAgent = func(sink agent.Sink, approver agent.Approver) (*agent.Agent, error) {
		return agent.New(s.agentOptions(s.notifier.to(sink), approver))
	}
	// The supervisor (and the jail) cost a start of Warden's executable each; they start once the first
	// frame is surely on the screen (about 80 ms in), and sooner only if a command needs them.
	prewarm := time.AfterFunc(prewarmAfter, func() { s.tasks.Prewarm(s.env) })
	defer prewarm.Stop()
	startMCP := time.AfterFunc(prewarmAfter, s.mcp.Release)
	defer startMCP.Stop()
	if s.checkpoints != nil {
		// The first snapshot may read the whole workspace: after the first frame too.
		startCheckpoints := time.AfterFunc(prewarmAfter, s.checkpoints.Start)
		defer startCheckpoints.Stop()
	}
	err = ui.Run(opts)
	s.endHooks("prompt_input_exit", os.Stderr)
	s.close()
	s.sayHowToResume(stdout)
	return err
}

// prewarmAfter is when the TUI starts the session's helper processes.
const prewarmAfter = 300 * time.Millisecond

// tuiOptions fills in what the TUI shows of the session and the commands it offers.
func (s *session) tuiOptions(opts *ui.Options, c *commonFlags) {
	cfg := s.cfg
	opts.BaseURL, opts.Instructions, opts.SettingsFiles = cfg.BaseURL, s.instructionFiles, cfg.Files
	opts.ListModels = func(ctx context.Context) ([]string, error) { return agent.ListModels(ctx, cfg.BaseURL, cfg.APIKey) }
	opts.Sessions = func() ([]agent.SessionInfo, error) { return agent.ListSessions(sessionsDir(), cfg.Workspace) }
	opts.OpenSession = s.openSession
	opts.PickSession = c.pick
	opts.RuleOrigin = func(list, rule string) string { return ruleOrigin(cfg, c, list, rule) }
	opts.ProjectCommandDirs, opts.CommandDirs = commandDirs(cfg)
	opts.Opener = s.opener
	opts.Skills = s.skills
	opts.Notifications = cfg.Notifications
}

// ruleOrigin is where a rule in force was written: the settings file, or the flag.
func ruleOrigin(cfg *config.Config, c *commonFlags, list, rule string) string {
	for _, o := range cfg.RuleOrigins {
		in := map[string][]string{"allow": o.Allow, "deny": o.Deny, "ask": o.Ask}[list]
		if slices.Contains(in, rule) {
			return o.File
		}
	}
	switch {
	case list == "allow" && slices.Contains(c.allow, rule):
		return "--allow"
	case list == "deny" && slices.Contains(c.deny, rule):
		return "--deny"
	}
	return ""
}

// commandDirs are the folders custom commands come from: the project's, which the TUI reads only once the
// person approved them as they are, since a repository's commands put words in the person's mouth, and
// the person's.
func commandDirs(cfg *config.Config) (project, user []commands.Dir) {
	project = []commands.Dir{
		{Path: filepath.Join(cfg.Workspace, ".warden", "commands"), Source: "project"},
		{Path: filepath.Join(cfg.Workspace, ".claude", "commands"), Source: "project, .claude"},
	}
	user = []commands.Dir{{Path: filepath.Join(config.ConfigDir(os.Getenv), "commands"), Source: "user"}}
	if home, _ := os.UserHomeDir(); home != "" {
		user = append(user, commands.Dir{Path: filepath.Join(home, ".claude", "commands"), Source: "user, .claude"})
	}
	return project, user
}

// sayHowToResume tells the person, as the TUI ends, which session they leave and how to come back.
func (s *session) sayHowToResume(w io.Writer) {
	if s.id == "" {
		return
	}
	fmt.Fprintf(w, "Session %s saved. Resume it with: warden --resume %s\n", s.id, s.id)
}

// openSession is what the TUI's /clear, /new and /resume open in place of the session that runs: the
// session switched, and an agent for it.
func (s *session) openSession(id string, sink agent.Sink, ap agent.Approver) (*ui.Session, error) {
	ending, started := "clear", "clear"
	if id != "" {
		ending, started = "other", "resume"
	}
	end := s.endHooksBeside(ending, sink)
	model, err := s.switchTo(id)
	if err != nil {
		return nil, err
	}
	end()
	s.started = started
	opts := s.agentOptions(s.notifier.to(sink), ap)
	opts.Provider = agent.NewProvider(s.cfg.BaseURL, s.cfg.APIKey, model)
	a, err := agent.New(opts)
	if err != nil {
		return nil, err
	}
	return &ui.Session{Agent: a, ID: s.id, Model: model, Resumed: s.resumed}, nil
}
