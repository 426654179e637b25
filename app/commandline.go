package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// How the command line is read: global flags before or after a subcommand, a prompt given as words
// (warden "fix the bug"), -p with or without its prompt, --resume with or without an id.

// subcommand is one of warden's commands; words is how many words it takes before its flags (mcp list).
type subcommand struct {
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
	words int
}

// valueFlags take their value from the next argument when it is not given with "=".
var valueFlags = map[string]bool{"model": true, "base-url": true, "permission-mode": true, "allow": true,
	"deny": true, "output-format": true}

// splitCommand finds the subcommand among args, if any: the first word that is not a flag or a flag's
// value. The global flags given before it are moved after it (and after the words it takes, wherever they
// stand), so that `warden --permission-mode plan check -- ls` reads as `warden check --permission-mode plan
// -- ls`. A
// first word that names no subcommand is a prompt, and args are the main command's.
func splitCommand(args []string, commands map[string]subcommand) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return "", args
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valueFlags[name] {
				i++
			}
			continue
		}
		c, ok := commands[a]
		if !ok {
			return "", args
		}
		words, flags := commandWords(args[i+1:], c.words)
		return a, append(append(words, args[:i]...), flags...)
	}
	return "", args
}

// commandWords takes the first n words of a command (mcp list) from after its name, wherever flags stand
// among them (warden mcp --trust list), and returns them and the rest in order. "--" ends the search.
func commandWords(after []string, n int) (words, rest []string) {
	for i := 0; i < len(after); i++ {
		a := after[i]
		switch {
		case len(words) == n || a == "--":
			return words, append(rest, after[i:]...)
		case strings.HasPrefix(a, "-") && a != "-":
			rest = append(rest, a)
			if name := strings.TrimLeft(a, "-"); !strings.Contains(name, "=") && valueFlags[name] && i+1 < len(after) {
				i++
				rest = append(rest, after[i])
			}
		default:
			words = append(words, a)
		}
	}
	return words, rest
}

// parseInterspersed parses flags wherever they are among the words of the main command's prompt, and
// returns the words; everything after "--" is words.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(words, rest...), nil
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
}

// promptFlag is -p: alone it runs headless with the prompt read from stdin (or given as words), with a
// value (-p=PROMPT) the value is the prompt.
type promptFlag struct {
	set  bool
	text string
}

func (p *promptFlag) IsBoolFlag() bool { return true }
func (p *promptFlag) String() string   { return p.text }
func (p *promptFlag) Set(v string) error {
	p.set = true
	if v != "true" {
		p.text = v
	}
	return nil
}

// resumeFlag is --resume: with an id (--resume=ID, or --resume ID as resumeArgs rewrites it) that session,
// alone the picker of this directory's sessions.
type resumeFlag struct{ c *commonFlags }

func (r resumeFlag) IsBoolFlag() bool { return true }
func (r resumeFlag) String() string {
	if r.c == nil {
		return ""
	}
	return r.c.resume
}
func (r resumeFlag) Set(v string) error {
	if v == "true" {
		r.c.pick = true
		return nil
	}
	r.c.resume = v
	return nil
}

// resumeArgs rewrites `--resume ID` as `--resume=ID` when what follows could be an id: one word, not a
// flag. --resume followed by anything else (a prompt of several words, a flag, nothing) stays alone and
// asks for the picker.
func resumeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--resume" || a == "-resume" || a == "-r" || a == "--r") && i+1 < len(args) && isSessionID(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func isSessionID(s string) bool {
	return s != "" && !strings.HasPrefix(s, "-") && !strings.ContainsAny(s, " \t\n")
}

// typoOfCommand refuses a lone word one letter away from a command's name (warden sesions): sent as a
// prompt, it would start a session the person did not mean to.
func typoOfCommand(args []string, commands map[string]subcommand) error {
	var words []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	if len(words) != 1 {
		return nil
	}
	for name := range commands {
		if oneEditApart(words[0], name) {
			return usageError{fmt.Sprintf("unknown command %q; did you mean %q? (run warden --help for usage)", words[0], name)}
		}
	}
	return nil
}

// oneEditApart reports two different words that one insertion, deletion, change or swap of neighbours
// turns into each other.
func oneEditApart(a, b string) bool {
	if a == b || len(a) < 3 {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(rb)-len(ra) > 1 {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	if len(ra) == len(rb) {
		if string(ra[i+1:]) == string(rb[i+1:]) {
			return true
		}
		return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
	}
	return string(ra[i:]) == string(rb[i+1:])
}

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
	fs.StringVar(&c.mode, "permission-mode", "", "default, accept-edits, plan or yolo (or acceptEdits, bypassPermissions)")
	fs.Var(&c.allow, "allow", "allow rule, e.g. 'Bash(npm test:*)' (repeatable)")
	fs.Var(&c.deny, "deny", "deny rule (repeatable)")
	// -c and -r are Claude Code's short names for the same flags.
	fs.BoolVar(&c.cont, "continue", false, "continue the latest session in this directory")
	fs.BoolVar(&c.cont, "c", false, "same as --continue")
	fs.Var(resumeFlag{c}, "resume", "resume the session with this id; without one, pick a session")
	fs.Var(resumeFlag{c}, "r", "same as --resume")
	fs.BoolVar(&c.trust, "trust", false, "approve everything this workspace's files loosen, for this run alone")
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
  warden -p "PROMPT"              one request, headless (also --print; the prompt may also come on stdin:
                                  warden -p < file)
  git diff | warden [-p] "PROMPT" the prompt and the piped text in one message (headless, or the TUI)
      --output-format text|json|stream-json   (default text)
  warden check [--stdin] [-- COMMAND...]      how the current settings would treat each command
  warden history [--session ID] [--json]     tool calls of a session (default: the latest here)
  warden sessions [--json]                   saved sessions of this directory, newest first
  warden undo [--session ID] [--to CALL_ID] [--yes]
                                             put the files back as they were before the last request
                                             (or before a call); shows what will change and asks
  warden mcp list [--json]                   configured MCP servers, their state and tools
  warden trust [--yes] | --list | --revoke   approve what this workspace's files loosen (asks unless --yes),
                                             list each item and your answer, or forget your answers

Flags for all:
  --model M  --base-url URL  --permission-mode default|accept-edits|plan|yolo (also acceptEdits,
  bypassPermissions)  --allow RULE (repeatable)  --deny RULE (repeatable)  -c/--continue
  -r/--resume [ID]  --trust  --sandbox[=on|off]  --version
  Global flags go before or after a subcommand: warden --permission-mode plan check -- CMD

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, WARDEN_MODEL (flags win over env, env over settings files).
`)
}

func helpOr(err error, stdout io.Writer) error {
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return nil
	}
	return err
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
