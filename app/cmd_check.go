package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/sandbox"
)

// runCheck prints how the current settings would treat each command, one JSON object per line
// (DESIGN.md §2). It exits 0 even when commands would ask or be denied.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("check")
	var common commonFlags
	common.register(fs)
	fromStdin := fs.Bool("stdin", false, "read one command per line from stdin (a line starting with \" is a JSON string)")
	if err := parseFlags(fs, args); err != nil {
		return helpOr(err, stdout)
	}
	if _, err := permissions.ParseMode(common.mode); err != nil {
		return usageError{err.Error()}
	}
	commands := checkArgs(fs.Args())
	if *fromStdin {
		lines, err := permissions.ReadCheckLines(stdin)
		if err != nil {
			return usageError{fmt.Sprintf("reading commands from stdin: %v", err)}
		}
		commands = append(commands, lines...)
	}
	if len(commands) == 0 {
		return usageError{"no command to check: give it after -- or use --stdin"}
	}
	cfg, err := loadConfig(&common)
	if err != nil {
		return err
	}
	sayConfigWarnings(stderr, cfg)
	// With a sandbox asked for, commands are judged as a session would judge them: auto_allow counts only
	// when a sandbox can really be had.
	sandboxed := false
	if cfg.SandboxEnabled {
		_, perr := sandbox.Probe(sandboxConfig(cfg), ownPrograms(cfg))
		sandboxed = perr == nil
	}
	engine, err := newEngine(cfg, sandboxed)
	if err != nil {
		return err
	}
	// A command runs in the read-only jail when it would run unasked because it is read-only, and the
	// jail is on and can be built here.
	wall := false
	if cfg.SandboxJail {
		helper, _ := hostexec.Self()
		_, werr := bash.ProbeWall(helper, ownPrograms(cfg))
		wall = werr == nil
	}
	// Programs whose only risk is running project code are read-only inside the jail.
	engine.SetReadOnlyJail(wall)
	results := make([]checkLine, 0, len(commands))
	for _, c := range commands {
		v := engine.Decide(permissions.Request{Kind: permissions.Exec, Command: c, Cwd: cfg.Workspace})
		results = append(results, checkLine{CheckResult: permissions.Check(engine, c, cfg.Workspace),
			Jailed: wall && v.Decision == permissions.Allow && v.By == "readonly"})
	}
	return writeJSONLines(stdout, results)
}

// checkLine is one line of `warden check`: the engine's judgement and whether the command would run in
// the read-only jail.
type checkLine struct {
	permissions.CheckResult
	Jailed bool `json:"jailed"`
}

// checkArgs turns the words after `--` into commands: `warden check -- git status` is one command, its
// words quoted for the shell where they need it, while `warden check -- 'ls -la' 'git push'` (a first
// word with a blank in it) gives one command per word.
func checkArgs(args []string) []string {
	if len(args) < 2 || strings.ContainsAny(args[0], " \t\n") {
		return args
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return []string{strings.Join(quoted, " ")}
}

// shellQuote quotes a word for bash unless it holds only characters that need none.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
