package hooks

import (
	"context"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/warden-cli/warden/config"
)

// Proc is a started hook (a *bash.Program when the session starts it).
type Proc interface {
	Exited() <-chan struct{}
	// Signal signals its process group, until it is reaped.
	Signal(sig syscall.Signal)
	// ExitCode reaps it, stops what it left running outside its group, and returns its exit status, -1
	// when a signal ended it.
	ExitCode() int
}

// StartFunc starts a program with files as its descriptors 0, 1 and 2, in a process group of its own
// (bash.Tasks.StartProgram, through the session's supervisor).
type StartFunc func(name string, args, env []string, dir string, files []*os.File) (Proc, error)

// DefaultTimeout is how long a hook may run when its settings give no timeout, as in Claude Code.
const DefaultTimeout = 60 * time.Second

// Options configure a Runner. Start, Shell and Env are required.
type Options struct {
	// Hooks are the hooks to run; Waiting are a project's that wait for the person's trust, listed only.
	Hooks, Waiting []config.Hook
	Start          StartFunc
	// Shell is the bash that runs each hook's command (bash -c COMMAND), found outside the workspace.
	Shell string
	// Env is the environment of a program started in dir: the allow-list commands get.
	Env func(dir string) []string
	// ProjectDir is the workspace, given to hooks as CLAUDE_PROJECT_DIR, the directory a project's hooks
	// run in, and the one the person's run in when the event names none.
	ProjectDir string
	// Mode is the permission mode now, in Warden's words; nil is the default mode.
	Mode func() string
}

// Runner runs the hooks of a session's events. Its methods may be called from any goroutine; a nil
// Runner runs nothing.
type Runner struct {
	opts Options

	mu             sync.Mutex
	hooks, waiting []config.Hook
	stats          map[statKey]*stat
	// running are the hooks running now, stopped by Close.
	running map[*run]bool
	closed  bool
}

// New returns a runner of opts.Hooks.
func New(opts Options) *Runner {
	return &Runner{opts: opts, hooks: opts.Hooks, waiting: opts.Waiting, stats: map[statKey]*stat{}, running: map[*run]bool{}}
}

// SetHooks replaces the hooks, when the person trusts the workspace while the session runs.
func (r *Runner) SetHooks(hooks, waiting []config.Hook) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks, r.waiting = hooks, waiting
}

// Has reports whether any hook is configured for the event, so that a caller can skip building what the
// hooks would be told.
func (r *Runner) Has(event string) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.hooks, func(h config.Hook) bool { return h.Event == event })
}

// matching are the hooks ev matches, in the order configured; a command configured twice for it runs
// once, as in Claude Code, and it is the person's copy that runs when a project configured it too: a
// project's (with a shorter timeout, say) must not stand in for the person's guard.
func (r *Runner) matching(ev Event) []config.Hook {
	r.mu.Lock()
	defer r.mu.Unlock()
	subject := ev.subject()
	var out []config.Hook
	for _, h := range r.hooks {
		if h.Event != ev.Name || subject != nil && !h.Matches(subject...) {
			continue
		}
		if i := slices.IndexFunc(out, func(o config.Hook) bool { return o.Command == h.Command }); i >= 0 {
			if out[i].Project && !h.Project {
				out[i] = h
			}
			continue
		}
		out = append(out, h)
	}
	return out
}

// Run runs the hooks ev matches, all at once, and returns what they said together. It returns when the
// last has ended: each within its timeout, or at once when ctx ends, which kills them. Once the runner is
// closed it runs nothing: the session is ending.
func (r *Runner) Run(ctx context.Context, ev Event) Outcome {
	if r == nil || r.isClosed() {
		return Outcome{}
	}
	hs := r.matching(ev)
	if len(hs) == 0 {
		return Outcome{}
	}
	mode := "default"
	if r.opts.Mode != nil {
		mode = r.opts.Mode()
	}
	input, err := ev.input(ModeName(mode))
	if err != nil {
		// The event's own values are Warden's and always encode; this is a bug, said to the person.
		return Outcome{Notices: []string{"the " + ev.Name + " hooks were not run: their input could not be written: " + err.Error()}}
	}
	dir := ev.Cwd
	if dir == "" {
		dir = r.opts.ProjectDir
	}
	answers := make([]answer, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		// A project's hook runs in the workspace's top folder, wherever the session is: its approval
		// covers the files its command names read from there, and a folder the session moved to (a
		// vendored tree, a checkout of a contributor's branch) could hold other files of the same names.
		// Its input still says where the session is (cwd).
		at := dir
		if h.Project {
			at = r.opts.ProjectDir
		}
		wg.Go(func() { answers[i] = r.runOne(ctx, h, input, at) })
	}
	wg.Wait()
	for i := range answers {
		answers[i].firstFailure = r.record(answers[i])
	}
	return combine(ev, answers)
}

func (r *Runner) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// Close stops the hooks that run now and any started later: the session ends.
func (r *Runner) Close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.closed = true
	runs := make([]*run, 0, len(r.running))
	for p := range r.running {
		runs = append(runs, p)
	}
	r.mu.Unlock()
	for _, p := range runs {
		p.stop()
	}
}
