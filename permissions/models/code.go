package models

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/programs"
	"github.com/warden-cli/warden/permissions/shell"
)

// Where a simple command hands Warden something it cannot read: code in another language, code on a
// stream, a script file, a body kept for later, a change to how bash reads what follows, and paths given
// to a program whose reads and writes Warden does not model. Each is marked on the part (shell/unseen.go).

// UnseenIn marks what the program n, judged against its table entry s (nil when it has none) as doing
// more than reading, does that Warden cannot see.
func UnseenIn(e *shell.Exec, n string, s *programs.Spec, words []shell.Word) {
	switch n {
	case "source", ".":
		if len(words) > 1 {
			RunsScript(e, words[1])
			Hand(e, words[2:])
		}
		return
	case "trap":
		trap(e, words)
		return
	case "fc":
		if !hasShortOpt(words[1:], 'l') {
			e.P.Unsee(shell.UnseenLaterCode, "`fc` runs commands from the shell's history")
		}
		return
	case "alias", "hash", "enable", "set", "shopt", "bind":
		e.P.Unsee(shell.UnseenShellRules, fmt.Sprintf("`%s` changes what later commands run or how bash reads them", shell.Display(words)))
		return
	case "read", "printf", "unset", "wait", "mapfile", "readarray", "getopts":
		// They assign the variables they are named: `read PATH` takes PATH from the input.
		for _, w := range words[1:] {
			name := strings.TrimPrefix(w.Value, "-v")
			if r := shell.SensitiveVar(name); r != "" {
				e.P.UnseeVar(name, r)
			}
		}
		return
	case "awk", "gawk", "mawk", "nawk":
		e.P.Unsee(shell.UnseenInlineCode, fmt.Sprintf("the `%s` program may run commands or write files Warden cannot see", n))
		return
	case "sed":
		sed(e, words)
		return
	case "git":
		if gitUnseen(e, words) {
			return
		}
	}
	if r, ok := codeRunners[n]; ok {
		runsCodeOf(e, n, r, words)
		return
	}
	givenCommandIn(e, n, words)
	if n == "cp" || n == "mv" {
		// What they copy or move elsewhere is read there later: a directory is all that is below it.
		handReads(e, words[1:])
	}
	if why := fileList(n, words); why != "" {
		e.P.Unsee(shell.UnseenFileList, why)
	}
	if dir, ok := unpacksInto(n, words); ok {
		// The names it writes are in the archive or the patch, which Warden does not read.
		if path := e.S.Abs(dir, e.Scope()); filepath.IsAbs(path) {
			e.P.HandedWrites = append(e.P.HandedWrites, path)
		}
	}
	if (s == nil || !s.WritesFiles()) && (models[n] == nil || sourceTools[n]) {
		// Its reads and writes are not modelled: every path it is given may be read or written. A
		// program with a model has what it does with its words recorded there (grammar.go); the source
		// tools still take in what git does not ignore below a directory they are given.
		Hand(e, words[1:])
		if sourceTools[n] {
			sourceDirs(e)
		}
	}
}

// sourceTools are linters, formatters, compilers and test runners: they read the project's sources
// below a directory they are given and leave out what git ignores (or read only their language's
// files, which a .env is not). What they are given to read below a directory is judged like git add's.
var sourceTools = map[string]bool{
	"ruff": true, "black": true, "isort": true, "flake8": true, "pylint": true, "mypy": true, "pyright": true,
	"pytest": true, "prettier": true, "eslint": true, "biome": true, "tsc": true, "jest": true, "vitest": true,
	"go": true, "gofmt": true, "goimports": true, "golangci-lint": true, "staticcheck": true, "cargo": true,
	"rustfmt": true, "rubocop": true, "shellcheck": true, "shfmt": true, "clang-format": true, "npx": true,
}

// sourceDirs moves the directories among what the part was handed to read to what it takes as git does.
func sourceDirs(e *shell.Exec) {
	kept := e.P.HandedReads[:0]
	for _, path := range e.P.HandedReads {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			e.P.GitTakes = append(e.P.GitTakes, path)
			continue
		}
		kept = append(kept, path)
	}
	e.P.HandedReads = kept
}

// Hand records the paths in words as given to a program that may read or write anything there: the
// words themselves, the values of `--opt=value` and `key=value` words, and `@file`.
func Hand(e *shell.Exec, words []shell.Word) {
	for _, path := range handedPaths(e, words) {
		e.P.HandedReads = append(e.P.HandedReads, path)
		e.P.HandedWrites = append(e.P.HandedWrites, path)
	}
}

// handReads records the paths in words as given to a program that may read anything there.
func handReads(e *shell.Exec, words []shell.Word) {
	e.P.HandedReads = append(e.P.HandedReads, handedPaths(e, words)...)
}

// handedPaths are the paths in words, as hand reads them.
func handedPaths(e *shell.Exec, words []shell.Word) []string {
	var out []string
	sc := e.Scope()
	for _, w := range words {
		if !w.Static || w.Found {
			continue
		}
		v := w.Value
		if name, value, ok := strings.Cut(v, "="); ok && !strings.Contains(name, "/") {
			v = value
		} else if strings.HasPrefix(v, "-") {
			continue
		}
		v = strings.TrimPrefix(v, "@")
		if v == "" || strings.HasPrefix(v, "-") {
			continue
		}
		// A relative path in a directory Warden lost track of stays relative: it may be anything.
		out = append(out, e.S.Abs(v, sc))
	}
	return out
}

// RunsFile records that the part runs w as code: a program by its path, a script, a sourced file. A
// script that arrives on a stream or is only known at run time is unseen; a file on disk is read (its
// content reaches the interpreter, and errors print it) and checked once the whole command is known
// (the engine's unseen_fresh.go): it must be there before the command runs, and no other part may write it.
func RunsFile(e *shell.Exec, w shell.Word) { runsCode(e, w, false) }

// RunsScript is RunsFile for a file a shell runs: a here-document or here-string fed to it through
// its standard input is read as bash for deny and ask rules.
func RunsScript(e *shell.Exec, w shell.Word) { runsCode(e, w, true) }

func runsCode(e *shell.Exec, w shell.Word, viaShell bool) {
	sc := e.Scope()
	switch {
	case w.ProcIn:
		e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("runs code from the process substitution `%s`", w.Raw))
	case !w.Static || w.Found:
		e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("runs `%s`, only known at run time, as code", w.Value))
	case w.Glob:
		// bash expands the pattern when the part runs, after what the same command wrote before it.
		e.P.RunGlobs = append(e.P.RunGlobs, e.S.Abs(w.Value, sc))
		names, ok := e.S.ExpandGlob(w.Value, sc)
		if !ok {
			e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("runs `%s`, a pattern Warden could not expand", w.Value))
			return
		}
		for _, n := range names {
			runsPath(e, n, viaShell)
		}
	default:
		runsPath(e, w.Value, viaShell)
	}
}

// runsPath is runsCode for one path as typed.
func runsPath(e *shell.Exec, v string, viaShell bool) {
	sc := e.Scope()
	path := e.S.Abs(v, sc)
	switch {
	case shell.IsStdin(v) || filepath.IsAbs(path) && shell.IsStdin(path):
		why := fmt.Sprintf("runs code from `%s`, its input", v)
		e.P.Unsee(shell.UnseenStreamCode, why)
		if viaShell && e.Stdin != nil && e.Stdin.Static {
			e.Untrusted(e.Stdin.Value, why)
		}
	case v == "-" || filepath.IsAbs(path) && e.S.IsStream(path):
		e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("runs code from `%s`, a stream Warden cannot see", v))
	case !filepath.IsAbs(path):
		e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("runs `%s` in a directory Warden lost track of", v))
	default:
		e.P.Runs = append(e.P.Runs, path)
		e.S.ReadOne(e.P, v, path, sc, true)
	}
}

// GlobProgram handles a program name bash replaces with the files it matches: deny and ask rules see each
// match as the program, and the part is unseen, since the files may change before it runs.
func GlobProgram(e *shell.Exec, words []shell.Word) {
	name := words[0]
	e.P.Unsee(shell.UnseenGlobProgram, fmt.Sprintf("the program `%s` is a pattern bash replaces with file names", name.Value))
	matches, ok := e.S.ExpandGlob(name.Value, e.Scope())
	if !ok {
		return
	}
	static := e.P.ArgStatic
	for _, m := range matches {
		if m == name.Value {
			continue
		}
		e.P.Layers = append(e.P.Layers, append([]string{m}, shell.Values(words[1:])...))
		e.P.LayerStatic = append(e.P.LayerStatic, static)
	}
}

// trap reads a trap's body, kept to run at a signal or at exit, as bash for deny and ask rules; the part
// is unseen, since the body runs later, where Warden cannot tell what the shell is.
func trap(e *shell.Exec, words []shell.Word) {
	args := words[1:]
	if len(args) > 0 && args[0].Static && args[0].Value == "--" {
		args = args[1:]
	} else if len(args) > 0 && args[0].Static && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		// -l and -p list; any other option is refused. After `--` a body may start with a dash.
		return
	}
	if len(args) < 2 || args[0].Static && (args[0].Value == "-" || args[0].Value == "") {
		// A lone signal or `-` resets; `''` ignores.
		return
	}
	body := args[0]
	if !body.Static {
		e.P.Unsee(shell.UnseenProgram, "the trap's command is only known at run time")
		return
	}
	reason := "`trap` keeps a command to run later"
	e.P.Unsee(shell.UnseenLaterCode, reason)
	e.Untrusted(body.Value, reason)
}

// hasShortOpt reports whether a short option letter is given in one of words' clusters.
func hasShortOpt(words []shell.Word, letter byte) bool {
	for _, w := range words {
		v := w.Value
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], letter) >= 0 {
			return true
		}
	}
	return false
}

// codeRunner is how an interpreter of a language Warden does not read is given its program.
type codeRunner struct {
	// inline are the letters whose value is code (python3 -c, perl -e); longInline the long options.
	inline     string
	longInline []string
	// script are the letters whose value is the script file (php -f, make -f); longScript the long ones.
	script     string
	longScript []string
	// preload are the letters whose value is a file run before the script (node -r); longPreload the
	// long ones.
	preload     string
	longPreload []string
	// values are other letters that take a value, from the rest of their word or the next word;
	// attached those that take the rest of their word only (perl -0777, -MList::Util).
	values, attached string
	longValues       []string
	// module are the letters that name an installed module to run in place of a script (python -m).
	module string
	// operandScript says the first operand is the script; otherwise operands are targets or packages.
	operandScript bool
	// stdin says that with no script and no inline code it reads its program from its input;
	// stdinAlways that it reads commands from its input whatever its operands (ed).
	stdin, stdinAlways bool
	// operandCode says the operands after the first are code (sqlite3 DB 'SQL').
	operandCode bool
	// subInline are subcommands that take code (deno eval); subScript those whose next operand is the
	// script (deno run).
	subInline, subScript []string
}

// codeRunners are the interpreters Warden knows of languages it does not read, and how each is given its
// program. Code given in the command, on a stream or in a file the same command writes is unseen; a
// script already on disk is the project's code.
var codeRunners = map[string]codeRunner{}

func init() {
	python := codeRunner{inline: "c", module: "m", values: "WX", operandScript: true, stdin: true,
		longValues: []string{"--check-hash-based-pycs"}}
	for _, n := range []string{"python", "python2", "python3", "pypy", "pypy3", "python3.8", "python3.9",
		"python3.10", "python3.11", "python3.12", "python3.13", "python3.14"} {
		codeRunners[n] = python
	}
	node := codeRunner{inline: "ep", longInline: []string{"--eval", "--print"}, preload: "r", operandScript: true, stdin: true,
		longPreload: []string{"--require", "--import", "--loader", "--experimental-loader"},
		longValues:  []string{"--input-type", "--env-file", "--conditions", "--title"}}
	codeRunners["node"], codeRunners["nodejs"] = node, node
	codeRunners["bun"] = codeRunner{inline: "ep", longInline: []string{"--eval", "--print"}, values: "r",
		longValues: []string{"--preload", "--cwd", "--config", "--env-file"}}
	codeRunners["deno"] = codeRunner{subInline: []string{"eval", "repl"}, subScript: []string{"run"}}
	codeRunners["perl"] = codeRunner{inline: "eE", values: "I", attached: "0CdDFilmMx", operandScript: true, stdin: true}
	codeRunners["ruby"] = codeRunner{inline: "e", values: "ICrE", attached: "0FKTWix", operandScript: true, stdin: true}
	codeRunners["php"] = codeRunner{inline: "rRBEF", script: "f", values: "cdzt", operandScript: true, stdin: true}
	for _, n := range []string{"lua", "luajit", "lua5.1", "lua5.3", "lua5.4"} {
		codeRunners[n] = codeRunner{inline: "e", values: "l", operandScript: true, stdin: true}
	}
	codeRunners["Rscript"] = codeRunner{inline: "e", longScript: []string{"--file"}, operandScript: true}
	codeRunners["R"] = codeRunner{inline: "e", longScript: []string{"--file"}, stdin: true}
	codeRunners["julia"] = codeRunner{inline: "eE", longInline: []string{"--eval", "--print"}, values: "pJCLOt",
		operandScript: true, stdin: true}
	codeRunners["osascript"] = codeRunner{inline: "e", values: "sl", operandScript: true, stdin: true}
	for _, n := range []string{"tclsh", "wish"} {
		codeRunners[n] = codeRunner{operandScript: true, stdin: true}
	}
	codeRunners["expect"] = codeRunner{inline: "c", script: "f", operandScript: true, stdin: true}
	codeRunners["ed"] = codeRunner{stdinAlways: true, values: "p"}
	codeRunners["ex"] = codeRunner{inline: "c", script: "S", values: "uiTw", stdinAlways: true}
	for _, n := range []string{"vim", "vi", "nvim", "view"} {
		codeRunners[n] = codeRunner{inline: "c", script: "S", values: "uiTwW", longInline: []string{"--cmd"}}
	}
	codeRunners["sqlite3"] = codeRunner{longInline: []string{"-cmd"}, operandCode: true, stdin: true}
	codeRunners["psql"] = codeRunner{inline: "c", script: "f", values: "dhpUvPLoT",
		longInline: []string{"--command"}, longScript: []string{"--file"}, stdin: true}
	codeRunners["mysql"] = codeRunner{inline: "e", longInline: []string{"--execute"}, values: "uhPpDS", stdin: true}
	codeRunners["gdb"] = codeRunner{longInline: []string{"-ex", "-eval-command", "--eval-command", "-iex"},
		longScript: []string{"-x", "-command", "--command"}}
	codeRunners["make"] = codeRunner{inline: "E", longInline: []string{"--eval"}, script: "f",
		longScript: []string{"--file", "--makefile"}, values: "CIjloW", longValues: []string{"--directory", "--include-dir",
			"--jobs", "--old-file", "--what-if", "--new-file", "--assume-old", "--assume-new"}}
	for _, n := range []string{"pwsh", "powershell"} {
		codeRunners[n] = codeRunner{operandScript: true, stdin: true}
	}
}

// runsCodeOf marks what an interpreter is given to run, as its codeRunner says: inline code and code on a
// stream are unseen; a script is recorded for the check that the same command does not write it.
func runsCodeOf(e *shell.Exec, n string, r codeRunner, words []shell.Word) {
	inline := func(opt string) {
		e.P.Unsee(shell.UnseenInlineCode, fmt.Sprintf("`%s %s` runs code in a language Warden does not read", n, opt))
	}
	if n == "pwsh" || n == "powershell" {
		for i, w := range words[1:] {
			if v := strings.ToLower(w.Value); strings.HasPrefix(v, "-c") || strings.HasPrefix(v, "-e") {
				inline(w.Value)
				return
			} else if strings.HasPrefix(v, "-f") && i+2 < len(words) {
				RunsFile(e, words[i+2])
				return
			}
		}
	}
	var operands []shell.Word
	stdin := r.stdin
	for i := 1; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			e.P.Unsee(shell.UnseenProgram, fmt.Sprintf("`%s` is given `%s`, only known at run time", n, v))
			return
		}
		switch {
		case v == "-" && len(operands) == 0:
			e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`%s -` runs code from its input", n))
			return
		case v == "--":
			operands = append(operands, words[i+1:]...)
			i = len(words)
		case strings.HasPrefix(v, "-") && len(operands) == 0 && (strings.HasPrefix(v, "--") || hasLong(strings.SplitN(v, "=", 2)[0], r.longInline, r.longScript)):
			name, value, has := strings.Cut(v, "=")
			switch {
			case hasLong(name, r.longInline, nil):
				inline(name)
				return
			case hasLong(name, r.longScript, r.longPreload):
				if !has && i+1 < len(words) {
					i++
					RunsFile(e, words[i])
				} else if has {
					RunsFile(e, shell.Word{Value: value, Raw: value, Static: true})
				}
				stdin = stdin && hasLong(name, r.longPreload, nil)
			case !has && hasLong(name, r.longValues, nil):
				i++
			}
		case strings.HasPrefix(v, "-") && len(v) > 1 && len(operands) == 0:
			for j := 1; j < len(v); j++ {
				ch := v[j]
				rest := v[j+1:]
				switch {
				case strings.IndexByte(r.inline, ch) >= 0:
					inline("-" + string(ch))
					return
				case strings.IndexByte(r.module, ch) >= 0:
					return // an installed module, like a script on disk
				case strings.IndexByte(r.script+r.preload, ch) >= 0:
					if rest == "" && i+1 < len(words) {
						i++
						RunsFile(e, words[i])
					} else if rest != "" {
						RunsFile(e, shell.Word{Value: rest, Raw: rest, Static: true})
					}
					stdin = stdin && strings.IndexByte(r.preload, ch) >= 0
				case strings.IndexByte(r.values, ch) >= 0:
					if rest == "" {
						i++
					}
				case strings.IndexByte(r.attached, ch) >= 0:
				default:
					continue
				}
				break
			}
		default:
			operands = append(operands, w)
		}
	}
	if len(operands) > 0 {
		first := operands[0]
		switch {
		case containsStr(r.subInline, first.Value):
			inline(first.Value)
			return
		case containsStr(r.subScript, first.Value):
			if len(operands) > 1 {
				RunsFile(e, operands[1])
				Hand(e, operands[2:])
				return
			}
			e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`%s %s` without a script runs code from its input", n, first.Value))
			return
		case r.operandCode && len(operands) > 1:
			inline(operands[1].Value)
			return
		case r.operandScript:
			RunsFile(e, first)
			Hand(e, operands[1:])
			stdin = false
		default:
			Hand(e, operands)
			stdin = false
		}
	}
	if stdin || r.stdinAlways {
		e.P.Unsee(shell.UnseenStreamCode, fmt.Sprintf("`%s` runs code from its input, which Warden cannot see", n))
	}
}

// hasLong reports whether the long option name is one of names or, for those starting with `--`, an
// abbreviation of one; or one of more.
func hasLong(name string, names, more []string) bool {
	for _, list := range [][]string{names, more} {
		for _, n := range list {
			if name == n || strings.HasPrefix(n, "--") && len(name) > 3 && strings.HasPrefix(n, name) {
				return true
			}
		}
	}
	return false
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sed: a script that only substitutes and prints edits the files it is given (-i), which are handed;
// one that runs commands (e), writes other files (w) or comes from a file is unseen.
func sed(e *shell.Exec, words []shell.Word) {
	var scripts []string
	var files []shell.Word
	explicit := false
	for i := 1; i < len(words); i++ {
		v := words[i].Value
		switch {
		case !words[i].Static:
			e.P.Unsee(shell.UnseenProgram, "`sed` is given a word only known at run time")
			return
		case v == "--":
			files = append(files, words[i+1:]...)
			i = len(words)
		case v == "-e" || v == "--expression":
			if i+1 < len(words) {
				i++
				scripts, explicit = append(scripts, words[i].Value), true
			}
		case strings.HasPrefix(v, "--expression="):
			scripts, explicit = append(scripts, strings.TrimPrefix(v, "--expression=")), true
		case v == "-f" || strings.HasPrefix(v, "--file") || strings.HasPrefix(v, "-f"):
			e.P.Unsee(shell.UnseenInlineCode, "`sed -f` runs a script from a file")
			return
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				if v[j] == 'e' {
					rest := v[j+1:]
					if rest == "" && i+1 < len(words) {
						i++
						rest = words[i].Value
					}
					scripts, explicit = append(scripts, rest), true
					break
				}
				if v[j] == 'i' {
					break // -i takes the rest of its word as a suffix
				}
				if v[j] == 'l' {
					if j == len(v)-1 {
						i++
					}
					break
				}
				if v[j] == 'f' {
					e.P.Unsee(shell.UnseenInlineCode, "`sed -f` runs a script from a file")
					return
				}
			}
		default:
			files = append(files, words[i])
		}
	}
	if !explicit && len(files) > 0 {
		scripts, files = append(scripts, files[0].Value), files[1:]
	}
	if r := programs.SedScriptReadOnly(strings.Join(scripts, "\n")); r != "" {
		e.P.Unsee(shell.UnseenInlineCode, r)
		return
	}
	Hand(e, files)
}

// fileList returns why program n reads the names of the files it reads from its input or a list file,
// or "".
func fileList(n string, words []shell.Word) string {
	has := func(opts ...string) bool {
		for _, w := range words[1:] {
			for _, o := range opts {
				if w.Value == o || strings.HasPrefix(o, "--") && strings.HasPrefix(w.Value, o+"=") {
					return true
				}
			}
		}
		return false
	}
	switch n {
	case "cpio":
		if !hasShortOpt(words[1:], 'i') && !has("--extract") {
			return "`cpio` reads the names of the files it copies from its input"
		}
	case "tar", "bsdtar", "gtar":
		if has("-T", "--files-from") || hasShortOpt(words[1:], 'T') {
			return "`tar -T` reads the names of the files it archives from a list"
		}
	case "zip":
		if has("-@", "--names-stdin") {
			return "`zip -@` reads the names of the files it archives from its input"
		}
	case "rsync":
		if has("--files-from", "--include-from", "--exclude-from") {
			return "`rsync` reads the names of the files it copies from a list"
		}
	case "7z", "7za", "7zr":
		for _, w := range words[1:] {
			if strings.HasPrefix(w.Value, "@") || strings.HasPrefix(w.Value, "-i@") {
				return "`7z` reads the names of the files it archives from a list"
			}
		}
	}
	return ""
}

// splitString handles `env -S STRING ARGS...` (words[i] is the option): env splits the string into a
// command of its own, quoting and variables its own way. It is read as bash for deny and ask rules, and
// the part is unseen.
func splitString(e *shell.Exec, words []shell.Word, i int) {
	v := words[i].Value
	var body string
	switch {
	case strings.HasPrefix(v, "--split-string="):
		body = strings.TrimPrefix(v, "--split-string=")
	case v == "-S" || v == "--split-string":
		if i+1 >= len(words) {
			e.P.NotRO("`env -S` without a string")
			return
		}
		i++
		body = words[i].Value
	default:
		body = v[2:]
	}
	why := "`env -S` splits a string into a command its own way"
	e.P.Unsee(shell.UnseenSplitWords, why)
	for _, w := range words[i+1:] {
		if !w.Static {
			return
		}
	}
	e.Untrusted(strings.Join(append([]string{body}, shell.Values(words[i+1:])...), " "), why)
}

// unpacksInto returns the directory an unpacker writes the files its archive or patch names into (tar
// -x, unzip, patch, cpio -i, 7z x, ar x), and whether n is one used so.
func unpacksInto(n string, words []shell.Word) (string, bool) {
	dir := "."
	valueOf := func(opts ...string) {
		for i, w := range words[1:] {
			for _, o := range opts {
				switch {
				case w.Value == o && i+2 < len(words):
					dir = words[i+2].Value
				case strings.HasPrefix(o, "--") && strings.HasPrefix(w.Value, o+"="):
					dir = strings.TrimPrefix(w.Value, o+"=")
				case !strings.HasPrefix(o, "--") && strings.HasPrefix(w.Value, o) && len(w.Value) > len(o):
					dir = w.Value[len(o):]
				}
			}
		}
	}
	switch n {
	case "tar", "bsdtar", "gtar":
		extract := hasWord(words[1:], "--extract", "--get") || hasShortOpt(words[1:], 'x')
		if len(words) > 1 && !strings.HasPrefix(words[1].Value, "-") && strings.ContainsRune(words[1].Value, 'x') {
			extract = true // old-style `tar xf a.tar`
		}
		if !extract {
			return "", false
		}
		valueOf("-C", "--directory")
	case "unzip":
		valueOf("-d")
	case "patch":
		valueOf("-d", "--directory")
	case "cpio":
		if !hasShortOpt(words[1:], 'i') && !hasWord(words[1:], "--extract") {
			return "", false
		}
		valueOf("-D", "--directory")
	case "7z", "7za", "7zr":
		if len(words) < 2 || words[1].Value != "x" && words[1].Value != "e" {
			return "", false
		}
		valueOf("-o")
	case "ar":
		if len(words) < 2 || !strings.ContainsRune(words[1].Value, 'x') {
			return "", false
		}
	case "unar", "bunzip2", "gunzip", "unxz", "unzstd":
		// They write next to their operands, which are handed already.
		return "", false
	default:
		return "", false
	}
	return dir, true
}

// LinkedProgram adds, for a program run by its path through a link, the program the link leads to as
// a layer: deny and ask rules see `./x` made by `ln -s /bin/rm x` in an earlier command as rm.
func LinkedProgram(e *shell.Exec, words []shell.Word) {
	path := e.S.Abs(words[0].Value, e.Scope())
	if !filepath.IsAbs(path) {
		return
	}
	if real := e.S.Resolved(path); real != path {
		e.P.Layers = append(e.P.Layers, append([]string{real}, shell.Values(words[1:])...))
		e.P.LayerStatic = append(e.P.LayerStatic, e.P.ArgStatic)
	}
}
