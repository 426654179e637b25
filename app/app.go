package app

import (
	"fmt"
	"io"
)

// Run runs one command line of Warden (args without the program's name) and returns its exit status.
// version is this build's, which --version prints and MCP servers are told.
func Run(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A bug must not greet the person with a stack trace: one line, and the exit status of an error.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "warden: internal error: %s (this is a bug in Warden; please report it)\n", printableText(fmt.Sprint(r)))
			code = exitError
		}
	}()
	commands := subcommands(version)
	args = resumeArgs(args)
	cmd, args := splitCommand(args, commands)
	if c, ok := commands[cmd]; ok {
		return report(c.run(args, stdin, stdout, stderr), stderr)
	}
	if err := typoOfCommand(args, commands); err != nil {
		return report(err, stderr)
	}
	return report(runMain(version, args, stdin, stdout, stderr), stderr)
}

// subcommands are warden's commands by name. Each takes the global flags (commonFlags) wherever they are
// given, even where it uses none of them: a person who put --trust before every command must not be
// refused by one.
func subcommands(version string) map[string]subcommand {
	return map[string]subcommand{
		"check":    {run: runCheck},
		"sessions": {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runSessions(a, out, errw) }},
		"history":  {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runHistory(a, out, errw) }},
		"undo":     {run: runUndo},
		"trust":    {run: runTrust},
		"mcp":      {run: func(a []string, _ io.Reader, out, errw io.Writer) error { return runMCP(version, a, out, errw) }, words: 1},
		"help": {run: func(_ []string, _ io.Reader, out, _ io.Writer) error {
			printUsage(out)
			return nil
		}},
	}
}
