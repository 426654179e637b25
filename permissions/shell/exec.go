package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Exec evaluates one simple command: it peels wrappers layer by layer and checks the program that is
// finally run against its table entry.
type Exec struct {
	S  *State
	Lv *Level
	Sc *Scope
	P  *Part
	// Stdin is the here-document or here-string fed to the command, if any.
	Stdin *Word
	// Dir is the directory the program runs in when a wrapper changed it (env -C, git -C); empty means
	// the scope's directory.
	Dir string
	// UnknownTail is set under xargs: more arguments, unseen, are appended at run time.
	UnknownTail bool
	// FoundRead is set when the program reads the files find -exec gives it as {}.
	FoundRead bool
	// XargsFile is set when xargs reads its arguments from a file (-a), which no pipe models.
	XargsFile bool
	// Env are the variables the command line gives the program over those commands inherit: the
	// assignments in front of it, `env NAME=value`, and what git's -c puts in GIT_CONFIG_PARAMETERS.
	Env map[string]string
	// ConfigRuns is why a reading git command is not read-only when the only reason is a program its
	// configuration names: the configuration on disk is the project's or the person's own.
	ConfigRuns string
}

// SetEnv records a variable the command line gives the program.
func (e *Exec) SetEnv(name, value string) {
	if e.Env == nil {
		e.Env = map[string]string{}
	}
	e.Env[name] = value
}

// LookupEnv looks a variable up in the environment the program runs with.
func (e *Exec) LookupEnv(name string) (string, bool) {
	if v, ok := e.Env[name]; ok {
		return v, true
	}
	return e.S.LookupEnv(name)
}

func Values(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// Scope returns the scope programs of this command run in.
func (e *Exec) Scope() *Scope {
	if e.Dir != "" {
		return &Scope{Cwd: e.Dir}
	}
	return e.Sc
}

// Display names a command for a reason: the program and, for programs with subcommands, the subcommand.
func Display(words []Word) string {
	if len(words) == 0 {
		return ""
	}
	name := filepath.Base(words[0].Value)
	if HasSubcommands[name] {
		for i := 1; i < len(words); i++ {
			v := words[i].Value
			if name == "git" && (v == "-C" || v == "-c") {
				i++ // the value of a global option, not the subcommand
				continue
			}
			if !strings.HasPrefix(v, "-") {
				return name + " " + v
			}
		}
	}
	return name
}

var HasSubcommands = map[string]bool{
	"git": true, "npm": true, "go": true, "cargo": true, "docker": true, "kubectl": true, "yarn": true,
	"pnpm": true, "pip": true, "pip3": true, "brew": true, "apt": true, "apt-get": true, "systemctl": true,
	"gh": true, "make": false, "terraform": true, "helm": true, "bun": true, "uv": true, "poetry": true,
}

// Untrusted reads a body Warden does not judge (another shell's, eval's, one a shell reads from a
// pipe) as bash, so that deny and ask rules see the commands in it. Every part found is not read-only
// and only known at run time.
func (e *Exec) Untrusted(body, reason string) {
	e.S.Judge.Untrusted(e, body, reason)
}

// Script classifies a script body found inside this part. Its parts are added on their own; this part
// itself (the shell) changes nothing. posix is set when /bin/sh (or another POSIX shell) runs the body.
func (e *Exec) Script(body string, posix bool) {
	e.S.Judge.Script(e, body, posix)
}

// CD follows a change of directory. Inside the workspace it is read-only and later relative paths
// resolve against the new directory; anywhere else it asks, since the session's directory persists.
func (e *Exec) CD(words []Word) {
	args := words[1:]
	physical := false
	for len(args) > 0 && (args[0].Value == "-L" || args[0].Value == "-P" || args[0].Value == "-e" || args[0].Value == "-@") {
		physical = args[0].Value == "-P" || physical && args[0].Value != "-L"
		args = args[1:]
	}
	if physical && len(args) > 0 && slices.Contains(strings.Split(args[0].Value, "/"), "..") {
		// cd -P resolves a link before `..`; Warden follows `..` first, as plain cd does.
		e.P.Effect(fmt.Sprintf("`cd -P %s` goes up from where a link points", args[0].Value))
		e.Sc.Cwd = ""
		return
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	var target string
	switch {
	case len(args) == 0:
		target = e.S.Ctx.Home
	case len(args) > 1:
		e.P.Effect("`cd` with more than one directory")
		e.Sc.Cwd = ""
		return
	case !args[0].Static || args[0].Glob || args[0].Value == "-":
		e.P.Effect(fmt.Sprintf("`cd %s` goes to a directory only known at run time", args[0].Value))
		e.Sc.Cwd = ""
		return
	default:
		target = args[0].Value
	}
	if target == "" || (!filepath.IsAbs(target) && e.Sc.Cwd == "") {
		e.P.Effect("`cd` from a directory Warden lost track of")
		e.Sc.Cwd = ""
		return
	}
	dir := e.S.resolvedFrom(e.Sc.Cwd, target)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		// The cd fails, and what follows it runs where the command began, not where it names.
		e.P.Effect(fmt.Sprintf("`cd %s` names no directory that exists", target))
		e.Sc.Cwd = ""
		return
	}
	e.Sc.Cwd = dir
	if !e.S.Inside(dir) {
		e.P.Effect(fmt.Sprintf("`cd %s` leaves the workspace", target))
	}
}

// Chdir records a directory change made by a wrapper (env -C, git -C) for the paths of the inner command.
func (e *Exec) Chdir(dir string) {
	base := e.Scope().Cwd
	if base == "" && !strings.HasPrefix(dir, "/") {
		e.Dir = ""
		e.P.NotRO(fmt.Sprintf("changes to `%s` from a directory Warden lost track of", dir))
		return
	}
	e.Dir = e.S.resolvedFrom(base, dir)
}
