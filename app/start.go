package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/piped"
)

// The main command, `warden [PROMPT]` and `warden -p`: its flags and prompt are read, and the session runs
// full-screen or headless.

// runMain reads the main command's flags and prompt words. Headless is -p, or standard input that is not
// a terminal with no prompt words (the prompt then comes on it); piped input beside prompt words goes
// with the prompt, headless with -p and to the TUI without.
func runMain(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("warden")
	var common commonFlags
	common.register(fs)
	var prompt promptFlag
	fs.Var(&prompt, "p", "run one request headless; the prompt follows, or comes on stdin")
	fs.Var(&prompt, "print", "same as -p")
	format := fs.String("output-format", agent.FormatText, "text, json or stream-json")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return nil
		}
		return err
	}
	if common.version {
		fmt.Fprintf(stdout, "warden %s\n", version)
		return nil
	}
	switch *format {
	case agent.FormatText, agent.FormatJSON, agent.FormatStreamJSON:
	default:
		return usageError{fmt.Sprintf("unknown --output-format %q: use text, json or stream-json", *format)}
	}
	headless := prompt.set || (!isTerminal(stdin) && len(words) == 0) // echo "fix it" | warden: the prompt comes on stdin
	err = startMain(version, &common, prompt.text, words, headless, *format, stdin, stdout, stderr)
	if headless {
		setupFailure(stdout, *format, err)
	}
	return err
}

// startMain runs the TUI, or one headless request, once the flags are read.
func startMain(version string, c *commonFlags, flagPrompt string, words []string, headless bool, format string, stdin io.Reader, stdout, stderr io.Writer) error {
	if _, err := permissions.ParseMode(c.mode); err != nil {
		return usageError{err.Error()}
	}
	if err := notYet(c); err != nil {
		return err
	}
	text := strings.TrimSpace(flagPrompt + " " + strings.Join(words, " "))
	if !headless {
		var in *piped.Input
		if !isTerminal(stdin) {
			if err := needTerminal(); err != nil {
				return err
			}
			var err error
			if in, err = readPiped(stdin, stderr); err != nil {
				return err
			}
		}
		return runTUI(version, c, text, in, stdout)
	}
	if c.pick {
		return usageError{"--resume needs a session id with -p (warden sessions lists them)"}
	}
	if text != "" && text != "-" && !isTerminal(stdin) {
		in, err := readPiped(stdin, stderr)
		if err != nil {
			return err
		}
		text = in.Message(text)
	}
	if text == "" || text == "-" {
		if isTerminal(stdin) {
			return usageError{"empty prompt: give the request with -p \"PROMPT\" or on stdin (warden -p < file)"}
		}
		b, err := io.ReadAll(io.LimitReader(stdin, 10<<20))
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		text = strings.TrimSpace(string(b))
	}
	if text == "" {
		return usageError{"empty prompt: give the request with -p \"PROMPT\" or on stdin"}
	}
	return runHeadless(version, c, text, format, stdout, stderr)
}

// notYet refuses flag combinations that make no sense, rather than ignoring one.
func notYet(c *commonFlags) error {
	if c.cont && (c.resume != "" || c.pick) {
		return usageError{"use either --continue or --resume, not both"}
	}
	return nil
}
