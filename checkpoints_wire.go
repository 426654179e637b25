package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/tools/bash"
)

// checkpointsDir holds the checkpoints of every workspace, beside the sessions they belong to.
func checkpointsDir() string { return filepath.Join(config.StateDir(os.Getenv), "checkpoints") }

// sessionExists reports whether a session is still saved, so that the checkpoints of one that is gone
// are pruned with it.
func sessionExists(id string) bool {
	if checkSessionID(id) != nil {
		return false
	}
	_, err := os.Stat(agent.SessionPath(sessionsDir(), id))
	return err == nil
}

// openCheckpoints starts checkpointing the session's calls; when that cannot be done the person is told
// at start, and the session runs without.
func (s *session) openCheckpoints() {
	cp, err := checkpoint.Open(checkpoint.Options{
		Dir: checkpointsDir(), Workspace: s.cfg.Workspace, Session: s.id, SessionExists: sessionExists,
	})
	if err != nil {
		s.warnings = append(s.warnings, fmt.Sprintf("checkpoints are off, so /undo cannot restore what calls change: %v", err))
		return
	}
	s.checkpoints = cp
	// What a background task changes after its call returned is given to that call when the task ends.
	s.tasks.OnEnd(func(e bash.TaskEnd) { cp.EndTask(e.ID) })
}
