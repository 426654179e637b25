package programs

// What git prints of its configuration. `git config -l`, `git config --get KEY` and `git var -l` print
// the values of every file the configuration chain reads, the included ones too: a repository's own
// .git/config with `include.path = ~/.pypirc` makes `git config -l` print the password, and so does a
// file named with `-f` under --includes, or a blob (whose includes git follows unless told not to). Each
// file whose variables such a command may print is a read of that file, for secrets and Read rules
// alike. The files the command line itself brings into the chain (`git -c include.path=F`,
// GIT_CONFIG_GLOBAL=F or GIT_CONFIG_PARAMETERS in front of git) are reads whatever the subcommand,
// since git reads them before it runs any.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
	"github.com/warden-cli/warden/secrets"
)

// gitConfigReadOpts are the options that only choose where to read and how to print.
var gitConfigReadOpts = map[string]bool{
	"--global": true, "--system": true, "--local": true, "--worktree": true, "--file": true, "-f": true,
	"--blob": true, "--type": true, "--bool": true, "--int": true, "--bool-or-int": true, "--path": true,
	"--expiry-date": true, "--no-type": true, "--null": true, "-z": true, "--name-only": true,
	"--show-origin": true, "--show-scope": true, "--includes": true, "--no-includes": true, "--default": true,
	"--fixed-value": true, "--all": true, "--regexp": true, "--value": true, "--url": true,
	// The actions that read.
	"--get": true, "--get-all": true, "--get-regexp": true, "--get-urlmatch": true, "--get-color": true,
	"--get-colorbool": true, "--list": true, "-l": true,
}

// gitConfig reads in git config's read forms only: `git config list|get ...`, the --get*/--list actions,
// or, with no action, a single name. Every option must be one that only reads; anything else (a second
// operand sets a value, --add, --unset, -e...) asks. The files whose values it prints are reads.
func gitConfig(e *shell.Exec, args []shell.Word) string {
	g := gitargs.Parse(args, "f", "", []string{"--file", "--blob", "--type", "--default", "--value", "--url"})
	for _, f := range g.Flags {
		if !gitConfigReadOpts[f.Name] {
			return fmt.Sprintf("`%s` may change settings", f.Name)
		}
		// The file or blob read is a read like any other, for deny rules and secrets alike.
		switch {
		case !f.Has:
		case f.Name == "-f" || f.Name == "--file":
			if f.Value == "-" {
				return "`git config -f -` reads its input"
			}
			e.S.Read(e.P, f.Value, e.Scope())
		case f.Name == "--blob":
			repo, _ := workTree(e.S, e.Scope().Cwd)
			gitRevPath(e, f.Value, repo.Top, e.Scope())
		}
	}
	if !gitConfigReads(args, g) {
		return "`git config` changes settings"
	}
	return gitConfigPrints(e, args, g)
}

// gitConfigReads reports whether a git config invocation is one of the read forms.
func gitConfigReads(args []shell.Word, g gitargs.Args) bool {
	if len(args) > 0 && (args[0].Value == "list" || args[0].Value == "get") {
		return true
	}
	if g.HasExact("--list", "-l") && len(g.Operands) == 0 ||
		g.HasExact("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool") && len(g.Operands) <= 2 {
		return true
	}
	return len(g.Operands) == 1 && g.Operands[0].Value != "list" && g.Operands[0].Value != "get"
}

// gitConfigPrints records as reads the files whose values a reading git config prints, and returns why
// it is not read-only when those files cannot be known.
func gitConfigPrints(e *shell.Exec, args []shell.Word, g gitargs.Args) string {
	sc := e.Scope()
	if sc.Cwd == "" || !filepath.IsAbs(sc.Cwd) {
		return "`git config` runs in a directory Warden lost track of, whose configuration it cannot read"
	}
	home := e.S.Ctx.Home
	// git follows includes when it reads the whole chain or a blob, and in a file only under --includes;
	// the last of --includes and --no-includes wins.
	includes, asked := true, false
	for _, f := range g.Flags {
		switch f.Name {
		case "--includes":
			includes, asked = true, true
		case "--no-includes":
			includes, asked = false, true
		}
	}
	r, _ := e.S.Git().Find(sc.Cwd, e.LookupEnv, nil)
	var files []string
	for _, f := range g.Flags {
		switch {
		case (f.Name == "-f" || f.Name == "--file") && f.Has:
			files = append(files, e.S.Abs(f.Value, sc))
		case f.Name == "--blob" && f.Has:
			if !asked || includes {
				// The blob is the repository's: a rule allowing git does not cover what it may include.
				return supplied.Supplies(e, "--blob follows the includes the blob holds, which Warden does not read (with --no-includes git does not follow them)", "")
			}
		case f.Name == "--global":
			if v, ok := e.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
				files = append(files, e.S.Abs(v, sc))
				continue
			}
			xdg, _ := e.LookupEnv("XDG_CONFIG_HOME")
			if xdg == "" {
				xdg = filepath.Join(home, ".config")
			}
			files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig"))
		case f.Name == "--system":
			system := "/etc/gitconfig"
			if v, ok := e.LookupEnv("GIT_CONFIG_SYSTEM"); ok {
				system = e.S.Abs(v, sc)
			}
			files = append(files, system)
		case f.Name == "--local" && r.CommonDir != "":
			files = append(files, filepath.Join(r.CommonDir, "config"))
		case f.Name == "--worktree" && r.GitDir != "":
			files = append(files, filepath.Join(r.GitDir, "config.worktree"), filepath.Join(r.CommonDir, "config"))
		}
	}
	source := ""
	var cfg gitrepo.Config
	if len(files) == 0 && !g.Has("--blob") {
		// GIT_CONFIG stands for --file when no file is named.
		if v, ok := e.LookupEnv("GIT_CONFIG"); ok && v != "" {
			files = append(files, e.S.Abs(v, sc))
		}
	}
	switch {
	case g.Has("--blob"):
		// Read with --no-includes: the blob's own values, already a read of its path.
		return ""
	case len(files) > 0:
		for _, f := range files {
			one := e.S.Git().LoadFile(f, includes && asked, home)
			cfg.Entries = append(cfg.Entries, one.Entries...)
			cfg.Includes = append(cfg.Includes, one.Includes...)
		}
		if includes && asked {
			source = "--includes"
		}
	default:
		cfg = e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: home})
		if !includes {
			cfg = withoutIncludes(cfg)
		}
	}
	match := gitConfigPrinted(args, g)
	name := "`git config`"
	for _, file := range cfg.Files() {
		if slices.ContainsFunc(cfg.Entries, func(en gitrepo.Entry) bool { return en.File == file && match(en) }) {
			readPrinted(e, name, file, cfg, source)
		}
	}
	printsCredentials(e, name, cfg, match, g.HasExact("--name-only"))
	return ""
}

// printsCredentials makes the part a secret read when a variable it prints, among those of cfg that
// match, carries a credential (http.<url>.extraHeader, a URL with a password): the file holding it is
// read for its name's sake (readConfigFile), and the variable decides. Settings the command line gave
// are the model's own and tell it nothing new. With namesOnly (--name-only) only the names are printed,
// which carry a credential only in a subsection that is a URL with one.
func printsCredentials(e *shell.Exec, name string, cfg gitrepo.Config, match func(gitrepo.Entry) bool, namesOnly bool) {
	if e.P.Secret || !e.P.ReadOnly {
		return
	}
	for _, en := range cfg.Entries {
		carries := en.Credential()
		if namesOnly {
			carries = secrets.Value(en.Key)
		}
		if en.File != "" && match(en) && carries {
			e.P.Secret = true
			e.P.Reason = fmt.Sprintf("%s prints `%s` from `%s`, which carries a credential", name, en.Key, e.S.Shown(en.File))
			return
		}
	}
}

// withoutIncludes drops the entries of included files, as --no-includes reads the chain.
func withoutIncludes(cfg gitrepo.Config) gitrepo.Config {
	out := gitrepo.Config{Problem: cfg.Problem}
	for _, en := range cfg.Entries {
		if _, included := cfg.IncludedBy(en.File); !included || en.File == "" {
			out.Entries = append(out.Entries, en)
		}
	}
	return out
}

// gitConfigPrinted returns which variables a reading git config prints: those of the name it gets, those
// whose names a regular expression matches, or every one for a list or a URL match (whose sections are
// matched loosely).
func gitConfigPrinted(args []shell.Word, g gitargs.Args) func(gitrepo.Entry) bool {
	all := func(gitrepo.Entry) bool { return true }
	ops := g.Operands
	newForm := len(args) > 0 && (args[0].Value == "list" || args[0].Value == "get")
	if newForm {
		ops = ops[1:]
	}
	switch {
	case g.HasExact("--list", "-l") || newForm && args[0].Value == "list":
		return all
	case len(ops) == 0:
		return all
	case g.HasExact("--get-regexp") || newForm && g.Has("--regexp"):
		// The value pattern after the name's only narrows what is printed: every value is taken to match.
		re := gitNameRegexp(ops[0].Value)
		if re == nil {
			return all
		}
		return func(en gitrepo.Entry) bool { return re.MatchString(en.Key) }
	case g.HasExact("--get-urlmatch") || newForm && g.Has("--url"):
		section, name, _ := strings.Cut(strings.ToLower(ops[0].Value), ".")
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		return func(en gitrepo.Entry) bool {
			return en.Section() == section && (name == "" || en.Name() == name)
		}
	}
	key := canonicalGitKey(ops[0].Value)
	return func(en gitrepo.Entry) bool { return en.Key == key }
}

// gitNameRegexp compiles the extended regular expression git config matches names with, or returns nil
// when Go's syntax may read it otherwise than the C library git uses: a backslash before anything but
// punctuation (\< \w \1 and the like), a bound with no lower end ({,3}). Matching is made
// case-insensitive, so that the answer errs towards printing.
func gitNameRegexp(pattern string) *regexp.Regexp {
	if strings.Contains(pattern, "{,") {
		return nil
	}
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '\\' {
			continue
		}
		if i+1 == len(pattern) || !strings.ContainsRune(`.[]{}()\*+?|^$-/`, rune(pattern[i+1])) {
			return nil
		}
		i++
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		return nil
	}
	return re
}

// canonicalGitKey lower-cases a key's section and name, keeping its subsection as written, as git
// compares keys.
func canonicalGitKey(key string) string {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

// gitVar: `git var -l` prints every variable of the chain, and `git var NAME` values some of them
// (core.editor, core.pager, user.name...); the chain's files are its reads.
func gitVar(e *shell.Exec, args []shell.Word) string {
	if r := gitOpts("", "", "", nil)(e, args); r != "" {
		return r
	}
	sc := e.Scope()
	if sc.Cwd == "" || !filepath.IsAbs(sc.Cwd) {
		return "`git var` runs in a directory Warden lost track of, whose configuration it cannot read"
	}
	r, _ := e.S.Git().Find(sc.Cwd, e.LookupEnv, nil)
	cfg := e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: e.S.Ctx.Home})
	for _, file := range cfg.Files() {
		readPrinted(e, "`git var`", file, cfg, "")
	}
	if slices.ContainsFunc(args, func(w shell.Word) bool { return w.Value == "-l" }) {
		printsCredentials(e, "`git var -l`", cfg, func(gitrepo.Entry) bool { return true }, false)
	}
	return ""
}

// gitRemotePrints judges what `git remote -v`, `get-url` and `show` print: each remote's URLs, after
// url.<base>.insteadOf and pushInsteadOf rewrote them, so a password in a remote's URL or in a
// rewriting base is printed.
func gitRemotePrints(e *shell.Exec) {
	sc := e.Scope()
	if sc.Cwd == "" || !filepath.IsAbs(sc.Cwd) {
		return
	}
	r, _ := e.S.Git().Find(sc.Cwd, e.LookupEnv, nil)
	cfg := e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: e.S.Ctx.Home})
	urls := func(en gitrepo.Entry) bool {
		switch name := en.Name(); en.Section() {
		case "remote":
			return name == "url" || name == "pushurl"
		case "url":
			return name == "insteadof" || name == "pushinsteadof"
		}
		return false
	}
	for _, file := range cfg.Files() {
		if slices.ContainsFunc(cfg.Entries, func(en gitrepo.Entry) bool { return en.File == file && urls(en) }) {
			readPrinted(e, "`git remote`", file, cfg, "")
		}
	}
	printsCredentials(e, "`git remote`", cfg, urls, false)
}

// readPrinted records that the command name prints the values of file, from the chain cfg; source
// names the option that made git follow includes, if one did.
func readPrinted(e *shell.Exec, name, file string, cfg gitrepo.Config, source string) {
	reason := fmt.Sprintf("%s prints `%s`, which may hold secrets", name, e.S.Shown(file))
	if by, ok := cfg.IncludedBy(file); ok {
		reason += fmt.Sprintf(": %s includes it", supplied.EntryOrigin(e.S, by))
		if source != "" {
			reason += ", and " + source + " follows includes"
		}
	}
	readConfigFile(e, file, reason)
}

// readConfigFile records git's read of a configuration file, giving reason when the file is a secret
// by its name. What the file holds is judged by what git prints of it (printsCredentials): `git config
// user.name` prints no extraHeader, though `cat .git/config` would.
func readConfigFile(e *shell.Exec, file, reason string) {
	if !e.P.Secret && e.P.ReadOnly && e.S.Ctx.Memory.SecretByName(file, e.S.Ctx.Home) {
		e.P.Secret = true
		e.P.Reason = reason
	}
	sc := e.Scope()
	e.S.ReadJudged(e.P, file, e.S.Abs(file, sc), sc, true, e.S.Ctx.Memory.SecretByName)
}

// gitSettings puts the settings of git's -c and --config-env options into GIT_CONFIG_PARAMETERS, as git
// does for itself and the git commands it runs, so that the chain read for the command has them.
func gitSettings(e *shell.Exec, words []shell.Word) {
	var settings []string
	add := func(kv string) {
		k, v, has := strings.Cut(kv, "=")
		settings = append(settings, gitrepo.QuoteParameter(k, v, !has))
	}
	for i := 0; i < len(words); i++ {
		v := words[i].Value
		switch {
		case (v == "-c" || v == "--config-env") && i+1 < len(words):
			i++
			if v == "-c" {
				add(words[i].Value)
				continue
			}
			gitConfigEnv(e, words[i].Value, add)
		case strings.HasPrefix(v, "--config-env="):
			gitConfigEnv(e, strings.TrimPrefix(v, "--config-env="), add)
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			add(v[2:])
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			i = len(words)
		}
	}
	if len(settings) == 0 {
		return
	}
	params, _ := e.LookupEnv("GIT_CONFIG_PARAMETERS")
	if params != "" {
		params += " "
	}
	e.SetEnv("GIT_CONFIG_PARAMETERS", params+strings.Join(settings, " "))
}

// gitConfigEnv adds the setting of `--config-env=key=VAR`: key takes VAR's value.
func gitConfigEnv(e *shell.Exec, spec string, add func(string)) {
	i := strings.LastIndexByte(spec, '=')
	if i < 0 {
		return
	}
	value, _ := e.LookupEnv(spec[i+1:])
	add(spec[:i] + "=" + value)
}

// gitCommandLineReads records as reads the configuration files git reads only because of the command
// line: those of the chain with its settings (-c, --config-env, GIT_CONFIG_* and HOME in front of git)
// that the chain without them lacks.
func gitCommandLineReads(e *shell.Exec) {
	sc := e.Scope()
	if len(e.Env) == 0 || sc.Cwd == "" || !filepath.IsAbs(sc.Cwd) {
		return
	}
	home := e.S.Ctx.Home
	if h, ok := e.Env["HOME"]; ok {
		home = h
	}
	baseRepo, _ := e.S.FindRepo(sc.Cwd)
	known := map[string]bool{}
	base := e.S.Git().Load(baseRepo, gitrepo.LoadOptions{Env: e.S.LookupEnv, Home: e.S.Ctx.Home})
	for _, f := range configFiles(base) {
		known[f] = true
	}
	r, _ := e.S.Git().Find(sc.Cwd, e.LookupEnv, nil)
	for _, f := range configFiles(e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: home})) {
		if !known[f] {
			readConfigFile(e, f, fmt.Sprintf("the command line makes git read `%s`, which may hold secrets", e.S.Shown(f)))
		}
	}
}

// configFiles returns the files of a chain: those with variables and those included.
func configFiles(cfg gitrepo.Config) []string {
	files := cfg.Files()
	for _, in := range cfg.Includes {
		if !slices.Contains(files, in.File) {
			files = append(files, in.File)
		}
	}
	return files
}
