package bash

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// interactiveProblem returns an explanation, with the non-interactive form to use instead, when the command
// clearly starts a program that needs a person at a terminal (an editor, a full-screen monitor, a REPL with
// no script, ssh with no remote command, git's patch and interactive modes). Commands run with empty stdin
// and no terminal, so these would fail in confusing ways or wait for the timeout.
//
// The decision is made on the parsed command, one simple command at a time, and only on clear cases: a
// false alarm would block a legitimate command, so anything unusual (a non-literal word, an option we do not
// know the meaning of, input that comes from a pipe or redirection, a function body) is let through.
func interactiveProblem(command string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return "" // bash reports its own syntax errors better than we could
	}
	return checkStmts(f.Stmts, false)
}

func checkStmts(stmts []*syntax.Stmt, fed bool) string {
	for _, s := range stmts {
		if p := checkStmt(s, fed); p != "" {
			return p
		}
	}
	return ""
}

// checkStmt checks one statement; fed says its stdin comes from a pipe or a redirection, not the empty input.
func checkStmt(s *syntax.Stmt, fed bool) string {
	if s == nil {
		return ""
	}
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			if r.N == nil || r.N.Value == "0" {
				fed = true
			}
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return checkCall(c, fed)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			if p := checkStmt(c.X, fed); p != "" {
				return p
			}
			return checkStmt(c.Y, true)
		}
		if p := checkStmt(c.X, fed); p != "" {
			return p
		}
		return checkStmt(c.Y, fed)
	case *syntax.Block:
		return checkStmts(c.Stmts, fed)
	case *syntax.Subshell:
		return checkStmts(c.Stmts, fed)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			if p := checkStmts(c.Cond, fed); p != "" {
				return p
			}
			if p := checkStmts(c.Then, fed); p != "" {
				return p
			}
		}
	case *syntax.WhileClause:
		if p := checkStmts(c.Cond, fed); p != "" {
			return p
		}
		return checkStmts(c.Do, fed)
	case *syntax.ForClause:
		return checkStmts(c.Do, fed)
	case *syntax.CaseClause:
		for _, it := range c.Items {
			if p := checkStmts(it.Stmts, fed); p != "" {
				return p
			}
		}
	case *syntax.TimeClause:
		return checkStmt(c.Stmt, fed)
	}
	// Function bodies (they may never run), coprocesses, tests and arithmetic: nothing to flag.
	return ""
}

// literal returns a word's value when it has no expansions.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func checkCall(c *syntax.CallExpr, fed bool) string {
	args := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		s, ok := literal(w)
		if !ok {
			if len(args) == 0 {
				return "" // the program is not known before the command runs
			}
			s = "\x00" // an argument whose value is unknown: it is neither an option nor nothing
		}
		args = append(args, s)
	}
	for _, a := range c.Assigns {
		if a.Name != nil && (a.Name.Value == "GIT_SEQUENCE_EDITOR" || a.Name.Value == "GIT_EDITOR" ||
			a.Name.Value == "EDITOR" || a.Name.Value == "VISUAL") {
			return "" // the command brings its own non-interactive editor
		}
	}
	args = peelWrappers(args)
	if len(args) == 0 {
		return ""
	}
	name := path.Base(args[0])
	if check, ok := interactiveChecks[name]; ok {
		return check(name, args[1:], fed)
	}
	if pythonName.MatchString(name) {
		return checkPython(name, args[1:], fed)
	}
	return ""
}

var pythonName = regexp.MustCompile(`^python[0-9.]*$`)

// peelWrappers drops the commands that run their arguments as a command (exec, command, env, nohup, sudo)
// as long as their own options are absent; with options we cannot be sure, so nothing is left to check.
func peelWrappers(args []string) []string {
	for len(args) > 0 {
		switch args[0] {
		case "exec", "command", "nohup", "sudo", "builtin":
			args = args[1:]
		case "env":
			args = args[1:]
			for len(args) > 0 && strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "-") {
				args = args[1:]
			}
		default:
			return args
		}
		if len(args) > 0 && strings.HasPrefix(args[0], "-") {
			return nil
		}
	}
	return args
}

// split separates options from operands. withValue lists options whose value is the next argument.
func split(args []string, withValue string) (opts, operands []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			opts = append(opts, a)
			if len(a) == 2 && strings.ContainsRune(withValue, rune(a[1])) && i+1 < len(args) {
				i++
			}
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands
}

func has(opts []string, names ...string) bool {
	for _, o := range opts {
		for _, n := range names {
			if o == n || strings.HasPrefix(o, n+"=") {
				return true
			}
		}
	}
	return false
}

const (
	editorHelp = "To change a file use the edit_file or write_file tool, or a non-interactive command " +
		"(sed -i, or cat > FILE <<'EOF' ... EOF)."
	replHelp = "Pass the code as an argument or a script file, or feed it on stdin with a heredoc " +
		"(%s <<'EOF' ... EOF)."
)

func interactive(name, why, help string) string {
	return "`" + name + "` is interactive: " + why + ", and commands here run without a terminal and with " +
		"empty input, so it cannot work. " + help
}

type interactiveCheck func(name string, args []string, fed bool) string

var interactiveChecks = map[string]interactiveCheck{}

func init() {
	editor := func(name string, args []string, fed bool) string {
		opts, _ := split(args, "")
		// Any option may be a batch mode (vim -es, emacs --batch, nvim --headless): only plain edits are flagged.
		if fed || (len(opts) > 0 && !(name == "emacs" && len(opts) == 1 && opts[0] == "-nw")) {
			return ""
		}
		for _, a := range args {
			if strings.HasPrefix(a, "+") {
				return ""
			}
		}
		return interactive(name, "it is a full-screen editor", editorHelp)
	}
	for _, n := range []string{"vi", "vim", "nvim", "gvim", "nano", "pico", "emacs", "joe", "micro", "hx", "kak", "mcedit"} {
		interactiveChecks[n] = editor
	}
	pager := func(name string, args []string, fed bool) string {
		if _, operands := split(args, ""); fed || len(operands) > 0 {
			return "" // with a file or piped input and no terminal, a pager just prints
		}
		return interactive(name, "it is a pager with nothing to show", "Output is captured already: run the "+
			"command without the pager, or give the pager a file to print it.")
	}
	for _, n := range []string{"less", "more", "most"} {
		interactiveChecks[n] = pager
	}
	monitor := func(name string, args []string, fed bool) string {
		opts, _ := split(args, "dnpuUoOswESHcCi")
		for _, o := range opts {
			if (name == "top" || name == "iotop") && !strings.HasPrefix(o, "--") && strings.ContainsRune(o, 'b') {
				return "" // batch mode
			}
			if o == "--batch" || o == "--help" || o == "-h" || o == "--version" || o == "-v" || o == "-V" {
				return ""
			}
		}
		return interactive(name, "it is a full-screen monitor", "For a snapshot use `top -b -n 1 | head -30` or "+
			"`ps aux --sort=-%cpu | head`.")
	}
	for _, n := range []string{"top", "htop", "btop", "atop", "iotop", "glances", "nmon"} {
		interactiveChecks[n] = monitor
	}
	interactiveChecks["watch"] = func(name string, args []string, fed bool) string {
		opts, operands := split(args, "nd")
		if len(operands) == 0 || has(opts, "-h", "--help", "-v", "--version") {
			return ""
		}
		return interactive(name, "it redraws the screen forever", "Run the command once, or poll it in the "+
			"background (run_in_background with `while true; do CMD; sleep 2; done`) and read it with bash_output.")
	}
	// repl flags a REPL started without code. For database clients an operand names the database, not a
	// script, so only their eval options count.
	repl := func(evalOpts []string, withValue string) interactiveCheck {
		database := strings.Contains(withValue, "h")
		info := []string{"-h", "--help", "-v", "-V", "--version"}
		if database { // -h is a host here
			info = []string{"--help", "-V", "--version", "-?"}
		}
		return func(name string, args []string, fed bool) string {
			opts, operands := split(args, withValue)
			if fed || has(opts, info...) {
				return ""
			}
			if has(opts, "-i", "--interactive") || ((len(operands) == 0 || database) && !has(opts, evalOpts...)) {
				return interactive(name, "without a script it starts an interactive prompt",
					strings.Replace(replHelp, "%s", name, 1))
			}
			return ""
		}
	}
	for n, check := range map[string]interactiveCheck{
		"node":     repl([]string{"-e", "--eval", "-p", "--print", "-c", "--check", "--test", "--run"}, "r"),
		"nodejs":   repl([]string{"-e", "--eval", "-p", "--print", "-c", "--check"}, "r"),
		"irb":      repl(nil, ""),
		"pry":      repl(nil, ""),
		"ipython":  repl([]string{"-c", "-m"}, ""),
		"ipython3": repl([]string{"-c", "-m"}, ""),
		"bpython":  repl([]string{"-c"}, ""),
		"ghci":     repl([]string{"-e"}, ""),
		"lua":      repl([]string{"-e", "-v"}, "l"),
		"julia":    repl([]string{"-e", "--eval", "-E", "--print"}, ""),
		"psql":     repl([]string{"-c", "--command", "-f", "--file", "-l", "--list"}, "dhpUWfcoLTFRvPS"),
		"mysql":    repl([]string{"-e", "--execute"}, "hupPDS"),
		"sqlite3":  sqliteCheck,
	} {
		interactiveChecks[n] = check
	}
	interactiveChecks["ssh"] = func(name string, args []string, fed bool) string {
		opts, operands := split(args, "BbcDEeFIiJLlmOopQRSWw")
		if len(operands) != 1 || has(opts, "-N", "-f", "-O", "-W", "-V", "-G", "-Q", "-T") {
			return ""
		}
		return interactive(name, "with no remote command it opens a login shell",
			"Give the remote command as an argument: `ssh HOST 'COMMAND'`.")
	}
	interactiveChecks["git"] = checkGit
}

func checkPython(name string, args []string, fed bool) string {
	// Options after the script or -c/-m belong to the program, so only the leading ones are read.
	var opts []string
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-"; i++ {
		a := args[i]
		if a == "-c" || a == "-m" {
			return ""
		}
		if a == "-W" || a == "-X" {
			i++
		}
		opts = append(opts, a)
	}
	script := i < len(args)
	if has(opts, "-h", "--help", "-V", "--version") || (fed && !has(opts, "-i")) {
		return ""
	}
	if !script || has(opts, "-i") {
		return interactive(name, "without a script it starts an interactive prompt",
			"Run code with `"+name+" -c 'CODE'`, a script file, or a heredoc: `"+name+" - <<'EOF' ... EOF`.")
	}
	return ""
}

// sqliteCheck: `sqlite3 DB` opens a prompt; `sqlite3 DB 'SQL'` runs the SQL.
func sqliteCheck(name string, args []string, fed bool) string {
	opts, operands := split(args, "")
	if fed || len(operands) >= 2 || has(opts, "-cmd", "-version", "-help", "--version", "--help") {
		return ""
	}
	return interactive(name, "without SQL it starts an interactive prompt",
		"Give the SQL as an argument: `sqlite3 DB 'SELECT ...'`, or feed it with a heredoc.")
}

// checkGit flags git's patch and interactive modes, which read answers from a terminal.
func checkGit(name string, args []string, fed bool) string {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case a == "-c":
			if i+1 < len(args) && (strings.HasPrefix(args[i+1], "sequence.editor=") ||
				strings.HasPrefix(args[i+1], "core.editor=")) {
				return ""
			}
			i++
		}
	}
	if i >= len(args) {
		return ""
	}
	sub, rest := args[i], args[i+1:]
	opts, _ := split(rest, "")
	patchHelp := "Stage or undo whole files (`git add FILE`, `git restore FILE`), or write a patch and " +
		"use `git apply` (with --cached for the index)."
	switch {
	case (sub == "add" || sub == "stage") && has(opts, "-p", "--patch", "-i", "--interactive", "-e", "--edit"):
		return interactive("git "+sub+" "+firstOf(opts, "-p", "--patch", "-i", "--interactive", "-e", "--edit"),
			"it asks about each change", patchHelp)
	case (sub == "checkout" || sub == "reset" || sub == "restore" || sub == "stash" || sub == "commit") &&
		has(opts, "-p", "--patch", "--interactive"):
		return interactive("git "+sub+" "+firstOf(opts, "-p", "--patch", "--interactive"),
			"it asks about each change", patchHelp)
	case sub == "rebase" && has(opts, "-i", "--interactive"):
		return interactive("git rebase -i", "it opens an editor on the todo list",
			"Use a plain `git rebase BRANCH`, or give the todo editor yourself: "+
				"`GIT_SEQUENCE_EDITOR=\"sed -i 's/^pick X/squash X/'\" git rebase -i BASE`; "+
				"`git commit --fixup` with `GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash BASE` squashes fixups.")
	case sub == "clean" && has(opts, "-i", "--interactive"):
		return interactive("git clean -i", "it asks about each file",
			"Preview with `git clean -n` and then run `git clean -f` (add -d for directories).")
	}
	return ""
}

func firstOf(opts []string, names ...string) string {
	for _, o := range opts {
		for _, n := range names {
			if o == n || strings.HasPrefix(o, n+"=") {
				return n
			}
		}
	}
	return names[0]
}
