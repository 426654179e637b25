package app

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/config"
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", config.Printable(s.ID), s.Updated.Local().Format("2006-01-02 15:04"),
			config.Printable(s.Model), config.Printable(s.Prompt))
	}
	return tw.Flush()
}

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
	path := ""
	if *id != "" {
		if err := checkSessionID(*id); err != nil {
			return err
		}
		path = agent.SessionPath(sessionsDir(), *id)
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("no session %q; run warden sessions to see this directory's sessions", *id)
		}
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("finding the current directory: %w", err)
		}
		list, err := agent.ListSessions(sessionsDir(), wd)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return fmt.Errorf("no saved sessions in %s", wd)
		}
		path = list[0].Path
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
	fmt.Fprintf(stdout, "session %s (%s, %s)\n", config.Printable(l.ID), config.Printable(l.Cwd), config.Printable(l.Model))
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
		summary := config.Printable(strings.ReplaceAll(e.Summary, "\n", "⏎"))
		if r := []rune(summary); len(r) > 80 {
			summary = string(r[:79]) + "…"
		}
		tool := strings.Repeat("  ", e.Depth) + e.Tool
		changes := checkpoint.Summary(e.Full)
		if changes == "" {
			changes = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format("15:04:05"), config.Printable(tool),
			config.Printable(status), config.Printable(decision), (time.Duration(e.DurationMS) * time.Millisecond).String(),
			config.Printable(strings.TrimPrefix(changes, "changed ")), summary)
	}
	return tw.Flush()
}

// writeJSONLines prints one JSON object per line, with shell text such as `>` and `&` left as it is.
func writeJSONLines[T any](w io.Writer, items []T) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return fmt.Errorf("writing the result: %w", err)
		}
	}
	return nil
}

func helpOr(err error, stdout io.Writer) error {
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return nil
	}
	return err
}
