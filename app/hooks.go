package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/hooks"
	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/ui"
)

// Wiring of the person's hooks (package hooks): their runner, started through the session's supervisor
// as MCP servers are, the events the application itself fires (SessionEnd, and Notification when a
// question waits for the person), and why a session starts (SessionStart's source).

// newHooks makes the runner of the session's hooks, or nil when no settings file has any. Hooks are run
// by the bash Warden finds outside the workspace, with the environment commands get.
func (s *session) newHooks() {
	cfg := s.cfg
	if len(cfg.Hooks)+len(cfg.UntrustedHooks) == 0 {
		return
	}
	sh, err := s.programs.Find("bash")
	if err != nil {
		s.warnings = append(s.warnings, fmt.Sprintf("hooks are not run: %v", err))
		return
	}
	env, tasks, engine := s.env, s.tasks, s.engine
	s.hooks = hooks.New(hooks.Options{
		Hooks: cfg.Hooks, Waiting: cfg.UntrustedHooks, Shell: sh.Path, ProjectDir: cfg.Workspace,
		// The Env remembers the filtered environment: a hook runs at every call it matches.
		Env:  env.ChildEnv,
		Mode: func() string { return string(engine.Mode()) },
		Start: func(name string, args, env []string, dir string, files []*os.File) (hooks.Proc, error) {
			p, err := tasks.StartProgram(name, args, env, dir, files)
			if err != nil {
				return nil, err
			}
			return p, nil
		},
	})
}

// hookEvent is an event of the session's hooks, with what every event tells.
func (s *session) hookEvent(name string) hooks.Event {
	return hooks.Event{Name: name, SessionID: s.id, Transcript: s.store.Path(), Cwd: s.env.Cwd()}
}

// endHooks runs the SessionEnd hooks of the session that ends, telling w what they say. They may take
// their timeout: when they take more than a moment, w is told why Warden waits.
func (s *session) endHooks(reason string, w io.Writer) {
	if !s.hooks.Has(hooks.SessionEnd) {
		return
	}
	ev := s.hookEvent(hooks.SessionEnd)
	ev.Reason = reason
	said := time.AfterFunc(time.Second, func() {
		fmt.Fprintln(w, "warden: waiting for the SessionEnd hooks to finish (Ctrl+C stops them)")
	})
	out := s.hooks.Run(context.Background(), ev)
	said.Stop()
	for _, n := range out.Notices {
		fmt.Fprintf(w, "warden: %s\n", printable.EscapeText(n))
	}
}

// endHooksBeside returns what runs the SessionEnd hooks of the session the TUI is about to leave for
// another (/clear, /resume), once it has: beside the screen, not holding it up, what they say going to
// sink.
func (s *session) endHooksBeside(reason string, sink agent.Sink) func() {
	if !s.hooks.Has(hooks.SessionEnd) {
		return func() {}
	}
	ev := s.hookEvent(hooks.SessionEnd)
	ev.Reason = reason
	return func() {
		go func() {
			for _, n := range s.hooks.Run(context.Background(), ev).Notices {
				sink(agent.Notice{Message: printable.EscapeText(n)})
			}
		}()
	}
}

// hookNotifier runs the Notification hooks for every moment the TUI wants the person back (an approval
// waiting, a long request ended: ui.Notice), whatever the focus and the ui.notifications setting, as Claude
// Code fires them. It runs off the program's loop, so nothing waits for the hooks; what they print for the
// person goes to the sink of the agent that was last made.
type hookNotifier struct {
	s    *session
	sink atomic.Pointer[agent.Sink]
}

func (n *hookNotifier) Notify(notice ui.Notice) {
	r := n.s.hooks
	if !r.Has(hooks.Notification) {
		return
	}
	ev := n.s.hookEvent(hooks.Notification)
	ev.Message, ev.NotificationType = notice.Message, notice.Kind
	out := r.Run(context.Background(), ev).Notices
	if sink := n.sink.Load(); sink != nil {
		for _, m := range out {
			(*sink)(agent.Notice{Message: printable.EscapeText(m)})
		}
	}
}

// to remembers the sink of a new agent and passes it on.
func (n *hookNotifier) to(sink agent.Sink) agent.Sink {
	n.sink.Store(&sink)
	return sink
}
