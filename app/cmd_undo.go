package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/printable"
)

// runUndo restores a session's workspace files to how they were before its last request that changed
// files (or before a given call): warden undo [--session ID] [--to CALL_ID] [--yes]. It shows what it
// will change first and asks, in a terminal; files changed outside Warden since are asked about
// separately, and --yes leaves them as they are.
func runUndo(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("undo")
	var common commonFlags // accepted wherever they are given, though undo uses none of them
	common.register(fs)
	id := fs.String("session", "", "session id (default: the latest in this directory)")
	to := fs.String("to", "", "restore to just before this call (an id from warden history), or turn:N")
	yes := fs.Bool("yes", false, "restore without asking (files changed outside Warden are left as they are)")
	if err := parseFlags(fs, args); err != nil {
		return helpOr(err, stdout)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q; run warden --help for usage", fs.Arg(0))}
	}
	path, err := findSession(*id)
	if err != nil {
		return err
	}
	l, err := agent.ReadSession(path)
	if err != nil {
		return err
	}
	for _, w := range l.Warnings {
		fmt.Fprintf(stderr, "warden: %s\n", printableText(w))
	}
	cp, err := openCheckpoints(l.Cwd, l.ID)
	if err != nil {
		return err
	}
	defer cp.Close()
	u, err := agent.PlanUndo(cp, l, *to)
	record := func(by string, changes []checkpoint.Change) error {
		if len(changes) == 0 && by != agent.ByUndo {
			return nil
		}
		st, err := agent.OpenStore(path)
		if err != nil {
			return err
		}
		defer st.Close()
		r := agent.Record{Type: agent.RecChanges, By: by, Changes: changes}
		if by == agent.ByUndo {
			r.UndoTo = &u.Point.Pos
		}
		st.Append(r, true)
		return st.Err()
	}
	if u != nil {
		if rerr := record(agent.ByOutside, u.Found); rerr != nil {
			return rerr
		}
	}
	if err != nil {
		if errors.Is(err, agent.ErrNothingToUndo) {
			fmt.Fprintf(stdout, "%s\n", printableText(err.Error()))
			return nil
		}
		if checkpoint.Pruned(checkpointsDir(), cp.Workspace(), l.ID) {
			return fmt.Errorf("%w (this session's checkpoints were pruned to keep the workspace's under the size cap)", err)
		}
		return err
	}
	printPlan(stdout, l, u)
	if len(u.Plan.Warden()) == 0 && len(u.Plan.Outside()) == 0 {
		fmt.Fprintln(stdout, "Nothing can be restored.")
		return nil
	}
	restore, outside := *yes, false
	if !*yes {
		if !isTerminal(stdin) {
			return usageError{"nothing restored: pass --yes to restore without asking"}
		}
		in := bufio.NewReader(stdin)
		if n := len(u.Plan.Warden()); n > 0 {
			restore = confirm(in, stdout, fmt.Sprintf("Restore %d %s? [y/N] ", n, plural(n, "path", "paths")))
		}
		if n := len(u.Plan.Outside()); n > 0 {
			outside = confirm(in, stdout, fmt.Sprintf("Also restore the %d %s changed outside Warden since? [y/N] ", n, plural(n, "path", "paths")))
		}
		if !restore && !outside {
			fmt.Fprintln(stdout, "Nothing restored.")
			return nil
		}
	}
	if !restore {
		// Only the paths changed outside were wanted.
		u.Plan.Steps = u.Plan.Outside()
	}
	r, err := cp.Apply(u.Plan, outside)
	if err != nil {
		return err
	}
	if err := record(agent.ByOutside, r.Found); err != nil {
		return err
	}
	if err := record(agent.ByUndo, r.Changes); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Restored %d %s.\n", len(r.Done), plural(len(r.Done), "path", "paths"))
	for _, s := range r.Skipped {
		fmt.Fprintf(stdout, "  left as it is: %s\n", printable.Escape(s.String()))
	}
	if err := agent.RecordNote(path, agent.Describe(u.Point, r)); err != nil {
		fmt.Fprintf(stderr, "warden: the session will not tell the model about this undo: %v\n", err)
	}
	return nil
}

// printPlan shows what a restore will change, the paths changed outside Warden set apart. Paths and
// commands are whatever the model chose: they are shown escaped, so that none can redraw the terminal.
func printPlan(w io.Writer, l *agent.Loaded, u *agent.UndoPlan) {
	where := "at the start of " + u.Point.Label()
	if u.Point.Kind == agent.PointCall {
		where = "just before " + u.Point.CallID + " (" + u.Point.Label() + ")"
	}
	fmt.Fprintf(w, "Restore %s to how it was %s:\n", printable.Escape(l.Cwd), printable.Escape(where))
	for _, s := range u.Plan.Warden() {
		fmt.Fprintf(w, "  %s\n", printable.Escape(s.String()))
	}
	if out := u.Plan.Outside(); len(out) > 0 {
		fmt.Fprintln(w, "Changed outside Warden since (restored only if you say so):")
		for _, s := range out {
			fmt.Fprintf(w, "  %s\n", printable.Escape(s.String()))
		}
	}
	if bad := u.Plan.Problems(); len(bad) > 0 {
		fmt.Fprintln(w, "Cannot be restored:")
		for _, s := range bad {
			fmt.Fprintf(w, "  %s\n", printable.Escape(s.String()))
		}
	}
}

// confirm asks a question that only "y" or "yes" answers yes.
func confirm(in *bufio.Reader, w io.Writer, question string) bool {
	fmt.Fprint(w, question)
	line, _ := in.ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
