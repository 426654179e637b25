package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/commands"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/ui"
)

// What the TUI does with sessions besides running one: list them, put another in place of the one that
// runs (/clear, /new, /resume), leave no trace of one that failed before anything was answered, and say on
// the way out how to come back.

// retire closes the session's file; a new session in which nothing was answered and no tool ran is
// removed, so that failed attempts do not pile up in front of the real work.
func (s *session) retire() {
	if s.resumed == nil && !s.store.Answered() {
		if err := s.store.Remove(); err == nil {
			s.id = ""
		}
		os.Remove(s.dir) // the outputs directory, empty when nothing ran
		return
	}
	s.store.Close()
}

// switchTo puts another session in place of this one: a new one for id "", else the saved session id.
// The bash engine, its background tasks and the permission grants carry over; the record of files read
// does not, since the new conversation has read none.
func (s *session) switchTo(id string, sink agent.Sink, ap agent.Approver) (*ui.Session, error) {
	dir := sessionsDir()
	var l *agent.Loaded
	var msgs []openai.ChatCompletionMessage
	var st *agent.Store
	var err error
	newID := id
	if id == "" {
		newID = newSessionID(time.Now())
		st, err = agent.CreateStore(dir, newID, s.cfg.Workspace, s.cfg.Model)
	} else {
		if err := checkSessionID(id); err != nil {
			return nil, err
		}
		path := agent.SessionPath(dir, id)
		if _, serr := os.Stat(path); serr != nil {
			return nil, fmt.Errorf("no session %q in %s", id, dir)
		}
		l, msgs, st, err = agent.ResumeSession(path)
	}
	if err != nil {
		return nil, err
	}
	s.retire()
	if s.checkpoints != nil {
		s.checkpoints.Close()
		s.checkpoints = nil
	}
	s.id, s.store, s.resumed, s.history = newID, st, l, msgs
	s.openCheckpoints()
	if s.checkpoints != nil {
		s.checkpoints.Start()
	}
	s.dir = filepath.Join(dir, s.id)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the session directory: %w", err)
	}
	env := s.env.Fork()
	env.SessionDir = s.dir
	s.env = env
	model := s.cfg.Model
	if l != nil && l.Model != "" {
		model = l.Model
	}
	opts := s.agentOptions(sink, ap)
	opts.Provider = agent.NewProvider(s.cfg.BaseURL, s.cfg.APIKey, model)
	a, err := agent.New(opts)
	if err != nil {
		return nil, err
	}
	return &ui.Session{Agent: a, ID: s.id, Model: model, Resumed: l}, nil
}

// tuiOptions fills in what the TUI shows of the session and the commands it offers.
func (s *session) tuiOptions(opts *ui.Options, c *commonFlags) {
	cfg := s.cfg
	opts.BaseURL, opts.Trusted, opts.Instructions, opts.SettingsFiles = cfg.BaseURL, cfg.Trusted, s.instructionFiles, cfg.Files
	opts.ListModels = func(ctx context.Context) ([]string, error) { return agent.ListModels(ctx, cfg.BaseURL, cfg.APIKey) }
	opts.Sessions = func() ([]agent.SessionInfo, error) { return agent.ListSessions(sessionsDir(), cfg.Workspace) }
	opts.OpenSession = s.switchTo
	opts.PickSession = c.pick
	opts.RuleOrigin = func(list, rule string) string { return ruleOrigin(cfg, c, list, rule) }
	opts.ProjectCommandDirs, opts.CommandDirs = commandDirs(cfg)
	opts.Opener = s.opener
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

// commandDirs are the folders custom commands come from: the project's, which the TUI reads only in a
// trusted workspace since a repository's commands put words in the person's mouth, and the person's.
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
