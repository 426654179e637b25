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
	c  *classifier
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

// systemBinDirs are the directories whose programs count as the system tool of the same name: on a
// normal system only root can write them, so /usr/bin/cat is cat. Anything else with a slash (./cat,
// bin/cat, /tmp/x/cat) may be any program.
var systemBinDirs = map[string]bool{
	"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true,
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

func (e *exec) run(words []word) {
	for layer := 0; ; layer++ {
		if layer > 32 {
			e.p.notRO("too many nested wrappers")
			return
		}
		e.p.Layers = append(e.p.Layers, values(words))
		e.p.Args = e.p.Layers[len(e.p.Layers)-1]
		e.p.static = make([]bool, len(words))
		e.p.glob = make([]bool, len(words))
		e.p.dir = e.scope().cwd
		for i, w := range words {
			e.p.static[i] = w.Static
			e.p.glob[i] = w.Glob
			if !w.Static {
				e.p.Static = false
			}
		}
		e.p.layerStatic = append(e.p.layerStatic, e.p.static)
		if len(words) == 0 {
			return
		}
		name := words[0]
		if name.Found {
			e.p.unsee(unseenProgram, "find runs each file it finds as the program")
			return
		}
		if !name.Static {
			e.p.unsee(unseenProgram, fmt.Sprintf("the program `%s` is only known at run time", name.Value))
			return
		}
		if name.Glob {
			e.globProgram(words)
			return
		}
		n := name.Value
		if cc := controlIn(n); cc != "" {
			e.p.notRO(fmt.Sprintf("the program name holds the control character %s", cc))
			return
		}
		if n == "" {
			e.p.notRO("the program name is empty")
			return
		}
		if strings.ContainsRune(n, '/') {
			if selfExe(n) {
				// The binary of the process that runs it: the shell running the command.
				n = "bash"
			} else {
				dir, base := filepath.Split(procRoot(n))
				if !systemBinDirs[filepath.Clean(dir)] || base == "" {
					if n = e.pathRun(words); n == "" {
						return
					}
				} else {
					n = base
				}
			}
		}
		e.dangerous(n, foundAsRoots(words))
		if layer == 0 && !e.p.fromFind && !strings.ContainsRune(name.Value, '/') {
			// Only the shell itself calls functions: wrappers, xargs and find run the program.
			if fn, ok := e.sc.funcs[n]; ok {
				if fn.dir == e.sc.cwd {
					e.sc.cwd = fn.after
					return
				}
				// A function runs where it is called: its body is judged again there.
				e.c.callFunction(n, fn, e.sc, "")
				return
			}
			// Judged as the program; Classify asks if the command defines a function of this name
			// anywhere, which bash may call here instead (see asFunction). The body is read where it is
			// called all the same, for deny and ask rules.
			e.p.called = n
			if fn, ok := e.c.funcBodies[n]; ok {
				e.c.callFunction(n, fn, e.sc.fork(), fmt.Sprintf("bash may run the function `%s` here", n))
			}
		}
		if !strings.ContainsRune(name.Value, '/') && !bashBuiltins[n] {
			if r := e.pathProgram(n); r != "" {
				e.p.notRO(r)
				return
			}
		}
		if w, ok := wrappers[n]; ok {
			inner := w(e, words)
			if len(inner) == 0 {
				if e.unknownTail && e.p.ReadOnly {
					// Under xargs, a wrapper left without a command gets it from stdin.
					e.p.notRO(fmt.Sprintf("`xargs %s` runs a command read from its input", n))
				}
				if inner == nil && !e.p.ReadOnly && slices.ContainsFunc(words, func(w word) bool { return !w.Static }) {
					// It stopped at a word only known at run time: what it runs is unknown.
					e.p.unsee(unseenProgram, fmt.Sprintf("`%s` is given words only known at run time, so what it runs is unknown", n))
				}
				return
			}
			words = inner
			e.p.openTail = e.unknownTail
			continue
		}
		if shells[n] {
			if inner := e.shell(n, words); len(inner) > 0 {
				// `sh -c '"$@"' _ rm -rf x` runs its arguments.
				words = inner
				continue
			}
			return
		}
		if n == "eval" {
			e.eval(words)
			return
		}
		s, ok := table[n]
		marks, before, dir := e.p.marks, e.p.unmodelled, e.dir
		if !ok {
			e.p.notRO(fmt.Sprintf("`%s` is not known to be read-only", display(words)))
		} else {
			e.check(n, s, words)
		}
		if e.p.marks > marks {
			// The program itself, not a redirection, does more than read.
			e.unseenIn(n, s, words)
			e.modelProgram(n, words, before, dir)
		}
		return
	}
}

// pathRun judges a program run by its path outside the system's directories. A link to a system
// program is that program, whose name it returns; a program or script in the workspace that is on disk
// before the command runs is the project's own, judged by the model of its name where Warden has one
// (.venv/bin/python) and otherwise given its arguments as paths it may read or write; anything else is
// not modelled. It returns "" when the part is judged.
func (e *exec) pathRun(words []word) string {
	name := words[0]
	reason := fmt.Sprintf("`%s` runs a program by its path, not a known system tool", name.Value)
	e.p.effect(reason)
	e.runsFile(name)
	e.linkedProgram(words)
	path := e.c.abs(name.Value, e.scope())
	if !filepath.IsAbs(path) {
		e.p.unmodel(reason)
		return ""
	}
	real := procRoot(e.c.resolved(path))
	if dir, base := filepath.Split(real); systemBinDirs[filepath.Clean(dir)] && base != "" {
		return base
	}
	if base := filepath.Base(real); isLoader(base) && !e.c.inside(real) {
		return "ld.so"
	}
	fi, err := os.Stat(path)
	if !e.c.inside(path) || err != nil || !fi.Mode().IsRegular() || e.unknownTail {
		e.p.unmodel(reason)
		return ""
	}
	if g, ok := models[filepath.Base(real)]; ok {
		if why := e.model(g, words); why != "" {
			e.p.unmodel(why)
		}
		return ""
	}
	e.besideRun(name)
	e.hand(words[1:])
	return ""
}

// besideRun records that a script or program run by its path may run what lies beside it (a script
// sourcing lib.sh): what the same command writes there is code written and run in one call.
func (e *exec) besideRun(w word) {
	if !w.Static || w.Glob {
		return
	}
	if p := e.c.abs(w.Value, e.scope()); filepath.IsAbs(p) {
		e.p.runsBelow = append(e.p.runsBelow, filepath.Dir(p))
	}
}

// bashBuiltins are run by bash itself, whatever PATH holds.
var bashBuiltins = map[string]bool{
	"echo": true, "printf": true, "test": true, "[": true, ":": true, "true": true, "false": true, "pwd": true,
	"cd": true, "pushd": true, "popd": true, "dirs": true, "jobs": true, "wait": true, "exit": true, "return": true,
	"break": true, "continue": true, "shift": true, "hash": true, "umask": true, "set": true, "shopt": true,
	"unset": true, "read": true, "alias": true, "type": true, "help": true, "times": true, "command": true,
	"builtin": true, "exec": true, "eval": true, "source": true, ".": true, "kill": true, "let": true, "local": true,
	"declare": true, "typeset": true, "export": true, "readonly": true, "getopts": true, "trap": true, "ulimit": true,
	"enable": true,
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

// shells are the programs that run a script: from -c, from a file, or from stdin.
var shells = map[string]bool{"bash": true, "rbash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "mksh": true,
	"ash": true, "fish": true}

// shell handles `bash -c BODY`, `bash <<EOF` and `bash script`: a body given inline is parsed and
// classified like the rest; a script file or stdin Warden cannot see is not read-only.
func (e *exec) shell(name string, words []word) []word {
	if name == "rbash" {
		name = "bash" // restricted bash reads commands as bash does
	}
	if name == "zsh" || name == "ksh" || name == "mksh" || name == "fish" {
		// Their syntax is not bash's: zsh's glob qualifiers *(e:cmd:) run code in what bash reads as a glob.
		// The body is read as bash all the same, for deny and ask rules only.
		reason := fmt.Sprintf("`%s` reads its commands differently from bash", name)
		e.p.unsee(unseenForeignBody, reason)
		for i := 1; i+1 < len(words); i++ {
			if v := words[i].Value; strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c") || v == "--command" {
				if words[i+1].Static {
					e.untrustedBody(words[i+1].Value, reason)
				}
				break
			}
		}
		return nil
	}
	var body *word
	sawC, sawS, login := false, false, false
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			e.p.unsee(unseenProgram, fmt.Sprintf("`%s` with an option only known at run time", name))
			return nil
		}
		v := w.Value
		if v == "--" || v == "-" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			switch v {
			case "--login":
				login = true
				continue
			case "--noprofile", "--norc", "--noediting", "--restricted":
				continue
			}
			// --posix finds special builtins before functions; --rcfile and --init-file run files.
			e.p.unsee(unseenUnread, fmt.Sprintf("`%s %s` is not checked", name, v))
			return nil
		}
		if len(v) < 2 || v[0] != '-' && v[0] != '+' {
			break
		}
		// Letters cluster; each o or O takes the next word, in order (bash -euxo pipefail -c ...).
		for _, ch := range v[1:] {
			switch {
			case ch == 'c':
				sawC = true
			case ch == 's':
				sawS = true
			case ch == 'l':
				login = true
			case ch == 'r':
			case ch == 'i':
				e.p.unsee(unseenUnread, fmt.Sprintf("`%s -i` runs an interactive shell", name))
				return nil
			case ch == 'o':
				i++
				if i >= len(words) || !words[i].Static || !setNames[words[i].Value] {
					e.p.unsee(unseenShellRules, fmt.Sprintf("`%s %co` sets an option that changes how the shell reads commands", name, v[0]))
					return nil
				}
			case ch == 'O':
				e.p.unsee(unseenShellRules, fmt.Sprintf("`%s %cO` changes how the shell expands words", name, v[0]))
				return nil
			case !strings.ContainsRune(setLetters, ch):
				// -k takes NAME=VALUE anywhere as environment; -H expands history.
				e.p.unsee(unseenShellRules, fmt.Sprintf("`%s %c%c` changes how the shell reads commands", name, v[0], ch))
				return nil
			}
		}
	}
	if login {
		e.loginReads(name)
	}
	if sawC {
		if i >= len(words) {
			if e.unknownTail {
				e.p.unsee(unseenStreamCode, fmt.Sprintf("`xargs %s -c` runs the commands its input holds", name))
				return nil
			}
			e.p.notRO(fmt.Sprintf("`%s -c` without a command", name))
			return nil
		}
		body = &words[i]
		if !body.Static {
			e.p.unsee(unseenProgram, fmt.Sprintf("`%s -c` runs a command only known at run time", name))
			return nil
		}
		switch strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body.Value), "exec ")) {
		case `"$@"`, `$@`:
			// The body runs the words after $0.
			if i+2 < len(words) {
				return words[i+2:]
			}
		case `"$0" "$@"`, `$0 "$@"`, `$0 $@`:
			if i+1 < len(words) {
				return words[i+1:]
			}
		}
		e.nested(body.Value, name != "bash")
		return nil
	}
	if i < len(words) && !sawS && (!words[i].Static || e.stdin == nil || !isStdin(words[i].Value) && !isStdin(e.c.abs(words[i].Value, e.scope()))) {
		// A script on disk before the command runs is the project's own; its arguments are paths it
		// may read or write.
		e.p.effect(fmt.Sprintf("`%s %s` runs a script Warden cannot see", name, words[i].Value))
		e.runsScript(words[i])
		e.besideRun(words[i])
		e.hand(words[i+1:])
		return nil
	}
	if e.stdin == nil {
		e.p.unsee(unseenStreamCode, fmt.Sprintf("`%s` runs commands from its input, which Warden cannot see", name))
		// A pipeline may tell what that input is (`echo 'rm x' | sh`), for deny and ask rules.
		e.p.scriptFromInput = true
		return nil
	}
	doc := *e.stdin
	if !doc.Static {
		e.p.unsee(unseenStreamCode, fmt.Sprintf("`%s` runs a here-document only known at run time", name))
		return nil
	}
	e.nested(doc.Value, name != "bash")
	return nil
}

// eval runs its words, joined with blanks, as a command of this shell. Words known before running are
// read as that command for deny and ask rules; eval itself always asks.
func (e *exec) eval(words []word) {
	reason := "`eval` runs its words as a command"
	e.p.unsee(unseenForeignBody, reason)
	for _, w := range words[1:] {
		if !w.Static {
			e.p.unsee(unseenProgram, "`eval` runs words only known at run time")
			return
		}
	}
	e.untrustedBody(strings.Join(values(words[1:]), " "), reason)
}

// untrustedBody reads a body Warden does not judge (another shell's, eval's, one a shell reads from a
// pipe) as bash, so that deny and ask rules see the commands in it. Every part found is not read-only
// and only known at run time.
func (e *exec) untrustedBody(body, reason string) {
	e.c.untrustedScript(body, e.p.Text, e.scope().cwd, e.lv.depth+1, reason)
}

func (c *classifier) untrustedScript(body, anchor, cwd string, depth int, reason string) {
	before := c.untrusted
	c.untrusted = reason
	c.script(body, anchor, &scope{cwd: cwd}, depth, false)
	c.untrusted = before
}

// nested classifies a script body found inside this part. Its parts are added on their own; this part
// itself (the shell) changes nothing. posix is set when /bin/sh (or another POSIX shell) runs the body.
func (e *exec) nested(body string, posix bool) {
	// A new shell knows neither this one's functions nor its unexported variables.
	inner := scope{cwd: e.scope().cwd}
	e.c.script(body, e.p.Text, &inner, e.lv.depth+1, posix)
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

// resolved resolves an absolute path the way the kernel walks it, from the workspace when it lies below
// it and the workspace is known resolved.
func (c *classifier) resolved(path string) string {
	if c.ctx.rootsResolved && c.ctx.Workspace != "" && filepath.IsAbs(path) {
		return resolveBelow(c.ctx.Workspace, path)
	}
	return ResolvePath("/", path, c.ctx.Home)
}

// resolvedFrom is ResolvePath(cwd, path, home), walked from the workspace where it can be.
func (c *classifier) resolvedFrom(cwd, path string) string {
	if path == "~" || strings.HasPrefix(path, "~/") || !filepath.IsAbs(cwd) && !filepath.IsAbs(path) {
		return ResolvePath(cwd, path, c.ctx.Home)
	}
	if !filepath.IsAbs(path) {
		path = cwd + "/" + path
	}
	return c.resolved(path)
}

// inside reports whether an absolute path lies in the workspace or an additional directory.
func (c *classifier) inside(path string) bool {
	if c.roots == nil {
		c.roots = []string{}
		if c.ctx.rootsResolved {
			// The engine resolved them when it was built.
			if c.ctx.Workspace != "" {
				c.roots = append(append(c.roots, c.ctx.Workspace), c.ctx.AdditionalDirectories...)
			}
		} else if c.ctx.Workspace != "" {
			c.roots = append(c.roots, ResolvePath("/", c.ctx.Workspace, c.ctx.Home))
			for _, d := range c.ctx.AdditionalDirectories {
				c.roots = append(c.roots, ResolvePath(c.roots[0], d, c.ctx.Home))
			}
		}
	}
	for _, r := range c.roots {
		if within(r, path) {
			return true
		}
	}
	return false
}

// foundAsRoots returns words with find's {} taken as the search root it stands for, which is what
// decides whether removing it is catastrophic.
func foundAsRoots(words []word) []word {
	out := words
	for i, w := range words {
		if w.Found {
			if &out[0] == &words[0] {
				out = append([]word(nil), words...)
			}
			out[i].Static = true
		}
	}
	return out
}
