package app

import (
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/config"
)

// checkpointsDir holds the checkpoints of every workspace, beside the sessions they belong to.
func checkpointsDir() string { return filepath.Join(config.StateDir(os.Getenv), "checkpoints") }

// openCheckpoints opens the checkpoints of session id in workspace; those of sessions no longer saved are
// pruned with them.
func openCheckpoints(workspace, id string) (*checkpoint.Checkpoints, error) {
	return checkpoint.Open(checkpoint.Options{Dir: checkpointsDir(), Workspace: workspace, Session: id, SessionExists: sessionExists})
}
