package programs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
)

// operandUse says what a command does with its operands.
type operandUse int

const (
	// opNone: operands are data (echo's words, seq's numbers), never files.
	opNone operandUse = iota
	// opRead: operands are files whose contents are read; reading a secret asks.
	opRead
	// opList: operands are files or directories whose names or metadata are shown, not their contents.
	opList
)

// Spec is the read-only table entry for one command. A command not in the table is not read-only.
type Spec struct {
	// values are short options that take a value ("k" for sort -k 2); longValues the long ones.
	values     string
	longValues []string
	// bad are short options that write, run programs or change state; longBad the long ones (GNU
	// abbreviations of them count too).
	bad     string
	longBad []string
	ops     operandUse
	// maxOps caps the operands: uniq's second operand is an output file. Zero means no cap.
	maxOps int
	// noOps means operands change state (hostname NAME, date MMDDhhmm): only the bare command reads.
	noOps bool
	// patternFirst: the first operand is a pattern or script, not a file, unless -e/-f gave one.
	patternFirst bool
	// dynamic: arguments only known at run time are harmless because the command only prints them.
	dynamic bool
	// rawArgs: do not parse options at all (echo prints "-n" style words as it likes).
	rawArgs bool
	// check does what a table row cannot: it returns why the command is not read-only, or "".
	check func(e *shell.Exec, a *shell.Args) string
	// walk records the directories the command reads recursively (see trees in search.go, and package treewalk).
	walk func(e *shell.Exec, a *shell.Args)
	// writes: the command writes its operands (or the last one); editOnly says that is its only effect.
	writes   writeUse
	editOnly bool
	// fileValues are the options ("-f", "--file") whose value names a file the command reads: its content
	// may be printed, in output or in errors, so it is checked like a file operand. init adds them to
	// values and longValues.
	fileValues []string
	// patternOpts are the options that give the pattern or program, so that the first operand is a file
	// (grep -e, jq -f); nil means grep's.
	patternOpts []string
	// globOpts are the options whose value is a pattern of names to take or leave out (grep --exclude,
	// rg -g): `--exclude=.env` reads nothing.
	globOpts []string
}

// globValue reports whether the option, as typed, gives a pattern of names rather than a file.
func (s *Spec) globValue(name string) bool {
	for _, g := range s.globOpts {
		if name == g || strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(g, name) {
			return true
		}
	}
	return false
}

// fileValue reports whether the option, as typed, is one of the spec's fileValues; a long one counts
// abbreviated too, since reading is the stricter answer.
func (s *Spec) fileValue(name string) bool {
	if slices.Contains(s.globOpts, name) {
		// An option spelled out in full is that option, not an abbreviation of a longer one.
		return false
	}
	for _, f := range s.fileValues {
		if name == f || strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(f, name) {
			return true
		}
	}
	return false
}

// patternGiven reports whether an option gave the pattern, so that no operand is one.
func (s *Spec) patternGiven(a *shell.Args) bool {
	if s.patternOpts != nil {
		return a.HasOpt(s.patternOpts...)
	}
	return a.HasOpt("-e", "-f", "--regexp", "--file")
}

type writeUse int

const (
	writesNone writeUse = iota
	writesAll
	writesLast
)

// Parse splits words by the spec's option table. bad receives the first bad option found.
func (s *Spec) Parse(words []shell.Word) (a *shell.Args, bad string) {
	a = &shell.Args{Name: words[0].Value, Words: words}
	rest := words[1:]
	if s.rawArgs {
		a.Operands = rest
		return a, ""
	}
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		v := w.Value
		if !w.Static {
			a.Operands = append(a.Operands, w)
			continue
		}
		switch {
		case v == "--":
			a.Operands = append(a.Operands, rest[i+1:]...)
			return a, bad
		case strings.HasPrefix(v, "--"):
			long, val, hasVal := strings.Cut(v[2:], "=")
			if shell.MatchesLong(long, s.longBad) && bad == "" {
				bad = "--" + long
			}
			if !hasVal && exactOrPrefix(long, s.longValues) && i+1 < len(rest) {
				i++
				val, hasVal = rest[i].Value, true
			}
			a.Flags = append(a.Flags, shell.Flag{Name: "--" + long, Value: val, Has: hasVal})
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				ch := v[j]
				if strings.IndexByte(s.bad, ch) >= 0 && bad == "" {
					bad = "-" + string(ch)
				}
				if strings.IndexByte(s.values, ch) >= 0 {
					val := v[j+1:]
					if val == "" && i+1 < len(rest) {
						i++
						val = rest[i].Value
					}
					a.Flags = append(a.Flags, shell.Flag{Name: "-" + string(ch), Value: val, Has: true})
					break
				}
				a.Flags = append(a.Flags, shell.Flag{Name: "-" + string(ch)})
			}
		default:
			a.Operands = append(a.Operands, w)
		}
	}
	return a, bad
}

func exactOrPrefix(typed string, names []string) bool {
	for _, n := range names {
		if n == typed {
			return true
		}
	}
	return shell.MatchesLong(typed, names)
}

// Check judges a command against its table entry.
func Check(e *shell.Exec, name string, s *Spec, words []shell.Word) {
	if name == "cd" || name == "pushd" || name == "popd" {
		if name == "popd" {
			e.Sc.Cwd = ""
			return
		}
		if name == "pushd" {
			// pushd alone, pushd +N/-N and pushd -n rotate the directory stack or leave the directory:
			// where the shell ends up is not tracked.
			if len(words) < 2 || strings.HasPrefix(words[1].Value, "+") || strings.HasPrefix(words[1].Value, "-") && words[1].Value != "--" {
				e.Sc.Cwd = ""
				return
			}
		}
		e.CD(words)
		return
	}
	for _, w := range words[1:] {
		if !w.Static || !w.Glob {
			continue
		}
		names, ok := e.S.ExpandGlob(w.Value, e.Scope())
		if !ok {
			e.P.NotRO(fmt.Sprintf("`%s` could not be expanded to check it", w.Value))
			continue
		}
		for _, n := range names {
			if strings.HasPrefix(filepath.Base(n), "-") {
				e.P.NotRO(fmt.Sprintf("`%s` matches `%s`, which %s would take as an option", w.Value, filepath.Base(n), name))
			}
		}
	}
	if name == "rg" {
		// rg reads more arguments from its configuration file, before its own.
		if r := supplied.CheckRgConfig(e, words); r != "" {
			e.P.NotRO(r)
			return
		}
		if extra, _ := supplied.RgConfigArgs(e, words); len(extra) > 0 {
			more := []shell.Word{words[0]}
			for _, x := range extra {
				more = append(more, shell.Word{Value: x, Raw: x, Static: true})
			}
			words = append(more, words[1:]...)
		}
	}
	if s.writes != writesNone {
		clean := e.P.ReadOnly || e.P.EditOnly
		e.P.NotRO(fmt.Sprintf("`%s` is not read-only", shell.Display(words)))
		marks := e.P.Marks
		defer func() {
			// A writer whose only effect is writing known files is an edit, for accept-edits and Edit rules.
			e.P.EditOnly = clean && s.editOnly && e.P.Marks == marks && len(e.P.Writes) > 0
		}()
	}
	a, bad := s.Parse(words)
	if bad != "" {
		e.P.NotRO(fmt.Sprintf("`%s %s` is not read-only", name, bad))
	}
	if !s.dynamic {
		for _, w := range words[1:] {
			if w.Found && s.check == nil && s.writes == writesNone && isFileOperand(s, a, w) {
				// find -exec's {}: a file the program reads or lists, like its other operands.
				e.FoundRead = e.FoundRead || s.ops == opRead
				continue
			}
			if !w.Static {
				if w.Subst != nil && s.ops != opNone && s.check == nil && isFileOperand(s, a, w) && substFiles(e, w) {
					// `wc -l $(git ls-files)`: the names are what the inner command lists.
					continue
				}
				e.P.NotRO(fmt.Sprintf("`%s` gets `%s`, only known at run time", name, w.Value))
				break
			}
		}
	}
	if e.UnknownTail && (s.check != nil || s.maxOps > 0 || s.noOps) {
		e.P.NotRO(fmt.Sprintf("`xargs %s` gets more arguments Warden cannot see", name))
	}
	if e.UnknownTail {
		// xargs appends words from its input: file names the program reads, or options that read files.
		e.P.ReadsInput = s.ops == opRead || e.XargsFile && s.ops != opNone
		e.P.InputOpts = len(s.fileValues) > 0 || s.bad != "" || len(s.longBad) > 0 || e.XargsFile
		e.P.InputDir = e.Scope().Cwd
		e.P.ArgFile = e.XargsFile
	}
	for _, f := range a.Flags {
		if f.Has && f.Value != "" && f.Value != "-" && s.fileValue(f.Name) {
			e.S.Read(e.P, f.Value, e.Scope())
		}
	}
	if s.noOps && len(a.Operands) > 0 {
		e.P.NotRO(fmt.Sprintf("`%s` with an operand changes the system", name))
	}
	if s.maxOps > 0 && len(a.Operands) > s.maxOps {
		e.P.NotRO(fmt.Sprintf("`%s` writes its last operand `%s`", name, a.Operands[len(a.Operands)-1].Value))
	}
	if s.check != nil {
		if reason := s.check(e, a); reason != "" {
			e.P.NotRO(reason)
		}
	}
	if e.P.ReadOnly {
		supplied.Check(e, name, a)
	}
	if s.walk != nil {
		s.walk(e, a)
	}
	operands(e, name, s, a)
}

// isFileOperand reports whether w is among the operands the command takes as files: not an option's
// value, not a pattern.
func isFileOperand(s *Spec, a *shell.Args, w shell.Word) bool {
	ops := a.Operands
	if s.patternFirst && len(ops) > 0 && !s.patternGiven(a) {
		ops = ops[1:]
	}
	for _, o := range ops {
		if o == w {
			return true
		}
	}
	return false
}

// operands records the files a command reads or writes, expanding globs the way bash will.
func operands(e *shell.Exec, name string, s *Spec, a *shell.Args) {
	sc := e.Scope()
	ops := a.Operands
	if s.patternFirst && len(ops) > 0 && !s.patternGiven(a) {
		ops = ops[1:]
	}
	for _, f := range a.Flags {
		if f.Has && f.Value != "" && !s.globValue(f.Name) && e.S.IsSecret(f.Value) {
			e.S.Read(e.P, f.Value, sc)
		}
	}
	for i, w := range ops {
		names := []string{w.Value}
		if w.Static && w.Glob {
			var ok bool
			names, ok = e.S.ExpandGlob(w.Value, sc)
			if !ok {
				continue
			}
		}
		for _, n := range names {
			switch {
			case s.writes == writesAll || s.writes == writesLast && i == len(ops)-1:
				if !w.Static {
					e.P.NotRO(fmt.Sprintf("`%s` writes `%s`, only known at run time", name, w.Value))
					continue
				}
				e.P.Writes = append(e.P.Writes, e.S.Abs(n, sc))
			case (s.ops == opRead || s.writes == writesLast) && w.Static && !w.ProcIn && n != "-":
				e.S.Read(e.P, n, sc)
			}
		}
	}
}

// Lookup returns the table's entry for the program name, or nil when it has none (and is not read-only).
func Lookup(name string) *Spec { return table[name] }

// Plain reports whether the program's options are read by its row alone, as GNU's getopt reads them: no
// check of its own, and options parsed.
func (s *Spec) Plain() bool { return !s.rawArgs && s.check == nil }

// ShortTakesValue reports whether the short option ch takes a value (the rest of its word, or the next).
func (s *Spec) ShortTakesValue(ch rune) bool { return strings.ContainsRune(s.values, ch) }

// LongTakesValue reports whether the long option name, as typed (a prefix counts), takes the next word
// as its value.
func (s *Spec) LongTakesValue(name string) bool { return exactOrPrefix(name, s.longValues) }

// WritesFiles reports whether the program writes its operands.
func (s *Spec) WritesFiles() bool { return s.writes != writesNone }

// table is the read-only table. Commands with more involved rules (git, find, sed, awk, rg...) have
// entries whose check function lives in their own file.
var table map[string]*Spec

func init() {
	printing := &Spec{dynamic: true, rawArgs: true}
	info := &Spec{noOps: true}
	reader := &Spec{ops: opRead}
	// --files0-from reads the names of the files to read from a file or stdin, which Warden cannot see.
	filesFrom := &Spec{ops: opRead, longBad: []string{"files0-from"}}
	lister := &Spec{ops: opList}
	table = map[string]*Spec{
		// Builtins and programs that only print.
		"echo": printing, ":": printing, "true": printing, "false": printing,
		"printf": {dynamic: true, rawArgs: true, check: checkPrintf},
		"test":   {dynamic: true, rawArgs: true, check: checkTest}, "[": {dynamic: true, rawArgs: true, check: checkTest},
		"expr": printing, "sleep": printing, "seq": printing, "yes": printing,
		"factor": printing, "basename": printing, "dirname": printing,
		"pwd": info, "whoami": info, "id": {}, "groups": {}, "uname": info, "nproc": info, "uptime": info,
		"tty": info, "arch": info, "locale": {}, "logname": info, "users": info, "who": {}, "w": {},
		"printenv": {}, "getconf": {}, "type": {}, "which": {}, "whereis": {}, "help": {}, "times": {},
		"dirs": {}, "jobs": {bad: "x"}, "wait": {values: "p", check: checkWait}, "exit": {}, "return": {}, "break": {}, "continue": {}, "shift": {},
		"hostname": {noOps: true, bad: "bF", longBad: []string{"boot", "file"}},
		"date":     {values: "dr", longValues: []string{"date", "reference"}, fileValues: []string{"-f", "--file"}, bad: "s", longBad: []string{"set"}, check: checkDate},
		"hash":     {bad: "p", noOps: true},
		"umask":    {noOps: true},
		"set":      {rawArgs: true, check: checkSet},
		"shopt":    {rawArgs: true, check: checkShopt},
		"unset":    {check: checkUnset},
		"read":     {values: "dinNptua", check: checkRead},
		"alias":    {check: checkAlias},
		"cd":       {}, "pushd": {}, "popd": {},
		"free": info, "df": lister, "ps": {rawArgs: true, check: checkPs}, "pgrep": {}, "lsof": {}, "vmstat": {},
		"ls": lister, "dir": lister,
		"du":       {ops: opList, values: "dBt", longValues: []string{"max-depth", "block-size", "threshold", "exclude", "time-style"}, fileValues: []string{"-X", "--exclude-from", "--files0-from"}},
		"stat":     {values: "c", longValues: []string{"format", "printf"}, ops: opList},
		"realpath": lister, "readlink": lister,
		"tree": {ops: opList, values: "LPIo", bad: "oR", longBad: []string{"output"}, check: checkTree,
			longValues: []string{"charset", "filelimit", "timefmt", "sort"}, fileValues: []string{"--gitfile", "--infofile", "--hintro", "--houtro"}},
		"file":   {ops: opRead, values: "FeP", bad: "C", longBad: []string{"compile"}, longValues: []string{"separator", "exclude", "exclude-quiet", "parameter"}, fileValues: []string{"-m", "-f", "--magic-file", "--files-from"}},
		"md5sum": reader, "sha1sum": reader, "sha224sum": reader, "sha256sum": reader, "sha384sum": reader,
		"sha512sum": reader, "b2sum": reader, "cksum": reader, "sum": reader, "shasum": reader,
		// Readers of file contents.
		"cat": reader, "tac": reader, "nl": reader, "rev": reader, "strings": {ops: opRead, values: "nTte", check: checkStrings}, "od": reader,
		"hexdump": {ops: opRead, values: "nse", fileValues: []string{"-f"}}, "wc": filesFrom, "fold": reader, "fmt": reader, "expand": reader, "unexpand": reader,
		"cmp": reader, "comm": reader,
		"diff": {ops: opRead, values: "xIFLDC", longValues: []string{"exclude", "label"}, fileValues: []string{"-X", "--exclude-from"}, longBad: []string{"to-file", "from-file"}, walk: walkDiff},
		"head": {ops: opRead, values: "nc"}, "tail": {ops: opRead, values: "ncs"},
		"cut":    {ops: opRead, values: "bcdf"},
		"paste":  {ops: opRead, values: "d"},
		"join":   {ops: opRead, values: "atejo12"},
		"column": {ops: opRead, values: "csoRNEHOWTlripn"},
		"base64": {ops: opRead, maxOps: 1, values: "w", bad: "o", longBad: []string{"output"}},
		"base32": {ops: opRead, maxOps: 1, values: "w"},
		"xxd":    {ops: opRead, maxOps: 1, values: "cglnos"},
		"tr":     {ops: opNone},
		"grep":   grepSpec, "egrep": grepSpec, "fgrep": grepSpec,
		"sort": {ops: opRead, values: "ktST", longValues: []string{"key", "field-separator", "buffer-size", "temporary-directory", "parallel", "sort", "batch-size"}, fileValues: []string{"--random-source"}, bad: "o", longBad: []string{"output", "compress-program", "files0-from"}},
		"uniq": {ops: opRead, maxOps: 1, values: "fsw"},
		"jq":   {ops: opRead, patternFirst: true, values: "L", longValues: []string{"indent"}, fileValues: []string{"-f", "--from-file"}, patternOpts: []string{"-f", "--from-file"}, check: checkJq},
		// -i/--inplace (mikefarah) and --in-place (python yq) edit; -s/--split-exp writes a file per
		// result; --from-file reads an expression Warden cannot see.
		"yq":  {ops: opRead, patternFirst: true, bad: "is", longBad: []string{"inplace", "in-place", "split-exp", "split-exp-file", "from-file"}, check: checkYq},
		"sed": {check: checkSed},
		"awk": {check: checkAwk}, "gawk": {check: checkAwk}, "mawk": {check: checkAwk}, "nawk": {check: checkAwk},
		"find":   {check: checkFind},
		"fd":     {ops: opList, values: "ethdEcjSo", longValues: []string{"type", "extension", "exclude", "max-depth", "min-depth", "changed-within", "changed-before", "size", "owner", "color", "threads", "search-path", "base-directory"}, bad: "xX", longBad: []string{"exec", "exec-batch", "base-directory"}, fileValues: []string{"--ignore-file"}},
		"fdfind": {ops: opList, values: "ethdEcjSo", bad: "xX", longBad: []string{"exec", "exec-batch", "base-directory"}, fileValues: []string{"--ignore-file"}},
		"rg":     rgSpec,
		"ag":     {ops: opRead, patternFirst: true, values: "ABCGmg", walk: walkAg, longBad: []string{"pager"}, fileValues: []string{"-p", "--path-to-ignore"}},
		"git":    {check: checkGit, globOpts: gitGlobOptions},
		"go":     {check: checkGo},
		"npm":    {check: checkNpm},
		"docker": {check: checkDocker},
		// Programs that write the files they are given. They are never read-only; the writes are recorded
		// so Edit/Write rules and accept-edits can judge them.
		"tee":      {writes: writesAll, editOnly: true, bad: "p"},
		"touch":    {writes: writesAll, editOnly: true, values: "dtr"},
		"mkdir":    {writes: writesAll, editOnly: true, values: "m"},
		"cp":       {writes: writesLast, editOnly: true, values: "St", bad: "t", longBad: []string{"target-directory"}},
		"mv":       {writes: writesAll, editOnly: true, values: "St", bad: "t", longBad: []string{"target-directory"}},
		"rm":       {writes: writesAll},
		"rmdir":    {writes: writesAll},
		"unlink":   {writes: writesAll},
		"shred":    {writes: writesAll},
		"truncate": {writes: writesAll, values: "sr"},
		"ln":       {writes: writesLast, values: "St"},
		"chmod":    {writes: writesAll, check: func(*shell.Exec, *shell.Args) string { return "" }},
		"chown":    {writes: writesAll},
		"chgrp":    {writes: writesAll},
	}
	for _, n := range supplied.Interpreters {
		table[n] = &Spec{check: checkVersionOnly}
	}
	for n, s := range statusSpecs {
		table[n] = s
	}
	for n, s := range toolSpecs {
		table[n] = s
	}
	table["cargo"] = &Spec{check: checkCargo}
	for _, s := range table {
		for _, f := range s.fileValues {
			if long, ok := strings.CutPrefix(f, "--"); ok {
				if !slices.Contains(s.longValues, long) {
					s.longValues = append(s.longValues, long)
				}
			} else if !strings.Contains(s.values, f[1:]) {
				s.values += f[1:]
			}
		}
	}
}

var grepSpec = &Spec{
	ops: opRead, patternFirst: true, values: "eABCDdmX", walk: walkGrep,
	globOpts:   []string{"--include", "--exclude", "--exclude-dir"},
	fileValues: []string{"-f", "--file", "--exclude-from"},
	longValues: []string{"regexp", "after-context", "before-context", "context", "devices", "directories",
		"max-count", "include", "exclude", "exclude-dir", "label", "binary-files", "color", "colour"},
}

var rgSpec = &Spec{
	ops: opRead, patternFirst: true, values: "eABCgtTmMjEr", walk: walkRg,
	globOpts:   []string{"-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "--type-add"},
	fileValues: []string{"-f", "--file", "--ignore-file"},
	longValues: []string{"regexp", "glob", "iglob", "type", "type-not", "max-count", "max-columns",
		"threads", "encoding", "replace", "after-context", "before-context", "context", "max-depth", "type-add",
		"color", "colors", "sort", "sortr", "max-filesize", "path-separator", "context-separator",
		"field-match-separator", "field-context-separator", "engine", "dfa-size-limit", "regex-size-limit"},
	longBad: []string{"pre", "hostname-bin"},
}

// checkPrintf: `printf -v NAME` (or `-vNAME`, as bash's option parser takes it) assigns NAME.
func checkPrintf(e *shell.Exec, a *shell.Args) string {
	if len(a.Operands) == 0 {
		return ""
	}
	first := a.Operands[0]
	if !first.Static {
		// "$fmt" may turn out to be -vPATH; "Total: $n" cannot.
		lead := strings.TrimLeft(first.Raw, `"'`)
		if lead == "" || lead[0] == '-' || lead[0] == '$' || lead[0] == '`' || lead[0] == '\\' {
			return "`printf` with a first argument only known at run time, which may be an option"
		}
		return ""
	}
	if !strings.HasPrefix(first.Value, "-v") {
		return ""
	}
	name := shell.Word{Value: strings.TrimPrefix(first.Value, "-v"), Static: true}
	if name.Value == "" {
		if len(a.Operands) < 2 {
			return "`printf -v` without a name"
		}
		name = a.Operands[1]
	}
	e.S.Taint("`printf -v` assigns a value only known at run time")
	if r := shell.VarNameOperand(name); r != "" {
		return r
	}
	return shell.SensitiveVar(name.Value)
}

func checkSet(e *shell.Exec, a *shell.Args) string {
	ops := a.Operands
	for i := 0; i < len(ops); i++ {
		v := ops[i].Value
		if !ops[i].Static {
			return "`set` with an argument only known at run time"
		}
		if v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			return "" // the rest are positional parameters
		}
		for _, ch := range v[1:] {
			if ch == 'o' {
				if i+1 < len(ops) && !strings.HasPrefix(ops[i+1].Value, "-") && !strings.HasPrefix(ops[i+1].Value, "+") {
					i++
					if !shell.SetNames[ops[i].Value] {
						return fmt.Sprintf("`set -o %s` changes how the shell reads what follows", ops[i].Value)
					}
				}
				continue
			}
			if !strings.ContainsRune(shell.SetLetters, ch) {
				return fmt.Sprintf("`set -%c` changes how the shell reads what follows", ch)
			}
		}
	}
	return ""
}

// checkShopt: listing and querying options reads; setting or unsetting any changes how bash expands
// what follows (nullglob, nocaseglob, globstar, extglob, failglob...) in ways Warden does not model, so it
// asks. Plain `shopt -s` with no name only lists.
func checkShopt(e *shell.Exec, a *shell.Args) string {
	change := false
	for _, w := range a.Operands {
		v := w.Value
		if !w.Static {
			return "`shopt` with an argument only known at run time"
		}
		if strings.HasPrefix(v, "-") {
			change = change || strings.ContainsAny(v, "su")
			continue
		}
		if change {
			return fmt.Sprintf("`shopt %s` changes how the shell expands what follows", v)
		}
	}
	return ""
}

// checkPs: ps prints other processes' environments, Warden's own with its API key among them, with the
// BSD option e (ps e, ps axeww; -e with a dash only selects every process) or the environ format key.
func checkPs(e *shell.Exec, a *shell.Args) string {
	ws := a.Operands
	format := func(v string) string {
		if strings.Contains(strings.ToLower(v), "env") {
			return fmt.Sprintf("`ps -o %s` prints processes' environments, which hold secrets", v)
		}
		return ""
	}
	for i := 0; i < len(ws); i++ {
		v := ws[i].Value
		if !ws[i].Static {
			return "`ps` with an argument only known at run time"
		}
		// next returns the value of an option given in the next word.
		next := func() string {
			if i+1 < len(ws) {
				i++
				return ws[i].Value
			}
			return ""
		}
		switch {
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v[2:], "=")
			if name == "format" || name == "sort" || name == "pid" || name == "ppid" || name == "user" ||
				name == "User" || name == "group" || name == "Group" || name == "tty" || name == "sid" ||
				name == "cols" || name == "columns" || name == "rows" || name == "lines" || name == "width" || name == "quick-pid" {
				if !has {
					val = next()
				}
			}
			if r := format(val); r != "" {
				return r
			}
		case strings.HasPrefix(v, "-"):
			for j := 1; j < len(v); j++ {
				if strings.IndexByte("CGgOopqstUu", v[j]) < 0 {
					continue
				}
				val := v[j+1:]
				if val == "" {
					val = next()
				}
				if r := format(val); r != "" {
					return r
				}
				break
			}
		case strings.Trim(v, "0123456789,") == "":
			// A list of process ids.
		default:
			// BSD options, without a dash.
			if strings.ContainsRune(v, 'e') {
				return fmt.Sprintf("`ps %s` prints processes' environments, which hold secrets", v)
			}
			for _, ch := range v {
				if strings.ContainsRune("oOptUk", ch) {
					if r := format(next()); r != "" {
						return r
					}
					break
				}
			}
		}
	}
	return ""
}

// checkRead: read assigns its names a line from stdin, a value only known at run time: words using them
// are not static, and arithmetic on them asks (taint). -e runs readline and -u reads a descriptor Warden's
// shell may hold.
func checkRead(e *shell.Exec, a *shell.Args) string {
	if a.Has("-e", "-u", "-i") {
		return "`read -e` and `read -u` are not checked"
	}
	e.S.Taint("`read` assigns a value only known at run time")
	names := a.Operands
	for _, f := range a.Flags {
		if f.Name == "-a" {
			names = append(names, shell.Word{Value: f.Value, Static: true})
		}
	}
	for _, n := range names {
		if r := shell.VarNameOperand(n); r != "" {
			return r
		}
		if r := shell.SensitiveVar(n.Value); r != "" {
			return r
		}
	}
	return ""
}

// checkTest: `test -v NAME` evaluates a subscript in NAME.
func checkTest(e *shell.Exec, a *shell.Args) string {
	for i, w := range a.Operands {
		if (w.Value == "-v" || w.Value == "-R") && i+1 < len(a.Operands) {
			if r := shell.VarNameOperand(a.Operands[i+1]); r != "" {
				return r
			}
		}
	}
	return ""
}

// checkWait: `wait -p NAME` assigns NAME, evaluating a subscript in it.
func checkWait(e *shell.Exec, a *shell.Args) string {
	for _, f := range a.Flags {
		if f.Name == "-p" {
			if r := shell.VarNameOperand(shell.Word{Value: f.Value, Static: true}); r != "" {
				return r
			}
			return shell.SensitiveVar(f.Value)
		}
	}
	return ""
}

func checkDate(e *shell.Exec, a *shell.Args) string {
	for _, o := range a.Operands {
		if !strings.HasPrefix(o.Value, "+") {
			return fmt.Sprintf("`date %s` sets the clock", o.Value)
		}
	}
	return ""
}

func checkUnset(e *shell.Exec, a *shell.Args) string {
	for _, o := range a.Operands {
		// Without -v, unset removes a function when no variable has the name: later calls run the program.
		if a.Has("-f") || !a.Has("-v") && e.S.Defined[o.Value] {
			return fmt.Sprintf("`unset %s` removes a function, so the program of that name runs instead", o.Value)
		}
		if r := shell.SensitiveVar(o.Value); r != "" {
			return r
		}
		if r := shell.VarNameOperand(o); r != "" {
			return r
		}
	}
	return ""
}

func checkAlias(e *shell.Exec, a *shell.Args) string {
	for _, o := range a.Operands {
		if strings.Contains(o.Value, "=") {
			return "`alias` defines a command"
		}
	}
	return ""
}

func checkJq(e *shell.Exec, a *shell.Args) string {
	// jq reads files but never writes; --rawfile and --slurpfile name files to read.
	for i, w := range a.Words {
		if (w.Value == "--rawfile" || w.Value == "--slurpfile") && i+2 < len(a.Words) {
			e.S.Read(e.P, a.Words[i+2].Value, e.Scope())
		}
	}
	// import and include load modules and JSON data files from anywhere on the search path.
	for _, w := range a.Words[1:] {
		if strings.Contains(w.Value, "import") || strings.Contains(w.Value, "include") {
			return "the `jq` program imports files"
		}
	}
	return ""
}

// checkYq: yq's load, load_str and friends read any file named in the expression.
func checkYq(e *shell.Exec, a *shell.Args) string {
	for _, w := range a.Words[1:] {
		if strings.Contains(w.Value, "load") {
			return "the `yq` expression loads files"
		}
	}
	return ""
}

// checkTree: with --fromfile or --fromtabfile, tree prints the lines of its operands, so they are read.
func checkTree(e *shell.Exec, a *shell.Args) string {
	if a.HasOpt("--fromfile", "--fromtabfile") {
		for _, o := range a.Operands {
			e.S.Read(e.P, o.Value, e.Scope())
		}
	}
	return ""
}

// checkStrings: like binutils, strings reads more arguments from the file named after an `@`.
func checkStrings(e *shell.Exec, a *shell.Args) string {
	for _, w := range a.Words[1:] {
		if name, ok := strings.CutPrefix(w.Value, "@"); ok && name != "" {
			e.S.Read(e.P, name, e.Scope())
		}
	}
	return ""
}

// checkVersionOnly allows `python3 --version` and the like, nothing else.
func checkVersionOnly(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) == 2 {
		switch a.Words[1].Value {
		case "--version", "-V", "-v", "version", "--help", "-h":
			return ""
		}
	}
	return fmt.Sprintf("`%s` runs code", shell.Display(a.Words))
}
