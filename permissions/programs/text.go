package programs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// checkSed allows sed only with scripts made of printing and editing-in-the-stream commands: no -i, no
// w/W/e/r/R commands, no s///w or s///e flags, no script files.
func checkSed(e *shell.Exec, a *shell.Args) string {
	var scripts []string
	var files []shell.Word
	words := a.Words[1:]
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
	// GNU sed joins the -e pieces with newlines before reading them: `-e 'a\' -e 'w x'` appends text.
	if reason := SedScriptReadOnly(strings.Join(scripts, "\n")); reason != "" {
		return reason
	}
	a.Operands = files
	for _, f := range files {
		for _, v := range e.GlobValues(f) {
			e.S.Read(e.P, v, e.Scope())
		}
	}
	return ""
}

// SedScriptReadOnly parses a sed script the way GNU sed does, just enough to find the commands that write
// files, read files or run programs. Anything it does not understand is not read-only.
func SedScriptReadOnly(s string) string {
	p := &sedParser{s: s}
	if reason := p.script(); reason != "" {
		return reason
	}
	return ""
}

const sedUnreadable = "a `sed` script Warden cannot read"

type sedParser struct {
	s string
	i int
}

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sedParser) skipSpace() {
	for p.i < len(p.s) && isSedSpace(p.s[p.i]) {
		p.i++
	}
}

// isSedSpace is the C isspace GNU sed uses, newline excluded: it ends commands.
func isSedSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }

// regex skips a regular expression or replacement up to its closing delimiter. As in GNU sed, a bracket
// expression does not protect the delimiter, and a newline ends the script unless escaped.
func (p *sedParser) regex(delim byte) bool {
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			p.i++
		case c == delim:
			return true
		case c == '\n':
			return false
		}
	}
	return false
}

// delimiter reads the delimiter of s, y or a \cREc address. Backslash and newline are not allowed, and
// a byte of a multibyte character would be read differently by sed in a UTF-8 locale.
func (p *sedParser) delimiter() (byte, bool) {
	c := p.peek()
	if p.i >= len(p.s) || c == '\\' || c == '\n' || c >= 0x80 {
		return 0, false
	}
	p.i++
	return c, true
}

// address skips one address, if there is one: a line number, first~step, $, /re/ or \cREc with the I
// and M flags.
func (p *sedParser) address() bool {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		for c := p.peek(); c >= '0' && c <= '9' || c == '~'; c = p.peek() {
			p.i++
		}
	case c == '$':
		p.i++
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
		}
		d, ok := p.delimiter()
		if !ok || !p.regex(d) {
			return false
		}
		for c := p.peek(); c == 'I' || c == 'M'; c = p.peek() {
			p.i++
		}
	}
	return true
}

// toEOL skips to the end of the line, for labels' and comments' text.
func (p *sedParser) toEOL() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

// label skips a label: GNU sed ends it at whitespace, `;` or a newline.
func (p *sedParser) label() {
	p.skipSpace()
	for p.i < len(p.s) && !isSedSpace(p.s[p.i]) && p.s[p.i] != ';' && p.s[p.i] != '\n' {
		p.i++
	}
}

// number skips an optional count after l, q, Q and L.
func (p *sedParser) number() {
	p.skipSpace()
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.i++
	}
}

func (p *sedParser) script() string {
	for p.i < len(p.s) {
		c := p.s[p.i]
		if isSedSpace(c) || c == '\n' || c == ';' {
			p.i++
			continue
		}
		if c == '#' {
			p.toEOL() // a comment, or #n on the first line, which is -n
			continue
		}
		if !p.address() {
			return sedUnreadable
		}
		p.skipSpace()
		if p.peek() == ',' {
			p.i++
			p.skipSpace()
			switch p.peek() {
			case '+', '~':
				p.i++
				p.number()
			default:
				if !p.address() {
					return sedUnreadable
				}
			}
		}
		p.skipSpace()
		for p.peek() == '!' {
			p.i++
			p.skipSpace()
		}
		if p.i >= len(p.s) {
			return sedUnreadable
		}
		if reason := p.command(); reason != "" {
			return reason
		}
	}
	return ""
}

// command reads one command after its address.
func (p *sedParser) command() string {
	cmd := p.s[p.i]
	p.i++
	switch cmd {
	case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F', '{', '}':
	case 'l', 'q', 'Q':
		p.number()
	case 'b', 't', 'T', ':':
		p.label()
	case 'a', 'i', 'c':
		// Text to the end of the line, continued by a backslash before the newline; it is only printed.
		for p.i < len(p.s) && p.s[p.i] != '\n' {
			if p.s[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
	case 's', 'y':
		d, ok := p.delimiter()
		if !ok || !p.regex(d) || !p.regex(d) {
			return sedUnreadable
		}
		if cmd == 's' {
			return p.substFlags()
		}
	case 'w', 'W':
		return "`sed` writes a file with `w`"
	case 'e':
		return "`sed` runs a command with `e`"
	case 'r', 'R':
		return "`sed` reads a file with `r`"
	default:
		return sedUnreadable
	}
	return ""
}

// substFlags reads the flags of s///: w writes a file, e runs the pattern space as a command.
func (p *sedParser) substFlags() string {
	for p.i < len(p.s) {
		switch f := p.s[p.i]; {
		case f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9':
		case f == 'w':
			return "`sed` writes a file with `s///w`"
		case f == 'e':
			return "`sed` runs a command with `s///e`"
		case f == ';' || f == '\n' || f == '}' || f == '#' || isSedSpace(f):
			return ""
		default:
			return sedUnreadable
		}
		p.i++
	}
	return ""
}

// checkAwk allows awk programs that cannot run commands or write files: no system(), no pipes, no output
// redirection, no getline from commands, no program files or extensions.
func checkAwk(e *shell.Exec, a *shell.Args) string {
	words := a.Words[1:]
	var prog *shell.Word
	var files []shell.Word
	for i := 0; i < len(words); i++ {
		v := words[i].Value
		switch {
		case prog == nil && (v == "-F" || v == "-v"):
			i++
			if v == "-v" && i < len(words) {
				if r := shell.SensitiveVar(strings.SplitN(words[i].Value, "=", 2)[0]); r != "" {
					return r
				}
			}
		case prog == nil && (strings.HasPrefix(v, "-F") || strings.HasPrefix(v, "-v")):
		case prog == nil && v == "--":
		case prog == nil && strings.HasPrefix(v, "-"):
			// -f program files, -i/-l/-E include or load code, -e/--exec run.
			return fmt.Sprintf("`%s %s` is not checked", a.Name, v)
		case prog == nil:
			w := words[i]
			prog = &w
		default:
			files = append(files, words[i])
		}
	}
	if prog == nil {
		return fmt.Sprintf("`%s` without a program", a.Name)
	}
	p := prog.Value
	// ARGV names the files awk reads (ARGV[1]=".env"); ENVIRON, PROCINFO and SYMTAB reach the environment
	// and variables by name. These words ask wherever they appear, even in a string.
	for _, bad := range []string{"system", "getline", "close", "fflush", "PROCINFO", "ENVIRON", "ARGV", "SYMTAB", "FUNCTAB"} {
		if strings.Contains(p, bad) {
			return fmt.Sprintf("the `%s` program uses `%s`", a.Name, bad)
		}
	}
	sc := scanAwk(p)
	switch {
	case sc.broken:
		return fmt.Sprintf("the `%s` program has an unterminated string or regular expression", a.Name)
	case sc.ambiguous && strings.ContainsAny(p, ">|@"):
		return fmt.Sprintf("the `%s` program has a `/` that awks read differently", a.Name)
	case sc.redirect:
		return fmt.Sprintf("the `%s` program redirects output with `>`", a.Name)
	case sc.pipe:
		return fmt.Sprintf("the `%s` program uses `|`", a.Name)
	case sc.at:
		// gawk's @f() calls the function named by f's value, system included; @include and @load load code.
		return fmt.Sprintf("the `%s` program uses `@`", a.Name)
	}
	for _, f := range files {
		if strings.Contains(f.Value, "=") && !strings.HasPrefix(f.Value, "/") && !strings.HasPrefix(f.Value, ".") {
			if r := shell.SensitiveVar(strings.SplitN(f.Value, "=", 2)[0]); r != "" {
				return r
			}
			continue
		}
		for _, v := range e.GlobValues(f) {
			e.S.Read(e.P, v, e.Scope())
		}
	}
	a.Operands = nil
	return ""
}

// findWriteActions write files or run programs. -exec and friends are peeled: the inner command is judged.
var findWriteActions = map[string]bool{
	"-delete": true, "-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true,
}

// findValues are how many words follow find's primaries that take them: a test's value (`-name
// -delete` names a file "-delete") or an action's file and format.
var findValues = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
	"-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1,
	"-size": 1, "-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1, "-used": 1, "-links": 1,
	"-inum": 1, "-maxdepth": 1, "-mindepth": 1, "-fstype": 1, "-context": 1, "-regextype": 1, "-samefile": 1,
	"-newer": 1, "-anewer": 1, "-cnewer": 1, "-printf": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2,
}

// findNarrowed reports whether find's expression has a test that selects some files and not others,
// so that an action applies only to what matches.
func findNarrowed(expr []shell.Word) bool {
	for i := 0; i < len(expr); i++ {
		v := expr[i].Value
		switch v {
		case "-maxdepth", "-mindepth":
			i++
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-newer",
			"-mtime", "-mmin", "-size", "-user", "-perm", "-empty", "-lname", "-ilname", "-samefile", "-inum", "-links",
			"-atime", "-ctime", "-amin", "-cmin", "-group", "-uid", "-gid", "-xtype", "-anewer", "-cnewer":
			return true
		}
		if strings.HasPrefix(v, "-newer") {
			return true
		}
	}
	return false
}

// checkFind allows find without actions that write; the commands of -exec/-execdir/-ok/-okdir are
// classified as parts of their own with {} standing for the search roots.
func checkFind(e *shell.Exec, a *shell.Args) string {
	words := a.Words[1:]
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
		roots = append(roots, e.GlobValues(words[i])...)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var reason string
	narrowed := findNarrowed(words[i:])
	for ; i < len(words); i++ {
		v := words[i].Value
		if n := findValues[v]; n > 0 && !findWriteActions[v] || strings.HasPrefix(v, "-newer") && len(v) == 8 {
			i += max(n, 1)
			continue
		}
		switch {
		case v == "-delete":
			if reason == "" {
				reason = fmt.Sprintf("`find -delete` deletes everything it finds below `%s`", strings.Join(roots, "`, `"))
				if narrowed {
					reason = "`find -delete` deletes the files its tests match"
				}
			}
		case findWriteActions[v]:
			if reason == "" {
				reason = fmt.Sprintf("`find %s` is not read-only", v)
			}
			i += findValues[v]
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			// The command ends at `;`, or at a `+` right after a `{}`; any other `+` is an argument.
			j := i + 1
			for j < len(words) && words[j].Value != ";" && !(words[j].Value == "+" && words[j-1].Value == "{}" && j > i+1) {
				j++
			}
			inner := make([]shell.Word, 0, j-i-1)
			for _, w := range words[i+1 : j] {
				if w.Value == "{}" {
					w = shell.Word{Value: roots[0], Raw: "{}", Found: true}
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
				findExec(e, inner, roots, findNames(words), a.Words[1:])
			}
			i = j
		case v == "-files0-from":
			// The starting points come from a file or stdin: what -exec reads is unknown.
			i++
			if reason == "" {
				reason = "`find -files0-from` reads its starting points from a file"
			}
		}
	}
	for _, r := range roots {
		e.S.Read(e.P, r, e.Scope())
		if plainFindOutput(a.Words[1:]) {
			e.P.Lists = append(e.P.Lists, treewalk.Tree{Dir: e.S.Abs(r, e.Scope()), Hidden: true, Include: findNames(words), Named: true})
		}
	}
	// Listing a directory is not reading its secrets; only -exec would read them, through {}.
	if e.P.Secret {
		e.P.Secret = false
		if e.P.ReadOnly {
			e.P.Reason = ""
		}
	}
	e.P.Reads = nil
	a.Operands = nil
	return reason
}

// plainFindOutput reports whether find prints only the names of the files it finds, below its roots: no
// action prints anything else (-printf, -ls, the output of -exec), and no link is followed out of the
// tree (-L, -follow).
func plainFindOutput(words []shell.Word) bool {
	for _, w := range words {
		switch w.Value {
		case "-L", "-follow", "-printf", "-ls", "-exec", "-execdir", "-ok", "-okdir", "-files0-from":
			return false
		}
	}
	return true
}

// findNames returns the -name patterns a file must match for find to act on it, when the expression is
// a plain conjunction of tests; nil when any file may be acted on.
//
// A negated test (`-not -path './vendor/*'`, `! -name x`) only leaves files out, so it is passed over;
// a negated group, an -o or a comma may take in anything, and makes the answer nil.
func findNames(words []shell.Word) []string {
	var names []string
	for i := 0; i < len(words); i++ {
		switch v := words[i].Value; v {
		case "-o", "-or", "(", ")", ",":
			return nil
		case "!", "-not":
			if i+1 >= len(words) || words[i+1].Value == "(" || words[i+1].Value == "!" || words[i+1].Value == "-not" {
				return nil
			}
			i += 1 + findValues[words[i+1].Value]
		case "-name":
			if i+1 < len(words) {
				names = append(names, words[i+1].Value)
			}
			i++
		}
	}
	return names
}

// findExec classifies the command of a find -exec as a part of its own, so its rules and reasons apply.
// A program that reads its {} reads every file found: that is a recursive read of the roots, limited to
// the -name patterns, like grep -r's.
func findExec(e *shell.Exec, inner []shell.Word, roots, names []string, words []shell.Word) {
	sub := &shell.Exec{S: e.S, Lv: e.Lv, Sc: e.Sc, Dir: e.Dir, P: &shell.Part{Text: e.P.Text, ReadOnly: true, Static: true, FromFind: true}}
	sub.S.Judge.Run(sub, inner)
	if sub.FoundRead && !plainFindOutput(words) && slices.ContainsFunc(words, func(w shell.Word) bool { return w.Value == "-L" || w.Value == "-follow" }) {
		// The walk below does not follow links; find -L hands the program the files they point to.
		sub.P.NotRO("`find -L` follows links to files Warden does not look at")
	}
	if sub.FoundRead {
		for _, r := range roots {
			sub.TreeRead(r, treewalk.Tree{Hidden: true, Include: names, Named: true})
		}
	}
	if !sub.P.ReadOnly && sub.P.Reason == "" {
		sub.P.Reason = fmt.Sprintf("`%s` is not read-only", shell.Display(inner))
	}
	e.S.Parts = append(e.S.Parts, *sub.P)
}
