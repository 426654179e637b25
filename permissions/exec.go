package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// exec evaluates one simple command: it peels wrappers layer by layer and checks the program that is
// finally run against its table entry.
type exec struct {
	c  *State
	lv *level
	sc *scope
	p  *Part
	// stdin is the here-document or here-string fed to the command, if any.
	stdin *word
	// dir is the directory the program runs in when a wrapper changed it (env -C, git -C); empty means
	// the scope's directory.
	dir string
	// unknownTail is set under xargs: more arguments, unseen, are appended at run time.
	unknownTail bool
	// foundRead is set when the program reads the files find -exec gives it as {}.
	foundRead bool
	// xargsFile is set when xargs reads its arguments from a file (-a), which no pipe models.
	xargsFile bool
	// env are the variables the command line gives the program over those commands inherit: the
	// assignments in front of it, `env NAME=value`, and what git's -c puts in GIT_CONFIG_PARAMETERS.
	env map[string]string
	// configRuns is why a reading git command is not read-only when the only reason is a program its
	// configuration names: the configuration on disk is the project's or the person's own.
	configRuns string
}

// setEnv records a variable the command line gives the program.
func (e *exec) setEnv(name, value string) {
	if e.env == nil {
		e.env = map[string]string{}
	}
	e.env[name] = value
}

// lookupEnv looks a variable up in the environment the program runs with.
func (e *exec) lookupEnv(name string) (string, bool) {
	if v, ok := e.env[name]; ok {
		return v, true
	}
	return e.c.lookupEnv(name)
}

func values(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// scope returns the scope programs of this command run in.
func (e *exec) scope() *scope {
	if e.dir != "" {
		return &scope{cwd: e.dir}
	}
	return e.sc
}

// display names a command for a reason: the program and, for programs with subcommands, the subcommand.
func display(words []word) string {
	if len(words) == 0 {
		return ""
	}
	name := filepath.Base(words[0].Value)
	if hasSubcommands[name] {
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

var hasSubcommands = map[string]bool{
	"git": true, "npm": true, "go": true, "cargo": true, "docker": true, "kubectl": true, "yarn": true,
	"pnpm": true, "pip": true, "pip3": true, "brew": true, "apt": true, "apt-get": true, "systemctl": true,
	"gh": true, "make": false, "terraform": true, "helm": true, "bun": true, "uv": true, "poetry": true,
}

// untrustedBody reads a body Warden does not judge (another shell's, eval's, one a shell reads from a
// pipe) as bash, so that deny and ask rules see the commands in it. Every part found is not read-only
// and only known at run time.
func (e *exec) untrustedBody(body, reason string) {
	e.c.judge.Untrusted(e, body, reason)
}

// nested classifies a script body found inside this part. Its parts are added on their own; this part
// itself (the shell) changes nothing. posix is set when /bin/sh (or another POSIX shell) runs the body.
func (e *exec) nested(body string, posix bool) {
	e.c.judge.Script(e, body, posix)
}

// cd follows a change of directory. Inside the workspace it is read-only and later relative paths
// resolve against the new directory; anywhere else it asks, since the session's directory persists.
func (e *exec) cd(words []word) {
	args := words[1:]
	physical := false
	for len(args) > 0 && (args[0].Value == "-L" || args[0].Value == "-P" || args[0].Value == "-e" || args[0].Value == "-@") {
		physical = args[0].Value == "-P" || physical && args[0].Value != "-L"
		args = args[1:]
	}
	if physical && len(args) > 0 && slices.Contains(strings.Split(args[0].Value, "/"), "..") {
		// cd -P resolves a link before `..`; Warden follows `..` first, as plain cd does.
		e.p.effect(fmt.Sprintf("`cd -P %s` goes up from where a link points", args[0].Value))
		e.sc.cwd = ""
		return
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	var target string
	switch {
	case len(args) == 0:
		target = e.c.ctx.Home
	case len(args) > 1:
		e.p.effect("`cd` with more than one directory")
		e.sc.cwd = ""
		return
	case !args[0].Static || args[0].Glob || args[0].Value == "-":
		e.p.effect(fmt.Sprintf("`cd %s` goes to a directory only known at run time", args[0].Value))
		e.sc.cwd = ""
		return
	default:
		target = args[0].Value
	}
	if target == "" || (!filepath.IsAbs(target) && e.sc.cwd == "") {
		e.p.effect("`cd` from a directory Warden lost track of")
		e.sc.cwd = ""
		return
	}
	dir := e.c.resolvedFrom(e.sc.cwd, target)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		// The cd fails, and what follows it runs where the command began, not where it names.
		e.p.effect(fmt.Sprintf("`cd %s` names no directory that exists", target))
		e.sc.cwd = ""
		return
	}
	e.sc.cwd = dir
	if !e.c.inside(dir) {
		e.p.effect(fmt.Sprintf("`cd %s` leaves the workspace", target))
	}
}

// chdir records a directory change made by a wrapper (env -C, git -C) for the paths of the inner command.
func (e *exec) chdir(dir string) {
	base := e.scope().cwd
	if base == "" && !strings.HasPrefix(dir, "/") {
		e.dir = ""
		e.p.notRO(fmt.Sprintf("changes to `%s` from a directory Warden lost track of", dir))
		return
	}
	e.dir = e.c.resolvedFrom(base, dir)
}
