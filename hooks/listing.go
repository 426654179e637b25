package hooks

import (
	"fmt"
	"slices"

	"github.com/warden-cli/warden/config"
)

// What the session remembers of each hook's runs, for /hooks and so that a failing hook is told to the
// person once rather than at every call.

type statKey struct{ event, matcher, command, file string }

func keyOf(h config.Hook) statKey { return statKey{h.Event, h.Matcher, h.Command, h.File} }

type stat struct {
	runs, failures int
	last           string
	output         string
}

// record counts a hook's run and reports whether it is the hook's first failure.
func (r *Runner) record(a answer) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := keyOf(a.hook)
	st := r.stats[k]
	if st == nil {
		st = &stat{}
		r.stats[k] = st
	}
	st.runs++
	st.output = ""
	switch {
	case a.failed != "":
		st.failures++
		st.last = "failed: " + a.failed
		return st.failures == 1
	case a.code == 2:
		st.last = "exit 2 (blocks)"
		st.output = firstLine(a.stderr)
	default:
		st.last = "exit 0"
		if a.out == nil || !a.out.SuppressOutput {
			st.output = firstLine(a.stdout)
		}
	}
	return false
}

// Entry is one configured hook as /hooks lists it.
type Entry struct {
	config.Hook
	// Waiting says it is a project's that waits for the person's trust, and does not run.
	Waiting bool
	// Runs and Failures count its runs in this session; Last says how the last one ended, and Output is
	// the first line it printed then (stderr for exit 2), unless it asked to suppress its output.
	Runs, Failures int
	Last, Output   string
}

// State says in a few words what the hook has done this session.
func (e Entry) State() string {
	switch {
	case e.Waiting:
		return "waits for trust"
	case e.Runs == 0:
		return "not run yet"
	case e.Failures > 0:
		return fmt.Sprintf("ran %d×, failed %d×; last %s", e.Runs, e.Failures, e.Last)
	}
	return fmt.Sprintf("ran %d×; last %s", e.Runs, e.Last)
}

// List returns the configured hooks in the order of config.HookEvents, the waiting ones last.
func (r *Runner) List() []Entry {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Entry
	for _, h := range r.hooks {
		e := Entry{Hook: h}
		if st := r.stats[keyOf(h)]; st != nil {
			e.Runs, e.Failures, e.Last, e.Output = st.runs, st.failures, st.last, st.output
		}
		out = append(out, e)
	}
	for _, h := range r.waiting {
		out = append(out, Entry{Hook: h, Waiting: true})
	}
	slices.SortStableFunc(out, func(a, b Entry) int {
		if a.Waiting != b.Waiting {
			if a.Waiting {
				return 1
			}
			return -1
		}
		return slices.Index(config.HookEvents, a.Event) - slices.Index(config.HookEvents, b.Event)
	})
	return out
}
