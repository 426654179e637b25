package app

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/printable"
)

// runHistory prints the tool calls of one session (the latest in this directory by default).
func runHistory(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("history")
	var common commonFlags
	common.register(fs)
	id := fs.String("session", "", "session id (default: the latest in this directory)")
	asJSON := fs.Bool("json", false, "one JSON object per tool call")
	if err := parseFlags(fs, args); err != nil {
		return helpOr(err, stdout)
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
	entries := agent.History(l)
	if *asJSON {
		return writeJSONLines(stdout, entries)
	}
	fmt.Fprintf(stdout, "session %s (%s, %s)\n", printable.Escape(l.ID), printable.Escape(l.Cwd), printable.Escape(l.Model))
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tTOOL\tSTATUS\tDECISION\tDURATION\tCHANGES\tCOMMAND OR PATH")
	for _, e := range entries {
		status := e.Status
		if e.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *e.ExitCode)
		}
		decision := e.Decision
		if e.By != "" {
			decision += " (" + e.By + ")"
		}
		// What the model chose to run, even a denied call, and the names of the files it changed are
		// printed escaped: an escape sequence in them would act on the terminal (OSC 52 writes the
		// clipboard), and a tab would break the columns.
		summary := printable.Escape(strings.ReplaceAll(e.Summary, "\n", "⏎"))
		if r := []rune(summary); len(r) > 80 {
			summary = string(r[:79]) + "…"
		}
		tool := strings.Repeat("  ", e.Depth) + e.Tool
		changes := checkpoint.Summary(e.Full)
		if changes == "" {
			changes = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format("15:04:05"), printable.Escape(tool),
			printable.Escape(status), printable.Escape(decision), (time.Duration(e.DurationMS) * time.Millisecond).String(),
			printable.Escape(strings.TrimPrefix(changes, "changed ")), summary)
	}
	return tw.Flush()
}
