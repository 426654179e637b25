// Command warden is a full-screen terminal coding agent. This file holds flags and wiring only: it builds
// the configuration, the agent and either the UI or the headless runner, and starts them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/warden-cli/warden/tools/sandbox"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes of a run (DESIGN.md §2).
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	// Warden re-executes itself as the Landlock sandbox helper; that must happen before anything else.
	if sandbox.IsHelper(os.Args) {
		os.Exit(sandbox.HelperMain(os.Args))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is bad input on the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A bug must not greet the person with a stack trace: one line, and the exit status of an error.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "warden: internal error: %s (this is a bug in Warden; please report it)\n", printableText(fmt.Sprint(r)))
			code = exitError
		}
	}()
	commands := map[string]subcommand{
		"check":    {run: runCheck},
		"sessions": {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runSessions(a, out, errw) }},
		"history":  {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runHistory(a, out, errw) }},
		"undo":     {run: runUndo},
		"mcp":      {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runMCP(a, out, errw) }, words: 1},
		"help": {run: func(_ []string, _ io.Reader, out, _ io.Writer) error {
			printUsage(out)
			return nil
		}},
	}
	args = resumeArgs(args)
	cmd, args := splitCommand(args, commands)
	if c, ok := commands[cmd]; ok {
		return report(c.run(args, stdin, stdout, stderr), stderr)
	}
	if err := typoOfCommand(args, commands); err != nil {
		return report(err, stderr)
	}
	return report(runMain(args, stdin, stdout, stderr), stderr)
}

// report prints an error as one line and returns the exit status for it.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var exit exitStatus
	if errors.As(err, &exit) {
		return int(exit)
	}
	// An error may quote what a server answered or a file held.
	fmt.Fprintf(stderr, "warden: %s\n", printableText(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}

// exitStatus ends the program with a status and nothing more to print.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// commonFlags are accepted by every command.
type commonFlags struct {
	model, baseURL, mode string
	allow, deny          stringList
	cont                 bool
	resume               string
	// pick is --resume without an id: the session picker.
	pick    bool
	trust   bool
	sandbox sandboxFlag
	version bool
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.model, "model", "", "model name")
	fs.StringVar(&c.baseURL, "base-url", "", "OpenAI-compatible base URL, e.g. http://localhost:11434/v1")
	fs.StringVar(&c.mode, "permission-mode", "", "default, accept-edits, plan or yolo")
	fs.Var(&c.allow, "allow", "allow rule, e.g. 'Bash(npm test:*)' (repeatable)")
	fs.Var(&c.deny, "deny", "deny rule (repeatable)")
	fs.BoolVar(&c.cont, "continue", false, "continue the latest session in this directory")
	fs.Var(resumeFlag{c}, "resume", "resume the session with this id; without one, pick a session")
	fs.BoolVar(&c.trust, "trust", false, "trust this workspace's project settings for this run")
	fs.Var(&c.sandbox, "sandbox", "run commands in the sandbox (on|off)")
	fs.BoolVar(&c.version, "version", false, "print the version")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses and turns flag errors into one-line usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{fmt.Sprintf("%v; run warden --help for usage", err)}
	}
	return nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// sandboxFlag is --sandbox, --sandbox=on or --sandbox=off.
type sandboxFlag struct {
	set, on bool
}

func (f *sandboxFlag) IsBoolFlag() bool { return true }
func (f *sandboxFlag) String() string {
	if !f.set {
		return ""
	}
	if f.on {
		return "on"
	}
	return "off"
}
func (f *sandboxFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "on", "true", "1", "yes":
		f.set, f.on = true, true
	case "off", "false", "0", "no":
		f.set, f.on = true, false
	default:
		return fmt.Errorf("--sandbox takes on or off, not %q", v)
	}
	return nil
}

func (f *sandboxFlag) value() *bool {
	if !f.set {
		return nil
	}
	on := f.on
	return &on
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `warden: a terminal coding agent

Usage:
  warden                          full-screen TUI in the current directory
  warden "PROMPT"                 the TUI, with PROMPT sent as the first message
  warden -p "PROMPT"              one request, headless (the prompt may also come on stdin: warden -p < file)
      --output-format text|json|stream-json   (default text)
  warden check [--stdin] [-- COMMAND...]      how the current settings would treat each command
  warden history [--session ID] [--json]     tool calls of a session (default: the latest here)
  warden sessions [--json]                   saved sessions of this directory, newest first
  warden undo [--session ID] [--to CALL_ID] [--yes]
                                             put the files back as they were before the last request
                                             (or before a call); shows what will change and asks
  warden mcp list [--json]                   configured MCP servers, their state and tools

Flags for all:
  --model M  --base-url URL  --permission-mode default|accept-edits|plan|yolo
  --allow RULE (repeatable)  --deny RULE (repeatable)  --continue  --resume [ID]  --trust
  --sandbox[=on|off]  --version
  Global flags go before or after a subcommand: warden --permission-mode plan check -- CMD

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, WARDEN_MODEL (flags win over env, env over settings files).
`)
}
