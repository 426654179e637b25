package permissions

import (
	"fmt"
	"strings"
)

// checkSed allows sed only with scripts made of printing and editing-in-the-stream commands: no -i, no
// w/W/e/r/R commands, no s///w or s///e flags, no script files.
func checkSed(e *exec, a *parsedArgs) string {
	var scripts []string
	var files []word
	words := a.words[1:]
	explicit := false
	for i := 0; i < len(words); i++ {
		v := words[i].Value
		switch {
		case v == "--":
			files = append(files, words[i+1:]...)
			i = len(words)
		case v == "-e" || v == "--expression":
			if i+1 >= len(words) {
				return "`sed -e` without a script"
			}
			i++
			scripts = append(scripts, words[i].Value)
			explicit = true
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(v, "--expression="))
			explicit = true
		case strings.HasPrefix(v, "--"):
			switch v {
			case "--quiet", "--silent", "--regexp-extended", "--posix", "--separate", "--null-data",
				"--zero-terminated", "--unbuffered", "--debug", "--sandbox":
			default:
				if strings.HasPrefix(v, "--line-length=") {
					continue
				}
				return fmt.Sprintf("`sed %s` is not read-only", v)
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'n', 'r', 'E', 's', 'z', 'u':
				case 'e':
					rest := v[j+1:]
					if rest == "" {
						if i+1 >= len(words) {
							return "`sed -e` without a script"
						}
						i++
						rest = words[i].Value
					}
					scripts = append(scripts, rest)
					explicit = true
					j = len(v)
				case 'l':
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				default:
					// -i edits in place, -f reads a script file Warden cannot see.
					return fmt.Sprintf("`sed -%c` is not read-only", v[j])
				}
			}
		default:
			files = append(files, words[i])
		}
	}
	if !explicit {
		if len(files) == 0 {
			return "`sed` without a script"
		}
		scripts = append(scripts, files[0].Value)
		files = files[1:]
	}
	for _, s := range scripts {
		if reason := sedScriptReadOnly(s); reason != "" {
			return reason
		}
	}
	a.operands = files
	for _, f := range files {
		e.c.read(e.p, f.Value, e.scope())
	}
	return ""
}

// sedScriptReadOnly parses a sed script just enough to find the commands that write files or run
// programs. Anything it does not understand is not read-only.
func sedScriptReadOnly(s string) string {
	i := 0
	skipRegex := func(delim byte) bool {
		for i < len(s) {
			c := s[i]
			if c == '\\' {
				i += 2
				continue
			}
			if c == '\n' && delim != '\n' {
				return false
			}
			i++
			if c == delim {
				return true
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && (s[i] >= '0' && s[i] <= '9'):
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < len(s) && s[i] == '$':
			i++
		case i < len(s) && s[i] == '/':
			i++
			if !skipRegex('/') {
				return false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < len(s) && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !skipRegex(d) {
				return false
			}
		}
		return true
	}
	for i < len(s) {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '}' {
			i++
			continue
		}
		if !address() {
			return "a `sed` script Warden cannot read"
		}
		for i < len(s) && (s[i] == ' ' || s[i] == ',' || s[i] == '+' || s[i] == '~') {
			if s[i] == ',' || s[i] == '+' || s[i] == '~' {
				i++
				if !address() {
					return "a `sed` script Warden cannot read"
				}
				continue
			}
			i++
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '!') {
			i++
		}
		if i >= len(s) {
			break
		}
		cmd := s[i]
		i++
		switch cmd {
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'l', 'z', 'F', '{':
		case 'q', 'Q':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' || i < len(s) && s[i] == ' ' {
				i++
			}
		case 'b', 't', 'T', ':':
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c':
			// Text to the end of the line; it is only printed.
			for i < len(s) && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 's', 'y':
			if i >= len(s) || s[i] == '\\' || s[i] == '\n' {
				return "a `sed` script Warden cannot read"
			}
			d := s[i]
			i++
			if !skipRegex(d) || !skipRegex(d) {
				return "a `sed` script Warden cannot read"
			}
			if cmd == 'y' {
				continue
			}
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' && s[i] != ' ' {
				switch f := s[i]; {
				case f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9':
				case f == 'w' || f == 'W':
					return "`sed` writes a file with `s///w`"
				case f == 'e':
					return "`sed` runs a command with `s///e`"
				default:
					return "a `sed` script Warden cannot read"
				}
				i++
			}
		case 'w', 'W':
			return "`sed` writes a file with `w`"
		case 'e':
			return "`sed` runs a command with `e`"
		case 'r', 'R':
			return "`sed` reads a file with `r`"
		default:
			return "a `sed` script Warden cannot read"
		}
	}
	return ""
}

// checkAwk allows awk programs that cannot run commands or write files: no system(), no pipes, no output
// redirection, no getline from commands, no program files or extensions.
func checkAwk(e *exec, a *parsedArgs) string {
	words := a.words[1:]
	var prog *word
	var files []word
	for i := 0; i < len(words); i++ {
		v := words[i].Value
		switch {
		case prog == nil && (v == "-F" || v == "-v"):
			i++
			if v == "-v" && i < len(words) {
				if r := sensitiveVar(strings.SplitN(words[i].Value, "=", 2)[0]); r != "" {
					return r
				}
			}
		case prog == nil && (strings.HasPrefix(v, "-F") || strings.HasPrefix(v, "-v")):
		case prog == nil && v == "--":
		case prog == nil && strings.HasPrefix(v, "-"):
			// -f program files, -i/-l/-E include or load code, -e/--exec run.
			return fmt.Sprintf("`%s %s` is not checked", a.name, v)
		case prog == nil:
			w := words[i]
			prog = &w
		default:
			files = append(files, words[i])
		}
	}
	if prog == nil {
		return fmt.Sprintf("`%s` without a program", a.name)
	}
	p := prog.Value
	// ARGV names the files awk reads (ARGV[1]=".env"); @name() calls the function named by a variable in
	// gawk, builtins such as system included.
	for _, bad := range []string{"system", "|", ">", "getline", "close", "fflush", "@", "PROCINFO", "ENVIRON", "ARGV"} {
		if strings.Contains(p, bad) {
			if (bad == ">" || bad == "@") && !strings.Contains(stripAwkStrings(p), bad) {
				continue
			}
			return fmt.Sprintf("the `%s` program uses `%s`", a.name, bad)
		}
	}
	for _, f := range files {
		if strings.Contains(f.Value, "=") && !strings.HasPrefix(f.Value, "/") && !strings.HasPrefix(f.Value, ".") {
			if r := sensitiveVar(strings.SplitN(f.Value, "=", 2)[0]); r != "" {
				return r
			}
			continue
		}
		e.c.read(e.p, f.Value, e.scope())
	}
	a.operands = nil
	return ""
}

// stripAwkStrings removes string literals so that a ">" inside one is not taken for a redirection.
func stripAwkStrings(p string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if in {
			if c == '\\' {
				i++
			} else if c == '"' {
				in = false
			}
			continue
		}
		if c == '"' {
			in = true
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// findActions write files or run programs. -exec and friends are peeled: the inner command is judged.
var findWriteActions = map[string]bool{
	"-delete": true, "-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true,
}

// checkFind allows find without actions that write; the commands of -exec/-execdir/-ok/-okdir are
// classified as parts of their own with {} standing for the search roots.
func checkFind(e *exec, a *parsedArgs) string {
	words := a.words[1:]
	var roots []string
	i := 0
	for ; i < len(words); i++ {
		v := words[i].Value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") || strings.HasPrefix(v, "-D") {
			if v == "-D" {
				i++
			}
			continue
		}
		break
	}
	for ; i < len(words); i++ {
		v := words[i].Value
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" {
			break
		}
		roots = append(roots, v)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var reason string
	for ; i < len(words); i++ {
		v := words[i].Value
		switch {
		case findWriteActions[v]:
			if reason == "" {
				reason = fmt.Sprintf("`find %s` is not read-only", v)
			}
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			j := i + 1
			for j < len(words) && words[j].Value != ";" && words[j].Value != "+" {
				j++
			}
			inner := make([]word, 0, j-i-1)
			for _, w := range words[i+1 : j] {
				if w.Value == "{}" {
					w = word{Value: roots[0], Static: true}
				} else if strings.Contains(w.Value, "{}") {
					w.Static = false
				}
				inner = append(inner, w)
			}
			if v == "-ok" || v == "-okdir" {
				if reason == "" {
					reason = fmt.Sprintf("`find %s` asks on the terminal", v)
				}
			}
			if len(inner) == 0 {
				if reason == "" {
					reason = fmt.Sprintf("`find %s` without a command", v)
				}
			} else {
				e.findExec(inner)
			}
			i = j
		case v == "-newer" || v == "-anewer" || v == "-cnewer" || v == "-samefile" || v == "-files0-from":
			i++
		}
	}
	for _, r := range roots {
		e.c.read(e.p, r, e.scope())
	}
	// Listing a directory is not reading its secrets; only -exec would read them, through {}.
	if e.p.Secret {
		e.p.Secret = false
		if e.p.ReadOnly {
			e.p.Reason = ""
		}
	}
	e.p.Reads = nil
	a.operands = nil
	return reason
}

// findExec classifies the command of a find -exec as a part of its own, so its rules and reasons apply.
func (e *exec) findExec(inner []word) {
	sub := &exec{c: e.c, lv: e.lv, sc: e.sc, dir: e.dir, p: &Part{Text: e.p.Text, ReadOnly: true, Static: true, fromFind: true}}
	sub.run(inner)
	if !sub.p.ReadOnly && sub.p.Reason == "" {
		sub.p.Reason = fmt.Sprintf("`%s` is not read-only", display(inner))
	}
	e.c.parts = append(e.c.parts, *sub.p)
}
