package permissions

import (
	"fmt"
	"path/filepath"
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
		for i, w := range words {
			e.p.static[i] = w.Static
			if !w.Static {
				e.p.Static = false
			}
		}
		if len(words) == 0 {
			return
		}
		name := words[0]
		if !name.Static || name.Glob {
			e.p.notRO(fmt.Sprintf("the program `%s` is only known at run time", name.Value))
			return
		}
		n := name.Value
		if strings.IndexFunc(n, isControl) >= 0 || n == "" {
			e.p.notRO(fmt.Sprintf("the program name %q is unusual", n))
			return
		}
		if strings.ContainsRune(n, '/') {
			dir, base := filepath.Split(n)
			if !systemBinDirs[filepath.Clean(dir)] || base == "" {
				e.p.notRO(fmt.Sprintf("`%s` runs a program by its path, not a known system tool", n))
				return
			}
			n = base
		}
		e.dangerous(n, words)
		if e.c.funcs[n] {
			return
		}
		if w, ok := wrappers[n]; ok {
			inner := w(e, words)
			if len(inner) == 0 {
				return
			}
			words = inner
			e.p.openTail = e.unknownTail
			continue
		}
		if shells[n] {
			e.shell(n, words)
			return
		}
		s, ok := table[n]
		if !ok {
			e.p.notRO(fmt.Sprintf("`%s` is not known to be read-only", display(words)))
			return
		}
		e.check(n, s, words)
		return
	}
}

// display names a command for a reason: the program and, for programs with subcommands, the subcommand.
func display(words []word) string {
	if len(words) == 0 {
		return ""
	}
	name := filepath.Base(words[0].Value)
	if hasSubcommands[name] {
		for _, w := range words[1:] {
			if !strings.HasPrefix(w.Value, "-") {
				return name + " " + w.Value
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
var shells = map[string]bool{"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true}

// shell handles `bash -c BODY`, `bash <<EOF` and `bash script`: a body given inline is parsed and
// classified like the rest; a script file or stdin Warden cannot see is not read-only.
func (e *exec) shell(name string, words []word) {
	var body *word
	sawC := false
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			e.p.notRO(fmt.Sprintf("`%s` with an option only known at run time", name))
			return
		}
		v := w.Value
		if v == "--" || v == "-" {
			i++
			break
		}
		if v == "-o" || v == "+o" || v == "-O" || v == "+O" {
			i++
			continue
		}
		if strings.HasPrefix(v, "--") {
			switch v {
			case "--login", "--noprofile", "--norc", "--posix", "--noediting", "--restricted":
				continue
			}
			e.p.notRO(fmt.Sprintf("`%s %s` is not checked", name, v))
			return
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') {
			if strings.ContainsRune(v, 'c') {
				sawC = true
			}
			if strings.ContainsAny(v, "is") {
				// -i reads startup files and -s reads commands from stdin.
				if strings.ContainsRune(v, 'i') {
					e.p.notRO(fmt.Sprintf("`%s -i` runs an interactive shell", name))
					return
				}
			}
			continue
		}
		break
	}
	if sawC {
		if i >= len(words) {
			e.p.notRO(fmt.Sprintf("`%s -c` without a command", name))
			return
		}
		body = &words[i]
		if !body.Static {
			e.p.notRO(fmt.Sprintf("`%s -c` runs a command only known at run time", name))
			return
		}
		e.nested(body.Value)
		return
	}
	if i < len(words) {
		e.p.notRO(fmt.Sprintf("`%s %s` runs a script Warden cannot see", name, words[i].Value))
		return
	}
	if e.stdin == nil {
		e.p.notRO(fmt.Sprintf("`%s` runs commands from its input, which Warden cannot see", name))
		return
	}
	doc := *e.stdin
	if !doc.Static {
		e.p.notRO(fmt.Sprintf("`%s` runs a here-document only known at run time", name))
		return
	}
	e.nested(doc.Value)
}

// nested classifies a script body found inside this part. Its parts are added on their own; this part
// itself (the shell) changes nothing.
func (e *exec) nested(body string) {
	inner := *e.scope()
	e.c.script(body, e.p.Text, &inner, e.lv.depth+1)
}

// cd follows a change of directory. Inside the workspace it is read-only and later relative paths
// resolve against the new directory; anywhere else it asks, since the session's directory persists.
func (e *exec) cd(words []word) {
	args := words[1:]
	for len(args) > 0 && (args[0].Value == "-L" || args[0].Value == "-P" || args[0].Value == "-e" || args[0].Value == "-@") {
		args = args[1:]
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	var target string
	switch {
	case len(args) == 0:
		target = e.c.ctx.Home
	case len(args) > 1:
		e.p.notRO("`cd` with more than one directory")
		e.sc.cwd = ""
		return
	case !args[0].Static || args[0].Glob || args[0].Value == "-":
		e.p.notRO(fmt.Sprintf("`cd %s` goes to a directory only known at run time", args[0].Value))
		e.sc.cwd = ""
		return
	default:
		target = args[0].Value
	}
	if target == "" || (!filepath.IsAbs(target) && e.sc.cwd == "") {
		e.p.notRO("`cd` from a directory Warden lost track of")
		e.sc.cwd = ""
		return
	}
	dir := ResolvePath(e.sc.cwd, target, e.c.ctx.Home)
	e.sc.cwd = dir
	if !e.c.inside(dir) {
		e.p.notRO(fmt.Sprintf("`cd %s` leaves the workspace", target))
	}
}

// inside reports whether an absolute path lies in the workspace or an additional directory.
func (c *classifier) inside(path string) bool {
	if c.roots == nil {
		c.roots = []string{}
		if c.ctx.Workspace != "" {
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
