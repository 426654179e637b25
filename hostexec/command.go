package hostexec

import (
	"context"
	"os/exec"
)

// Command returns a command that runs p with args and exactly env as its environment. A nil env is an
// empty environment, never Warden's own: os/exec passes the parent's whole environment on when Env is
// nil, and Warden's holds the API key. The context kills the program as exec.CommandContext does.
func Command(ctx context.Context, p Program, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.Path, args...)
	cmd.Args[0] = p.Name
	if env == nil {
		env = []string{}
	}
	cmd.Env = env
	return cmd
}
