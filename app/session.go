package app

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hooks"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/mcp"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/skills"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// A session and its life: its file opened (a new one, or the one resumed), settled once the first frame is
// up (the jail probed, processes a killed Warden left stopped), given what the person approves while it
// runs (trust.go), switched for another, and closed, leaving no file behind when nothing was answered.

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
	// skills are the person's skills and, once trusted, the project's (skills.go).
	skills *skills.Catalog
	// notifier runs the Notification hooks for the TUI's notices; nil headless.
	notifier *hookNotifier
	// checkpoints snapshots the workspace around calls that may change files; nil when it cannot.
	checkpoints *checkpoint.Checkpoints
	// hooks runs the person's hooks (hooks.go); nil when none are configured. started is why the
	// session started, as SessionStart hooks are told: startup, resume or clear.
	hooks   *hooks.Runner
	started string
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
		p, err := savedSession(c.resume)
		if err != nil {
			return err
		}
		path = p
	case c.cont:
		p, err := latestAnswered(dir, s.cfg.Workspace)
		if err != nil {
			return err
		}
		path = p
	}
	if path == "" {
		s.id = newSessionID(time.Now())
		st, err := agent.CreateStoreOn(dir, s.id, s.cfg.Workspace, s.cfg.Model, s.cfg.BaseURL)
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
	s.hooks.Close()
	s.mcp.Close()
	s.tasks.KillAll()
	if s.checkpoints != nil {
		s.checkpoints.Close()
	}
	s.retire()
}

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
// does not, since the new conversation has read none. It returns the model the session goes on with: the
// one a saved session last used.
func (s *session) switchTo(id string) (model string, err error) {
	dir := sessionsDir()
	var l *agent.Loaded
	var msgs []openai.ChatCompletionMessage
	var st *agent.Store
	newID := id
	if id == "" {
		newID = newSessionID(time.Now())
		st, err = agent.CreateStoreOn(dir, newID, s.cfg.Workspace, s.cfg.Model, s.cfg.BaseURL)
	} else {
		if err := checkSessionID(id); err != nil {
			return "", err
		}
		path := agent.SessionPath(dir, id)
		if _, serr := os.Stat(path); serr != nil {
			return "", fmt.Errorf("no session %q in %s", id, dir)
		}
		l, msgs, st, err = agent.ResumeSession(path)
	}
	if err != nil {
		return "", err
	}
	s.retire()
	if s.checkpoints != nil {
		s.checkpoints.Close()
		s.checkpoints = nil
	}
	s.id, s.store, s.resumed, s.history = newID, st, l, msgs
	s.checkpointCalls()
	if s.checkpoints != nil {
		s.checkpoints.Start()
	}
	s.dir = filepath.Join(dir, s.id)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the session directory: %w", err)
	}
	env := s.env.Fork()
	env.SessionDir = s.dir
	s.env = env
	model = s.cfg.Model
	if l != nil && l.Model != "" {
		model = l.Model
	}
	return model, nil
}

// checkpointCalls starts checkpointing the session's calls; when that cannot be done the person is told
// at start, and the session runs without.
func (s *session) checkpointCalls() {
	cp, err := openCheckpoints(s.cfg.Workspace, s.id)
	if err != nil {
		s.warnings = append(s.warnings, fmt.Sprintf("checkpoints are off, so /undo cannot restore what calls change: %v", err))
		return
	}
	s.checkpoints = cp
	// What a background task changes after its call returned is given to that call when the task ends.
	s.tasks.OnEnd(func(e bash.TaskEnd) { cp.EndTask(e.ID) })
}
