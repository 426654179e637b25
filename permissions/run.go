package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/models"
	"github.com/warden-cli/warden/permissions/programs"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
)

func (c *classifier) run(e *shell.Exec, words []shell.Word) {
	for layer := 0; ; layer++ {
		if layer > 32 {
			e.P.NotRO("too many nested wrappers")
			return
		}
		e.P.Layers = append(e.P.Layers, shell.Values(words))
		e.P.Args = e.P.Layers[len(e.P.Layers)-1]
		e.P.ArgStatic = make([]bool, len(words))
		e.P.ArgGlob = make([]bool, len(words))
		e.P.ArgDir = e.Scope().Cwd
		for i, w := range words {
			e.P.ArgStatic[i] = w.Static
			e.P.ArgGlob[i] = w.Glob
			if !w.Static {
				e.P.Static = false
			}
		}
		e.P.LayerStatic = append(e.P.LayerStatic, e.P.ArgStatic)
		if len(words) == 0 {
			return
		}
		name := words[0]
		if name.Found {
			e.P.Unsee(shell.UnseenProgram, "find runs each file it finds as the program")
			return
		}
		if !name.Static {
			e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("the program `%s` is only known at run time", name.Value))
			return
		}
		if name.Glob {
			models.GlobProgram(e, words)
			return
		}
		n := name.Value
		if cc := controlIn(n); cc != "" {
			e.P.NotRO(fmt.Sprintf("the program name holds the control character %s", cc))
			return
		}
		if n == "" {
			e.P.NotRO("the program name is empty")
			return
		}
		if strings.ContainsRune(n, '/') {
			if shell.SelfExe(n) {
				// The binary of the process that runs it: the shell running the command.
				n = "bash"
			} else {
				dir, base := filepath.Split(shell.ProcRoot(n))
				if !shell.SystemBinDir(filepath.Clean(dir)) || base == "" {
					if n = c.pathRun(e, words); n == "" {
						return
					}
				} else {
					n = base
				}
			}
		}
		programs.Dangerous(e, n, foundAsRoots(words))
		if layer == 0 && !e.P.FromFind && !strings.ContainsRune(name.Value, '/') {
			// Only the shell itself calls functions: wrappers, xargs and find run the program.
			if fn, ok := e.Sc.Funcs[n]; ok {
				if fn.Dir == e.Sc.Cwd {
					e.Sc.Cwd = fn.After
					return
				}
				// A function runs where it is called: its body is judged again there.
				c.callFunction(n, fn, e.Sc, "")
				return
			}
			// Judged as the program; Classify asks if the command defines a function of this name
			// anywhere, which bash may call here instead (see asFunction). The body is read where it is
			// called all the same, for deny and ask rules.
			e.P.Called = n
			if fn, ok := c.funcBodies[n]; ok {
				c.callFunction(n, fn, e.Sc.Fork(), fmt.Sprintf("bash may run the function `%s` here", n))
			}
		}
		if !strings.ContainsRune(name.Value, '/') && !bashBuiltins[n] {
			if r, runs, unknown := supplied.PathProgram(e, n); r != "" {
				e.P.NotRO(r)
				if unknown {
					// What it runs is unknown: under deny or ask rules it asks in every mode.
					e.P.Unsee(shell.UnseenProgram, r)
				}
				if runs != "" {
					// It runs the program the link leads to: a deny or ask rule naming that one holds,
					// and only an allow rule naming it covers the part.
					e.P.RunsAs = filepath.Base(runs)
					e.P.Layers = append(e.P.Layers, append([]string{runs}, shell.Values(words[1:])...))
					e.P.LayerStatic = append(e.P.LayerStatic, e.P.ArgStatic)
				}
				return
			}
		}
		if inner, ok := models.Peel(e, n, words); ok {
			if len(inner) == 0 {
				if e.UnknownTail && e.P.ReadOnly {
					// Under xargs, a wrapper left without a command gets it from stdin.
					e.P.NotRO(fmt.Sprintf("`xargs %s` runs a command read from its input", n))
				}
				if inner == nil && !e.P.ReadOnly && slices.ContainsFunc(words, func(w shell.Word) bool { return !w.Static }) {
					// It stopped at a word only known at run time: what it runs is unknown.
					e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("`%s` is given words only known at run time, so what it runs is unknown", n))
				}
				return
			}
			words = inner
			e.P.OpenTail = e.UnknownTail
			continue
		}
		if shells[n] {
			if inner := c.shell(e, n, words); len(inner) > 0 {
				// `sh -c '"$@"' _ rm -rf x` runs its arguments.
				words = inner
				continue
			}
			return
		}
		if n == "eval" {
			c.eval(e, words)
			return
		}
		s := programs.Lookup(n)
		marks, before, dir := e.P.Marks, e.P.Unmodelled, e.Dir
		if s == nil {
			e.P.NotRO(fmt.Sprintf("`%s` is not known to be read-only", shell.Display(words)))
		} else {
			programs.Check(e, n, s, words)
		}
		if e.P.Marks > marks {
			// The program itself, not a redirection, does more than read.
			models.UnseenIn(e, n, s, words)
			models.ModelProgram(e, n, words, before, dir)
		}
		return
	}
}

// pathRun judges a program run by its path outside the system's directories. A link to a system
// program is that program, whose name it returns; a program or script in the workspace that is on disk
// before the command runs is the project's own, judged by the model of its name where Warden has one
// (.venv/bin/python) and otherwise given its arguments as paths it may read or write; anything else is
// not modelled. It returns "" when the part is judged.
func (c *classifier) pathRun(e *shell.Exec, words []shell.Word) string {
	name := words[0]
	reason := fmt.Sprintf("`%s` runs a program by its path, not a known system tool", name.Value)
	e.P.Effect(reason)
	models.RunsFile(e, name)
	models.LinkedProgram(e, words)
	path := e.S.Abs(name.Value, e.Scope())
	if !filepath.IsAbs(path) {
		e.P.Unmodel(reason)
		return ""
	}
	real := shell.ProcRoot(e.S.Resolved(path))
	if dir, base := filepath.Split(real); shell.SystemBinDir(filepath.Clean(dir)) && base != "" {
		return base
	}
	if base := filepath.Base(real); models.IsLoader(base) && !e.S.Inside(real) {
		return "ld.so"
	}
	fi, err := os.Stat(path)
	if !e.S.Inside(path) || err != nil || !fi.Mode().IsRegular() || e.UnknownTail {
		e.P.Unmodel(reason)
		return ""
	}
	if why, ok := models.ModelOf(e, filepath.Base(real), words); ok {
		if why != "" {
			e.P.Unmodel(why)
		}
		return ""
	}
	besideRun(e, name)
	models.Hand(e, words[1:])
	return ""
}

// besideRun records that a script or program run by its path may run what lies beside it (a script
// sourcing lib.sh): what the same command writes there is code written and run in one call.
func besideRun(e *shell.Exec, w shell.Word) {
	if !w.Static || w.Glob {
		return
	}
	if p := e.S.Abs(w.Value, e.Scope()); filepath.IsAbs(p) {
		e.P.RunsBelow = append(e.P.RunsBelow, filepath.Dir(p))
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

// shells are the programs that run a script: from -c, from a file, or from stdin.
var shells = map[string]bool{"bash": true, "rbash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "mksh": true,
	"ash": true, "fish": true}

// shell handles `bash -c BODY`, `bash <<EOF` and `bash script`: a body given inline is parsed and
// classified like the rest; a script file or stdin Warden cannot see is not read-only.
func (c *classifier) shell(e *shell.Exec, name string, words []shell.Word) []shell.Word {
	if name == "rbash" {
		name = "bash" // restricted bash reads commands as bash does
	}
	if name == "zsh" || name == "ksh" || name == "mksh" || name == "fish" {
		// Their syntax is not bash's: zsh's glob qualifiers *(e:cmd:) run code in what bash reads as a glob.
		// The body is read as bash all the same, for deny and ask rules only.
		reason := fmt.Sprintf("`%s` reads its commands differently from bash", name)
		e.P.Unsee(shell.UnseenForeignBody, reason)
		for i := 1; i+1 < len(words); i++ {
			if v := words[i].Value; strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c") || v == "--command" {
				if words[i+1].Static {
					e.Untrusted(words[i+1].Value, reason)
				}
				break
			}
		}
		return nil
	}
	var body *shell.Word
	sawC, sawS, login := false, false, false
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("`%s` with an option only known at run time", name))
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
			e.P.Unsee(shell.UnseenUnread, fmt.Sprintf("`%s %s` is not checked", name, v))
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
				e.P.Unsee(shell.UnseenUnread, fmt.Sprintf("`%s -i` runs an interactive shell", name))
				return nil
			case ch == 'o':
				i++
				if i >= len(words) || !words[i].Static || !shell.SetNames[words[i].Value] {
					e.P.Unsee(shell.UnseenShellRules, fmt.Sprintf("`%s %co` sets an option that changes how the shell reads commands", name, v[0]))
					return nil
				}
			case ch == 'O':
				e.P.Unsee(shell.UnseenShellRules, fmt.Sprintf("`%s %cO` changes how the shell expands words", name, v[0]))
				return nil
			case !strings.ContainsRune(shell.SetLetters, ch):
				// -k takes NAME=VALUE anywhere as environment; -H expands history.
				e.P.Unsee(shell.UnseenShellRules, fmt.Sprintf("`%s %c%c` changes how the shell reads commands", name, v[0], ch))
				return nil
			}
		}
	}
	if login {
		loginReads(e, name)
	}
	if sawC {
		if i >= len(words) {
			if e.UnknownTail {
				e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`xargs %s -c` runs the commands its input holds", name))
				return nil
			}
			e.P.NotRO(fmt.Sprintf("`%s -c` without a command", name))
			return nil
		}
		body = &words[i]
		if !body.Static {
			e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("`%s -c` runs a command only known at run time", name))
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
		e.Script(body.Value, name != "bash")
		return nil
	}
	if i < len(words) && !sawS && (!words[i].Static || e.Stdin == nil || !shell.IsStdin(words[i].Value) && !shell.IsStdin(e.S.Abs(words[i].Value, e.Scope()))) {
		// A script on disk before the command runs is the project's own; its arguments are paths it
		// may read or write.
		e.P.Effect(fmt.Sprintf("`%s %s` runs a script Warden cannot see", name, words[i].Value))
		models.RunsScript(e, words[i])
		besideRun(e, words[i])
		models.Hand(e, words[i+1:])
		return nil
	}
	if e.Stdin == nil {
		e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`%s` runs commands from its input, which Warden cannot see", name))
		// A pipeline may tell what that input is (`echo 'rm x' | sh`), for deny and ask rules.
		e.P.ScriptFromInput = true
		return nil
	}
	doc := *e.Stdin
	if !doc.Static {
		e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`%s` runs a here-document only known at run time", name))
		return nil
	}
	e.Script(doc.Value, name != "bash")
	return nil
}

// eval runs its words, joined with blanks, as a command of this shell. Words known before running are
// read as that command for deny and ask rules; eval itself always asks.
func (c *classifier) eval(e *shell.Exec, words []shell.Word) {
	reason := "`eval` runs its words as a command"
	e.P.Unsee(shell.UnseenForeignBody, reason)
	for _, w := range words[1:] {
		if !w.Static {
			e.P.Unsee(shell.UnseenProgram, "`eval` runs words only known at run time")
			return
		}
	}
	e.Untrusted(strings.Join(shell.Values(words[1:]), " "), reason)
}

// Untrusted is exec.untrustedBody: the walker reads the body.
func (c *classifier) Untrusted(e *shell.Exec, body, reason string) {
	c.untrustedScript(body, e.P.Text, e.Scope().Cwd, e.Lv.Depth+1, reason)
}

func (c *classifier) untrustedScript(body, anchor, cwd string, depth int, reason string) {
	before := c.untrusted
	c.untrusted = reason
	c.script(body, anchor, &shell.Scope{Cwd: cwd}, depth, false)
	c.untrusted = before
}

// Script is exec.nested: the walker reads the body in a new shell, which knows neither this one's
// functions nor its unexported variables.
func (c *classifier) Script(e *shell.Exec, body string, posix bool) {
	inner := shell.Scope{Cwd: e.Scope().Cwd}
	c.script(body, e.P.Text, &inner, e.Lv.Depth+1, posix)
}

// Run judges words as the command a program runs in the same part (find -exec's): wrappers peeled,
// the program judged against the table and its model.
func (c *classifier) Run(e *shell.Exec, words []shell.Word) { c.run(e, words) }

// foundAsRoots returns words with find's {} taken as the search root it stands for, which is what
// decides whether removing it is catastrophic.
func foundAsRoots(words []shell.Word) []shell.Word {
	out := words
	for i, w := range words {
		if w.Found {
			if &out[0] == &words[0] {
				out = append([]shell.Word(nil), words...)
			}
			out[i].Static = true
		}
	}
	return out
}

// loginReads records the start-up files a login shell reads before its command: what they export is in
// the environment `bash -lc env` prints, a token line included. bash reads the first of .bash_profile,
// .bash_login and .profile, which by custom sources .bashrc; sh, dash and ash read .profile.
func loginReads(e *shell.Exec, sh string) {
	home := e.S.Ctx.Home
	if h, ok := e.Env["HOME"]; ok {
		home = h // HOME=... in front of the shell
	}
	files := []string{"/etc/profile"}
	if filepath.IsAbs(home) {
		names := []string{".profile"}
		if sh == "bash" {
			names = []string{".bash_profile", ".bash_login", ".profile", ".bashrc"}
		}
		for _, n := range names {
			files = append(files, filepath.Join(home, n))
		}
	}
	sc := e.Scope()
	for _, f := range files {
		e.S.Read(e.P, f, sc)
	}
}
