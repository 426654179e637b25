package programs

// Developer tools that only read in the forms listed here: formatters and linters in check mode,
// decompressors to standard output, archive listings, system listings, pagers whose output is not a
// terminal (Warden's commands never have one), and the read-only corners of go, cargo, rustup and pip.
// Each entry's row in package supplied's survey says what it loads; a tool that runs project code
// (eslint, prettier, mypy, go vet) is read-only only inside the read-only jail.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// toolSpecs are the table entries of this file; the table's init adds them.
var toolSpecs = map[string]*Spec{
	"gofmt": {ops: opRead, values: "r", bad: "w", longBad: []string{"cpuprofile"}, walk: walkOnly("*.go")},
	"zcat":  {ops: opRead}, "xzcat": {ops: opRead}, "bzcat": {ops: opRead}, "zstdcat": {ops: opRead},
	"gzip": {ops: opRead, values: "S", check: checkToStdout}, "gunzip": {ops: opRead, values: "S", check: checkToStdout},
	"xz": {ops: opRead, values: "CFMST", check: checkToStdout}, "bzip2": {ops: opRead, check: checkToStdout},
	"tar":    {rawArgs: true, check: checkTar},
	"numfmt": {}, "lscpu": {values: "s"},
	"top": {rawArgs: true, check: checkTop},
	"ip":  {rawArgs: true, check: checkIP},
	"less": {ops: opRead, values: "bhjpPtTxyz#", bad: "oOk", longBad: []string{"log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content"},
		check: checkPlusCommands},
	"more":   {ops: opRead, values: "n", check: checkPlusCommands},
	"dmesg":  {values: "flsF", bad: "cCDEnw", fileValues: []string{"-F", "--file"}, longBad: []string{"clear", "read-clear", "console-off", "console-on", "console-level", "follow", "follow-new"}},
	"bat":    {ops: opRead, values: "lHmr", longValues: batValues, check: checkBat},
	"batcat": {ops: opRead, values: "lHmr", longValues: batValues, check: checkBat},
	"delta": {ops: opRead, maxOps: 2, longValues: []string{"config", "features", "syntax-theme", "width", "tabs", "wrap-max-lines", "paging"},
		check: checkDelta},
	"rustup":   {rawArgs: true, check: checkRustup},
	"ruff":     {rawArgs: true, check: checkRuff},
	"eslint":   {rawArgs: true, check: checkESLint},
	"prettier": {rawArgs: true, check: checkPrettier},
	"mypy":     {rawArgs: true, check: checkMypy},
}

var batValues = []string{"language", "highlight-line", "file-name", "diff-context", "tabs", "wrap", "terminal-width",
	"color", "italic-text", "decorations", "paging", "pager", "map-syntax", "theme", "style", "line-range",
	"nonprintable-notation", "binary", "squeeze-limit", "strip-ansi"}

// walkOnly records the recursive read of directory operands, limited to files matching the globs.
func walkOnly(globs ...string) func(e *shell.Exec, a *shell.Args) {
	return func(e *shell.Exec, a *shell.Args) {
		for _, o := range a.Operands {
			if !o.Static || o.Glob {
				continue
			}
			if fi, err := os.Stat(e.S.Abs(o.Value, e.Scope())); err == nil && fi.IsDir() {
				e.TreeRead(o.Value, treewalk.Tree{Hidden: true, Include: globs})
			}
		}
	}
}

// checkToStdout: gzip, xz and bzip2 replace their files unless told to write to standard output (-c),
// to list (-l) or to test (-t).
func checkToStdout(e *shell.Exec, a *shell.Args) string {
	if a.HasOpt("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") || len(a.Operands) == 0 {
		return ""
	}
	return fmt.Sprintf("`%s` without -c replaces its files", a.Name)
}

// checkTar: only listing (-t, --list), with the archive read; no option that runs a program (-I,
// --to-command, -F, --checkpoint-action, --rsh-command), writes (-g, --index-file) or names a remote
// archive (a host: before the path, unless --force-local).
func checkTar(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	list := false
	var archive string
	forceLocal := false
	var files []string
	bad := ""
	// The first word may be bundled letters without a dash (`tar tvf x.tar`).
	if len(ws) > 0 && !strings.HasPrefix(ws[0].Value, "-") {
		letters := ws[0].Value
		ws = ws[1:]
		for _, ch := range letters {
			switch ch {
			case 't':
				list = true
			case 'f':
				if len(ws) > 0 {
					archive, ws = ws[0].Value, ws[1:]
				}
			case 'v', 'z', 'j', 'J', 'a', 'p', 'o', 'S', 'P', 'h', 'k', 'm', 'B', 'i', 'w', 'W':
			default:
				bad = "-" + string(ch)
			}
		}
	}
	for i := 0; i < len(ws); i++ {
		v := ws[i].Value
		if !ws[i].Static {
			return "`tar` with an argument only known at run time"
		}
		next := func() string {
			if i+1 < len(ws) {
				i++
				return ws[i].Value
			}
			return ""
		}
		switch {
		case v == "--list":
			list = true
		case v == "--force-local":
			forceLocal = true
		case v == "--file":
			archive = next()
		case strings.HasPrefix(v, "--file="):
			archive = strings.TrimPrefix(v, "--file=")
		case v == "-C" || v == "--directory":
			next()
		case v == "-T" || v == "--files-from" || v == "-X" || v == "--exclude-from":
			files = append(files, next())
		case strings.HasPrefix(v, "--files-from=") || strings.HasPrefix(v, "--exclude-from="):
			_, f, _ := strings.Cut(v, "=")
			files = append(files, f)
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v, "=")
			switch name {
			case "--verbose", "--gzip", "--bzip2", "--xz", "--zstd", "--lzma", "--lzip", "--auto-compress", "--numeric-owner",
				"--full-time", "--wildcards", "--no-wildcards", "--anchored", "--no-anchored", "--ignore-case", "--exclude",
				"--occurrence", "--null", "--utc", "--show-transformed-names", "--quoting-style", "--warning", "--totals",
				"--block-number", "--ignore-zeros", "--blocking-factor", "--record-size", "--format", "--label":
			default:
				if bad == "" {
					bad = name
				}
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				switch ch := v[j]; ch {
				case 't':
					list = true
				case 'f':
					if j < len(v)-1 {
						archive = v[j+1:]
					} else {
						archive = next()
					}
					j = len(v)
				case 'C', 'b':
					if j == len(v)-1 {
						next()
					}
					j = len(v)
				case 'v', 'z', 'j', 'J', 'a', 'p', 'o', 'S', 'P', 'h', 'k', 'm', 'B', 'i', 'w', 'W', 'R':
				default:
					if bad == "" {
						bad = "-" + string(ch)
					}
				}
			}
		}
	}
	switch {
	case bad != "":
		return fmt.Sprintf("`tar %s` is not checked", bad)
	case !list:
		return "`tar` that does not list (-t) writes or extracts"
	case archive != "" && !forceLocal && strings.Contains(strings.SplitN(archive, "/", 2)[0], ":"):
		return fmt.Sprintf("`tar -f %s` reaches a remote host", archive)
	}
	for _, f := range append(files, archive) {
		if f != "" && f != "-" {
			e.S.Read(e.P, f, e.Scope())
		}
	}
	return ""
}

// checkTop: only batch mode (-b) with a count of iterations (-n), which prints and ends; without them top
// waits for a terminal or runs until stopped.
func checkTop(e *shell.Exec, a *shell.Args) string {
	batch, count := false, false
	for _, w := range a.Words[1:] {
		v := w.Value
		if !strings.HasPrefix(v, "-") {
			continue
		}
		for _, ch := range v[1:] {
			switch ch {
			case 'b':
				batch = true
			case 'n':
				count = true
			}
		}
	}
	if !batch || !count {
		return "`top` without -b and -n runs until it is stopped"
	}
	return ""
}

// ipObjects are the objects `ip` lists, by every abbreviation it accepts.
var ipObjects = map[string]bool{
	"a": true, "ad": true, "add": false, "addr": true, "address": true, "r": true, "ro": true, "rou": true, "route": true,
	"l": true, "li": true, "lin": true, "link": true, "n": true, "ne": true, "neigh": true, "neighbor": true, "neighbour": true,
	"ru": true, "rule": true, "m": true, "maddr": true, "maddress": true, "mr": true, "mroute": true,
}

// checkIP: the listing forms of ip's common objects (ip a, ip -br addr show, ip route get 1.1.1.1).
func checkIP(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	i := 0
	for ; i < len(ws) && strings.HasPrefix(ws[i].Value, "-"); i++ {
		switch v := strings.TrimPrefix(ws[i].Value, "-"); {
		case v == "n" || v == "netns":
			i++
		case strings.HasPrefix(v, "b") && v != "br" && v != "brief" || strings.HasPrefix(v, "force") || strings.HasPrefix(v, "rc"):
			return fmt.Sprintf("`ip %s` runs commands from a file or forces them", ws[i].Value)
		}
	}
	if i >= len(ws) {
		return ""
	}
	if !ipObjects[ws[i].Value] {
		return fmt.Sprintf("`ip %s` is not read-only", ws[i].Value)
	}
	if i+1 < len(ws) {
		switch ws[i+1].Value {
		case "show", "sh", "list", "lst", "ls", "get":
		default:
			if !strings.HasPrefix(ws[i+1].Value, "-") && ws[i+1].Value != "dev" && ws[i+1].Value != "table" {
				return fmt.Sprintf("`ip %s %s` is not read-only", ws[i].Value, ws[i+1].Value)
			}
		}
	}
	return ""
}

// checkPlusCommands: less runs a `+command` at start; more takes `+N` and `+/pattern` as where to start,
// not as files.
func checkPlusCommands(e *shell.Exec, a *shell.Args) string {
	ops := a.Operands[:0:0]
	for _, o := range a.Operands {
		if strings.HasPrefix(o.Value, "+") {
			if a.Name == "less" {
				return fmt.Sprintf("`less %s` runs a command at start", o.Value)
			}
			continue
		}
		ops = append(ops, o)
	}
	a.Operands = ops
	if a.Name == "less" {
		return checkLessOpen(e, a)
	}
	return ""
}

// systemLessPipes are the input preprocessors distributions set LESSOPEN to.
var systemLessPipes = regexp.MustCompile(`^\|{1,2}\s*(/usr/bin/|/bin/)?(lesspipe|lesspipe\.sh)\s+%s\s*$`)

// checkLessOpen: less runs LESSOPEN's preprocessor on every file, output to a terminal or not; only the
// system's lesspipe is accepted, from the environment or a lesskey file.
func checkLessOpen(e *shell.Exec, a *shell.Args) string {
	for _, name := range []string{"LESSOPEN", "LESSCLOSE"} {
		if v, ok := e.S.LookupEnv(name); ok && v != "" && !(name == "LESSOPEN" && systemLessPipes.MatchString(v)) {
			return fmt.Sprintf("%s in the environment makes `less` run `%s` on what it opens", name, v)
		}
	}
	var files []string
	for _, n := range []string{"LESSKEYIN", "LESSKEY"} {
		if v, ok := e.S.LookupEnv(n); ok && v != "" {
			files = append(files, v)
		}
	}
	if x, ok := e.S.LookupEnv("XDG_CONFIG_HOME"); ok && x != "" {
		files = append(files, filepath.Join(x, "lesskey"))
	}
	if h := e.S.Ctx.Home; h != "" {
		files = append(files, filepath.Join(h, ".config", "lesskey"), filepath.Join(h, ".lesskey"), filepath.Join(h, ".less"))
	}
	files = append(files, "/etc/syslesskey", "/etc/sysless")
	for _, f := range files {
		if text, _, _ := supplied.ReadSmall(f); strings.Contains(text, "LESSOPEN") || strings.Contains(text, "LESSCLOSE") {
			return fmt.Sprintf("`%s` sets LESSOPEN, a program `less` runs on what it opens", e.S.Shown(f))
		}
	}
	return ""
}

// checkBat: printing only; `bat cache` builds a cache, and --paging=always starts the pager whatever
// the output.
func checkBat(e *shell.Exec, a *shell.Args) string {
	if len(a.Operands) > 0 && a.Operands[0].Value == "cache" {
		return fmt.Sprintf("`%s cache` writes bat's cache", a.Name)
	}
	if a.HasOpt("--generate-config-file") {
		return fmt.Sprintf("`%s --generate-config-file` writes bat's configuration file", a.Name)
	}
	for _, f := range a.Flags {
		if (f.Name == "--paging" || shell.Abbreviates(f.Name, "--paging")) && f.Value == "always" || f.Name == "--pager" {
			return fmt.Sprintf("`%s %s` starts a pager", a.Name, f.Name)
		}
	}
	path, ok := e.S.LookupEnv("BAT_CONFIG_PATH")
	if !ok || path == "" {
		path = filepath.Join(e.S.Ctx.Home, ".config", "bat", "config")
	}
	if text, _, _ := supplied.ReadSmall(path); strings.Contains(text, "always") {
		return fmt.Sprintf("`%s` may set --paging=always, which starts a pager", e.S.Shown(path))
	}
	return ""
}

// checkDelta: `cmd | delta` reads its input; given two files, delta runs `git diff --no-index` on them,
// judged with git's configuration.
func checkDelta(e *shell.Exec, a *shell.Args) string {
	for _, f := range a.Flags {
		if shell.Abbreviates(f.Name, "--paging") && f.Value == "always" || f.Name == "--paging" && f.Value == "always" {
			return "`delta --paging=always` starts a pager"
		}
	}
	if len(a.Operands) == 2 {
		return supplied.GitRuns(e, gitargs.Facets{Name: "delta", Sub: "diff", External: true, Textconv: true}, e.Scope().Cwd)
	}
	return ""
}

// checkRustup: its listing forms. --version runs the active toolchain's rustc; show names it.
func checkRustup(e *shell.Exec, a *shell.Args) string {
	ws := shell.Values(a.Words[1:])
	switch {
	case len(ws) == 1 && (ws[0] == "--version" || ws[0] == "-V" || ws[0] == "--help" || ws[0] == "-h"),
		len(ws) >= 1 && ws[0] == "show" && (len(ws) == 1 || slices.Contains([]string{"active-toolchain", "home", "profile", "-v", "--verbose"}, ws[1])):
		return supplied.CheckRustToolchain(e, a)
	case len(ws) == 2 && ws[0] == "toolchain" && ws[1] == "list",
		len(ws) == 3 && (ws[0] == "target" || ws[0] == "component") && ws[1] == "list" && ws[2] == "--installed",
		len(ws) == 2 && ws[0] == "which":
		return ""
	}
	return fmt.Sprintf("`%s` is not read-only", shell.Display(a.Words))
}

// checkCargo: cargo --version; cargo tree where Cargo.lock exists (it would write one), and cargo
// metadata offline or without dependencies (it would fetch the index), with the options that only
// choose what to print. Both run rustc (build.rustc and wrappers of .cargo/config.toml) to learn the
// host.
func checkCargo(e *shell.Exec, a *shell.Args) string {
	if checkVersionOnly(e, a) == "" {
		return ""
	}
	ws := a.Words[1:]
	if len(ws) == 0 {
		return "`cargo` without a command"
	}
	sub, rest := ws[0].Value, ws[1:]
	// What a working-tree .cargo/config.toml makes cargo run is judged first: a finding below (a lock
	// cargo would rewrite, an option not checked) leaves the call to the person's rules, and a rule for
	// `cargo metadata` or `cargo fetch` is not one for the repository's rustc-wrapper or alias.
	if cmd := cargoCommand(ws); !cargoBuilds[cmd] {
		if r := checkCargoConfig(e, cmd); r != "" {
			return r
		}
	}
	var allowed []string
	switch sub {
	case "tree":
		if supplied.FindUp(e.Scope().Cwd, "Cargo.lock") == "" {
			return "`cargo tree` writes Cargo.lock where there is none"
		}
		allowed = []string{"-e", "--edges", "-i", "--invert", "-p", "--package", "--depth", "--prefix", "--charset", "-f",
			"--format", "-d", "--duplicates", "--target", "--all-features", "-F", "--features", "--no-default-features",
			"--workspace", "--exclude", "--no-dedupe", "--offline", "--frozen", "--locked", "-q", "--quiet", "-v",
			"--verbose", "--color", "--all-targets", "--manifest-path", "--prune"}
	case "metadata":
		offline := false
		for _, w := range rest {
			offline = offline || w.Value == "--offline" || w.Value == "--frozen" || w.Value == "--no-deps"
		}
		if !offline {
			return "`cargo metadata` may fetch the registry's index: give --offline or --no-deps"
		}
		allowed = []string{"--format-version", "--no-deps", "--offline", "--frozen", "--locked", "--manifest-path",
			"--filter-platform", "--all-features", "-F", "--features", "--no-default-features", "-q", "--quiet", "--color"}
	default:
		return fmt.Sprintf("`cargo %s` runs code", sub)
	}
	if r := cargoLocked(e, sub, rest); r != "" {
		return r
	}
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		if !rest[i].Static {
			return fmt.Sprintf("`cargo %s` with an argument only known at run time", sub)
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		name, value, has := strings.Cut(v, "=")
		if !slices.Contains(allowed, name) {
			return fmt.Sprintf("`cargo %s %s` is not checked", sub, name)
		}
		if name == "--manifest-path" {
			if !has && i+1 < len(rest) {
				i++
				value = rest[i].Value
			}
			e.S.Read(e.P, value, e.Scope())
		}
	}
	return ""
}

// cargoCommand returns the command of cargo's words: the first that is not an option (+toolchain,
// --locked) or the value of one.
func cargoCommand(ws []shell.Word) string {
	for i := 0; i < len(ws); i++ {
		v := ws[i].Value
		switch {
		case v == "-C" || v == "-Z" || v == "--config" || v == "--color" || v == "--explain":
			i++
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
		default:
			return v
		}
	}
	return ""
}

// cargoBuilds are the cargo commands that build the project, running its build scripts and procedural
// macros: a rule allowing one of them allows the project's code, its configured wrappers with it.
var cargoBuilds = map[string]bool{"build": true, "b": true, "check": true, "c": true, "test": true, "t": true,
	"run": true, "r": true, "bench": true, "doc": true, "d": true, "fix": true, "rustc": true, "rustdoc": true,
	"install": true, "package": true, "publish": true, "clippy": true, "miri": true}

// cargoBuiltins are cargo's own commands, which an alias cannot redefine.
var cargoBuiltins = map[string]bool{"add": true, "bench": true, "build": true, "b": true, "check": true, "c": true,
	"clean": true, "config": true, "doc": true, "d": true, "fetch": true, "fix": true, "generate-lockfile": true,
	"git-checkout": true, "help": true, "info": true, "init": true, "install": true, "locate-project": true,
	"login": true, "logout": true, "metadata": true, "new": true, "owner": true, "package": true, "pkgid": true,
	"publish": true, "read-manifest": true, "remove": true, "rm": true, "report": true, "run": true, "r": true,
	"rustc": true, "rustdoc": true, "search": true, "test": true, "t": true, "tree": true, "uninstall": true,
	"update": true, "vendor": true, "verify-project": true, "version": true, "yank": true}

// cargoLocked: cargo tree and cargo metadata resolve the dependencies first, which rewrites a
// Cargo.lock that no longer matches the manifests (or writes a missing one) and downloads what the
// resolution needs, unless --frozen (or --locked with --offline) forbids both; metadata --no-deps
// resolves nothing. Inside the read-only jail the writes and the downloads fail instead.
func cargoLocked(e *shell.Exec, sub string, rest []shell.Word) string {
	has := func(names ...string) bool {
		return slices.ContainsFunc(rest, func(w shell.Word) bool { return slices.Contains(names, w.Value) })
	}
	if e.S.Ctx.ReadOnlyJail || has("--frozen") || has("--locked") && has("--offline") || sub == "metadata" && has("--no-deps") {
		return ""
	}
	return fmt.Sprintf("`cargo %s` rewrites a Cargo.lock that does not match the manifests and downloads crates: give --frozen", sub)
}

// cargoRunKeys are the .cargo/config.toml keys that run programs when cargo learns the host or fetches:
// build.rustc and its wrappers, rustdoc, git fetches through the git program, credential providers.
var cargoRunKeys = regexp.MustCompile(`(?m)(^|[\s.{,"])(rustc|rustc-wrapper|rustc-workspace-wrapper|rustdoc|git-fetch-with-cli|credential-provider|global-credential-providers)"?\s*=`)

// checkCargoConfig judges cargo with the .cargo/config.toml (and .cargo/config) files of the directory
// and every one above, and CARGO_HOME's: the programs they name (which the commands that resolve
// dependencies run to learn the host: metadata, tree, fetch, update, info) and, for a command that is
// not cargo's own, the alias that says what it runs.
func checkCargoConfig(e *shell.Exec, sub string) string {
	files := supplied.AllUp(e.Scope().Cwd, filepath.Join(".cargo", "config.toml"), filepath.Join(".cargo", "config"))
	home, ok := e.S.LookupEnv("CARGO_HOME")
	if !ok || home == "" {
		home = filepath.Join(e.S.Ctx.Home, ".cargo")
	}
	files = append(files, filepath.Join(home, "config.toml"), filepath.Join(home, "config"))
	for _, f := range files {
		text, found, err := supplied.ReadSmall(f)
		if !found {
			continue
		}
		// A file of the working tree names a program no rule for cargo was meant to allow; the person's
		// own (CARGO_HOME's, a directory above the workspace) is theirs (supplies tells them apart).
		if err != nil {
			return supplied.Supplies(e, fmt.Sprintf("`%s` cannot be read, so what `cargo %s` runs is unknown", e.S.Shown(f), sub), f)
		}
		if m := cargoRunKeys.FindStringSubmatch(text); m != nil {
			return supplied.Supplies(e, fmt.Sprintf("`%s` sets `%s`, which `cargo %s` may run", e.S.Shown(f), m[2], sub), f)
		}
		if sub != "" && !cargoBuiltins[sub] && cargoAlias(text, sub) {
			return supplied.Supplies(e, fmt.Sprintf("`%s` defines the alias `%s`, which says what `cargo %s` runs", e.S.Shown(f), sub, sub), f)
		}
	}
	for _, v := range []string{"RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WRAPPER"} {
		if val, ok := e.S.LookupEnv(v); ok && val != "" {
			return fmt.Sprintf("%s in the environment is a program `cargo %s` runs", v, sub)
		}
	}
	return ""
}

// cargoAlias reports whether a cargo configuration's text may define the alias name: a key of the
// [alias] table, a dotted alias.name key, or an inline alias table naming it.
func cargoAlias(text, name string) bool {
	q := regexp.QuoteMeta(name)
	key := `("` + q + `"|'` + q + `'|` + q + `)\s*=`
	if regexp.MustCompile(`(?m)^\s*alias\s*\.\s*`+key).MatchString(text) ||
		regexp.MustCompile(`(?s)alias\s*=\s*\{[^}]*`+key).MatchString(text) {
		return true
	}
	in := false
	line := regexp.MustCompile(`^\s*` + key)
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			in = strings.ReplaceAll(t, " ", "") == "[alias]"
			continue
		}
		if in && line.MatchString(t) {
			return true
		}
	}
	return false
}

// lintFlags reads a linter's words: it returns the first option among bad, and the operands, skipping
// the values of the options in values.
func lintFlags(ws []shell.Word, bad, values []string) (string, []shell.Word) {
	var ops []shell.Word
	for i := 0; i < len(ws); i++ {
		v := ws[i].Value
		if !strings.HasPrefix(v, "-") || v == "-" {
			ops = append(ops, ws[i])
			continue
		}
		if v == "--" {
			ops = append(ops, ws[i+1:]...)
			break
		}
		name, _, has := strings.Cut(v, "=")
		if slices.Contains(bad, name) || slices.ContainsFunc(bad, func(b string) bool { return shell.Abbreviates(name, b) }) {
			return name, nil
		}
		if slices.Contains(values, name) && !has {
			i++
		}
	}
	return "", ops
}

// lintReads records what a linter reads: its file operands, and the files matching globs below its
// directory operands (or the directory it runs in).
func lintReads(e *shell.Exec, ops []shell.Word, globs ...string) string {
	if len(ops) == 0 {
		ops = []shell.Word{{Value: ".", Static: true}}
	}
	for _, o := range ops {
		if !o.Static {
			return fmt.Sprintf("reads `%s`, only known at run time", o.Value)
		}
		if fi, err := os.Stat(e.S.Abs(o.Value, e.Scope())); err == nil && fi.IsDir() {
			e.TreeRead(o.Value, treewalk.Tree{Hidden: true, Include: globs})
		} else {
			e.S.Read(e.P, o.Value, e.Scope())
		}
	}
	return ""
}

// checkRuff: ruff check without fixes and ruff format --check or --diff. ruff runs no project code; it
// writes its own cache (.ruff_cache), which it rebuilds, unless --no-cache.
func checkRuff(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	if len(ws) == 1 && (ws[0].Value == "--version" || ws[0].Value == "-V" || ws[0].Value == "version") {
		return ""
	}
	if len(ws) == 0 {
		return "`ruff` without a command"
	}
	sub, rest := ws[0].Value, ws[1:]
	values := []string{"--config", "--select", "--ignore", "--extend-select", "--extend-ignore", "--per-file-ignores",
		"--exclude", "--extend-exclude", "--line-length", "--target-version", "--output-format", "--stdin-filename",
		"--cache-dir", "--fixable", "--unfixable", "--extend-fixable", "--preview", "--range"}
	switch sub {
	case "check":
		b, ops := lintFlags(rest, []string{"--fix", "--unsafe-fixes", "--fix-only", "--add-noqa", "--watch", "-w", "-o", "--output-file"}, values)
		if b != "" {
			return fmt.Sprintf("`ruff check %s` writes", b)
		}
		if r := ruffWrites(e, "check", rest); r != "" {
			return r
		}
		return ruffConfig(e, rest) + lintReads(e, ops, "*.py", "*.pyi", "*.ipynb", "pyproject.toml", "ruff.toml", ".ruff.toml")
	case "format":
		if !slices.ContainsFunc(rest, func(w shell.Word) bool { return w.Value == "--check" || w.Value == "--diff" }) {
			return "`ruff format` without --check or --diff rewrites files"
		}
		_, ops := lintFlags(rest, nil, values)
		if r := ruffWrites(e, "format", rest); r != "" {
			return r
		}
		return ruffConfig(e, rest) + lintReads(e, ops, "*.py", "*.pyi", "*.ipynb", "pyproject.toml", "ruff.toml", ".ruff.toml")
	case "rule", "config", "linter", "version":
		return ""
	}
	return fmt.Sprintf("`ruff %s` is not read-only", sub)
}

// ruffWrites: outside the read-only jail, ruff check applies fixes when its configuration (a project's
// pyproject.toml, or --config "fix = true") sets `fix`, and both commands write a cache where
// `cache-dir` says, anywhere; --no-fix and --no-cache turn those off.
func ruffWrites(e *shell.Exec, sub string, rest []shell.Word) string {
	if e.S.Ctx.ReadOnlyJail {
		return ""
	}
	has := func(name string) bool {
		return slices.ContainsFunc(rest, func(w shell.Word) bool { return w.Value == name })
	}
	if sub == "check" && !has("--no-fix") {
		return "`ruff check` applies fixes when its configuration sets `fix = true`: give --no-fix, or run it in the read-only jail"
	}
	if !has("--no-cache") {
		return fmt.Sprintf("`ruff %s` writes its cache where its configuration's `cache-dir` says: give --no-cache, or run it in the read-only jail", sub)
	}
	return ""
}

// ruffConfig records a --config file as a read.
func ruffConfig(e *shell.Exec, ws []shell.Word) string {
	for i, w := range ws {
		v := w.Value
		if v == "--config" && i+1 < len(ws) {
			v = "--config=" + ws[i+1].Value
		}
		if f, ok := strings.CutPrefix(v, "--config="); ok && !strings.Contains(f, "=") {
			e.S.Read(e.P, f, e.Scope())
		}
	}
	return ""
}

// checkESLint: eslint without --fix, an output file, a cache or a server. It runs the project's
// configuration and plugins (JavaScript), so it is read-only only inside the read-only jail.
func checkESLint(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	if len(ws) == 1 && (ws[0].Value == "--version" || ws[0].Value == "-v") {
		return ""
	}
	values := []string{"-c", "--config", "--ext", "--global", "--parser", "--parser-options", "--resolve-plugins-relative-to",
		"--rulesdir", "--plugin", "--rule", "--ignore-path", "--ignore-pattern", "-f", "--format", "--max-warnings",
		"--stdin-filename", "--report-unused-disable-directives-severity", "--flag"}
	if b, ops := lintFlags(ws, []string{"--fix", "--fix-type", "-o", "--output-file", "--cache", "--cache-location",
		"--cache-file", "--init", "--inspect-config", "--mcp"}, values); b != "" {
		return fmt.Sprintf("`eslint %s` writes or serves", b)
	} else if r := supplied.ProjectCode("eslint", "the project's eslint.config.js and plugins")(e, a); r != "" {
		return r
	} else {
		return lintReads(e, ops, "*.js", "*.mjs", "*.cjs", "*.jsx", "*.ts", "*.mts", "*.cts", "*.tsx", "*.vue", "*.json")
	}
}

// checkPrettier: prettier printing what it would write, --check or --list-different; it loads the
// project's configuration and plugins, which may be JavaScript.
func checkPrettier(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	if len(ws) == 1 && (ws[0].Value == "--version" || ws[0].Value == "-v") {
		return ""
	}
	values := []string{"--config", "--ignore-path", "--parser", "--plugin", "--stdin-filepath", "--log-level",
		"--print-width", "--tab-width", "--trailing-comma", "--end-of-line", "--arrow-parens", "--prose-wrap",
		"--quote-props", "--embedded-language-formatting", "--html-whitespace-sensitivity", "--cursor-offset",
		"--range-start", "--range-end", "--config-precedence", "--experimental-operator-position", "--object-wrap"}
	if b, ops := lintFlags(ws, []string{"--write", "-w", "--cache", "--cache-location", "--cache-strategy"}, values); b != "" {
		return fmt.Sprintf("`prettier %s` writes", b)
	} else if r := supplied.ProjectCode("prettier", "the project's prettier configuration and plugins")(e, a); r != "" {
		return r
	} else {
		return lintReads(e, ops, "*.js", "*.mjs", "*.cjs", "*.jsx", "*.ts", "*.tsx", "*.json", "*.md", "*.css", "*.scss",
			"*.less", "*.html", "*.vue", "*.yaml", "*.yml", "*.graphql", "*.mdx")
	}
}

// checkMypy: mypy without installing types or writing reports. Its configured plugins are Python
// imported from the project; it writes its own cache (.mypy_cache).
func checkMypy(e *shell.Exec, a *shell.Args) string {
	ws := a.Words[1:]
	if len(ws) == 1 && (ws[0].Value == "--version" || ws[0].Value == "-V") {
		return ""
	}
	values := []string{"--config-file", "-m", "--module", "-p", "--package", "-c", "--command", "--python-version",
		"--platform", "--exclude", "--cache-dir", "--python-executable", "--always-true", "--always-false",
		"--enable-error-code", "--disable-error-code", "--custom-typeshed-dir", "--shadow-file"}
	if b, ops := lintFlags(ws, []string{"--install-types", "--html-report", "--xml-report", "--txt-report",
		"--linecount-report", "--linecoverage-report", "--memory-xml-report", "--cobertura-xml-report",
		"--lineprecision-report", "--any-exprs-report", "--junit-xml", "--shadow-file", "--python-executable"}, values); b != "" {
		return fmt.Sprintf("`mypy %s` writes or installs", b)
	} else if r := supplied.ProjectCode("mypy", "the plugins its configuration imports")(e, a); r != "" {
		return r
	} else {
		return lintReads(e, ops, "*.py", "*.pyi", "mypy.ini", "setup.cfg", "pyproject.toml", ".mypy.ini")
	}
}
