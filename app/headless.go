package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/warden-cli/warden/agent"
)

// runHeadless runs one request without a person (-p): the answer, or the event stream, goes to standard
// output, and what would ask is denied (DESIGN.md §2).
func runHeadless(version string, c *commonFlags, prompt, format string, stdout, stderr io.Writer) error {
	// Ctrl+C interrupts the request; SIGTERM and SIGHUP mean Warden itself must go, which its commands are
	// told (they are stopped as "Warden is exiting", not as interrupted by the person).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	var shutdown atomic.Pointer[func()]
	go func() {
		select {
		case sig := <-sigs:
			if f := shutdown.Load(); f != nil && sig != os.Interrupt {
				(*f)()
			}
			cancel()
		case <-ctx.Done():
		}
	}()
	// The answer is escaped only on a terminal, where a person reads it: piped, it is data and keeps its
	// bytes. Notices are Warden's own lines quoting a server or a model, for a person to read. The printer
	// is made first: the result's duration_ms counts the whole run.
	out := stdout
	if format == agent.FormatText && isTerminalWriter(stdout) {
		out = escapingWriter{stdout}
	}
	printer := agent.NewPrinter(out, escapingWriter{stderr}, format)
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	waiting := waitingWarning(cfg)
	if waiting != "" {
		fmt.Fprintf(stderr, "warden: %s\n", waiting)
	}
	tasks := newTasks()
	if cfg.SandboxJail {
		// Running bubblewrap once to see how the jail can be built takes longer than opening the session:
		// it starts now, and settle (and the jail's start) take the answer the session's engine keeps.
		go tasks.ProbeWall(ownPrograms(cfg))
	}
	if err := resumeWhereItWas(cfg, c); err != nil {
		return err
	}
	if err := resolveServer(ctx, cfg); err != nil {
		return err
	}
	s, err := newSession(version, cfg, c, tasks)
	if err != nil {
		return err
	}
	defer s.close()
	killAll := func() {
		s.hooks.Close()
		s.tasks.KillAll()
	}
	shutdown.Store(&killAll)
	_, settled := s.settle()
	s.warnings = append(s.warnings, settled...)
	// The supervisor and the jail start while the first request is on its way.
	s.tasks.Prewarm(s.env)
	s.mcp.Release()
	if s.sandboxProblem != "" {
		return fmt.Errorf("the sandbox cannot be had: %s; pass --sandbox=off to run without it", s.sandboxProblem)
	}
	for _, w := range s.allWarnings() {
		fmt.Fprintf(stderr, "warden: %s\n", printableText(w))
	}
	if s.checkpoints != nil {
		s.checkpoints.Start()
	}
	a, err := agent.New(s.agentOptions(printer.Sink, agent.HeadlessApprover{}))
	if err != nil {
		return err
	}
	printer.Sink(agent.SessionStarted{ID: s.id, Cwd: cfg.Workspace, Model: cfg.Model})
	if format == agent.FormatStreamJSON {
		// A file Warden would not read for itself, and what waits for the person's approval, are told on
		// stderr with the other warnings, and to a script reading the events as the notices they are
		// (error events that are not retried).
		for _, w := range s.refusals {
			printer.Sink(agent.Notice{Message: w})
		}
		if waiting != "" {
			printer.Sink(agent.Notice{Message: waiting})
		}
	}
	s.tasks.OnEnd(a.NoteTaskEnd) // a background task that ends is told to the model at its next turn
	done := a.Run(ctx, prompt)
	s.endHooks("other", stderr)
	if err := printer.Err(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if done.IsError || done.Interrupted {
		if format == agent.FormatText && done.Interrupted {
			fmt.Fprintln(stderr, "warden: interrupted")
		}
		return exitStatus(exitError)
	}
	return nil
}

// setupFailure is printed as a result object when a json or stream-json run fails before it can start, so
// that what reads the output always gets a result.
func setupFailure(w io.Writer, format string, err error) {
	var exit exitStatus
	if err == nil || format == agent.FormatText || errors.As(err, &exit) {
		return
	}
	b, _ := json.Marshal(agent.StreamJSON(agent.TurnDone{Text: "warden: " + err.Error(), IsError: true}))
	fmt.Fprintln(w, string(b))
}
