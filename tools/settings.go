package tools

import "github.com/warden-cli/warden/tools/sandbox"

// The settings of the tools are carried by the Env (EnvConfig.Bash), so that a sub-agent's fork runs its
// commands as its parent does; package bash, which runs the commands, reads them there. Their types are
// declared here, below every package that reads them.

// BashSettings tune the bash engine. Zero values mean the defaults.
type BashSettings struct {
	TimeoutMS      int
	MaxTimeoutMS   int
	MaxOutputChars int
	// Env lists variable names to pass to or drop from commands: "NAME" passes a variable the
	// allow-list leaves out (envfilter.go), "-NAME" drops one it would pass.
	Env []string
	// AutoBackgroundAfterMS moves a foreground command to the background after this long; 0 is off.
	AutoBackgroundAfterMS int
	// Secrets are values that must never reach a child's environment (the API key), whatever Env says.
	Secrets []string
	// Sandbox confines commands (package sandbox). When it is enabled and cannot be had, commands do not run.
	Sandbox sandbox.Config
	// Jail runs the commands of calls marked Jailed (judged read-only, so not asked about) in the
	// read-only jail (package jail, reached as package bash says), when a backend for it works here.
	Jail bool
	// Limits are every command's resource limits; the zero value means the defaults.
	Limits Limits
}

// Limits are the resource limits of every command. A zero field means the default; a negative one, none.
type Limits struct {
	MemoryMB   int
	Processes  int
	CPUSeconds int
	FileSizeMB int
}

// The defaults are generous: they only stop what would otherwise hurt the machine.
const (
	DefaultMemoryMB   = 8 << 10  // 8 GB of private writable memory per process
	DefaultProcesses  = 4096     // processes and threads per command
	DefaultFileSizeMB = 16 << 10 // 16 GB per file
	// DefaultCPUSeconds is 0: no CPU limit unless one is set.
	DefaultCPUSeconds = 0
)

// Effective returns l with defaults filled in and "none" as 0.
func (l Limits) Effective() Limits {
	pick := func(v, def int) int {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return def
		}
		return v
	}
	return Limits{
		MemoryMB:   pick(l.MemoryMB, DefaultMemoryMB),
		Processes:  pick(l.Processes, DefaultProcesses),
		CPUSeconds: pick(l.CPUSeconds, DefaultCPUSeconds),
		FileSizeMB: pick(l.FileSizeMB, DefaultFileSizeMB),
	}
}
