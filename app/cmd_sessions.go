package app

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/printable"
)

// runSessions lists this directory's saved sessions, newest first.
func runSessions(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sessions")
	var common commonFlags // accepted wherever they are given, though a listing uses none of them
	common.register(fs)
	asJSON := fs.Bool("json", false, "one JSON object per session")
	if err := parseFlags(fs, args); err != nil {
		return helpOr(err, stdout)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("finding the current directory: %w", err)
	}
	list, err := agent.ListSessions(sessionsDir(), wd)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSONLines(stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(stderr, "warden: no saved sessions in %s\n", wd)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tMODEL\tFIRST PROMPT")
	for _, s := range list {
		// The first prompt may hold what was pasted, and the model name is the server's: both are shown
		// escaped, as the TUI shows them.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable.Escape(s.ID), s.Updated.Local().Format("2006-01-02 15:04"),
			printable.Escape(s.Model), printable.Escape(s.Prompt))
	}
	return tw.Flush()
}
