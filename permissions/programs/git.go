package programs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// gitInertConfig are `git -c` keys that only change how output looks. Every other key may run a program
// (core.pager, core.sshCommand, core.fsmonitor, diff.external, alias.*, *.textconv...) and asks.
var gitInertConfig = []string{
	"color.", "core.quotepath", "core.abbrev", "log.", "diff.noprefix", "diff.mnemonicprefix", "diff.renames",
	"diff.algorithm", "diff.context", "diff.indentheuristic", "status.", "column.", "format.pretty", "i18n.",
	"core.precomposeunicode", "grep.linenumber", "grep.patterntype", "blame.",
}

// gitReadSub says which git subcommands are read-only and how their arguments are vetted. The function
// returns why the call is not read-only, or "".
var gitReadSub map[string]func(e *shell.Exec, args []shell.Word) string

func init() {
	logLike := gitOpts("", "", "", nil)
	gitReadSub = map[string]func(e *shell.Exec, args []shell.Word) string{
		"status": logLike, "log": logLike, "show": logLike, "diff": gitDiff,
		"whatchanged": logLike, "shortlog": logLike, "blame": logLike, "annotate": logLike,
		"describe": logLike, "rev-parse": logLike, "rev-list": logLike, "ls-files": logLike,
		"ls-tree": logLike, "cat-file": logLike, "show-ref": logLike, "for-each-ref": logLike,
		"merge-base": logLike, "name-rev": logLike, "count-objects": logLike, "diff-tree": logLike,
		"diff-files": logLike, "diff-index": logLike, "range-diff": logLike, "check-ignore": logLike,
		"check-attr": logLike, "var": gitVar, "cherry": logLike, "show-branch": logLike,
		"version": logLike,
		"grep":    gitGrep,
		"branch": gitListOnly("dDmMcCfu", "u", "", []string{"--delete", "--move", "--copy", "--force",
			"--set-upstream-to", "--set-upstream", "--unset-upstream", "--edit-description", "--track", "--no-track",
			"--create-reflog", "--recurse-submodules"},
			[]string{"--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}),
		// tag -v checks a signature with gpg, a program configuration may name.
		"tag": gitListOnly("dasfumFev", "muF", "n", []string{"--delete", "--annotate", "--sign", "--local-user",
			"--force", "--message", "--file", "--edit", "--create-reflog", "--verify", "--cleanup", "--trailer",
			"--no-sign"},
			[]string{"--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-n"}),
		"remote":    gitRemote,
		"stash":     gitFirstWord(map[string]bool{"list": true, "show": true}, false),
		"worktree":  gitFirstWord(map[string]bool{"list": true}, false),
		"reflog":    gitFirstWord(map[string]bool{"show": true, "list": true, "exists": true}, true),
		"submodule": gitSubmodule,
		"config":    gitConfig,
		"help":      func(*shell.Exec, []shell.Word) string { return "`git help` opens a viewer" },
	}
}

// GitReadsOnly reports whether the table judges git's subcommand sub as one that may only read.
func GitReadsOnly(sub string) bool { return gitReadSub[sub] != nil }

// gitWriteOptions are options that make any read subcommand write or run something.
var gitWriteOptions = []string{"--output", "--ext-diff", "--open-files-in-pager"}

// gitOpts vets a read subcommand's options against gitWriteOptions and its own bad ones.
func gitOpts(values, optional, shortBad string, longBad []string) func(e *shell.Exec, args []shell.Word) string {
	return func(e *shell.Exec, args []shell.Word) string {
		g := gitargs.Parse(args, values, optional, nil)
		if b := g.Bad(shortBad, append(longBad, gitWriteOptions...)); b != "" {
			return fmt.Sprintf("`%s` is not read-only", b)
		}
		return ""
	}
}

// gitGrep: -O runs a pager on the files found. By default git grep reads tracked files only; with
// --no-index or --untracked it reads every file below the pathspecs, like grep -r.
func gitGrep(e *shell.Exec, args []shell.Word) string {
	g := gitargs.Parse(args, "efABCm", "O", []string{"--max-depth", "--threads", "--context", "--after-context",
		"--before-context", "--max-count", "--open-files-in-pager"})
	if b := g.Bad("O", gitWriteOptions); b != "" {
		return fmt.Sprintf("`%s` is not read-only", b)
	}
	if g.Has("--no-index", "--untracked", "--no-exclude-standard") {
		paths := g.Operands
		if len(paths) > 0 && !g.Has("-e", "-f") {
			paths = paths[1:]
		}
		pathspecTrees(e, paths)
	}
	return ""
}

// gitDiff: with --no-index, or with a path outside the repository (which implies it), git diff compares
// files on disk, and a directory operand is read recursively.
func gitDiff(e *shell.Exec, args []shell.Word) string {
	g := gitargs.Parse(args, "", "", nil)
	if b := g.Bad("", gitWriteOptions); b != "" {
		return fmt.Sprintf("`%s` is not read-only", b)
	}
	noIndex := g.Has("--no-index")
	for _, o := range g.Operands {
		if p := e.S.Abs(o.Value, e.Scope()); o.Static && filepath.IsAbs(p) && !e.S.Inside(p) && shell.Exists(p) {
			noIndex = true
		}
	}
	if noIndex {
		for _, o := range g.Operands {
			if fi, err := os.Stat(e.S.Abs(o.Value, e.Scope())); o.Static && err == nil && fi.IsDir() {
				e.TreeRead(o.Value, treewalk.Tree{Hidden: true})
			} else if !o.Static {
				return "`git diff --no-index` compares files only known at run time"
			}
		}
	}
	return ""
}

// pathspecTrees records the recursive read of git pathspecs: each plain existing path is read below
// it; anything else (globs, magic, no pathspec at all) reads the whole directory.
func pathspecTrees(e *shell.Exec, paths []shell.Word) {
	if len(paths) == 0 {
		e.TreeRead(".", treewalk.Tree{Hidden: true})
		return
	}
	for _, p := range paths {
		if !p.Static || strings.ContainsAny(p.Value, "*?[:\\") || !shell.Exists(e.S.Abs(p.Value, e.Scope())) {
			e.TreeRead(".", treewalk.Tree{Hidden: true})
			return
		}
	}
	for _, p := range paths {
		e.TreeRead(p.Value, treewalk.Tree{Hidden: true})
	}
}

// gitListOnly: branch and tag list with no operands or with listing options; otherwise they create.
func gitListOnly(shortBad, values, optional string, longBad, listing []string) func(e *shell.Exec, args []shell.Word) string {
	return func(e *shell.Exec, args []shell.Word) string {
		g := gitargs.Parse(args, values, optional, []string{"--sort", "--format", "--contains", "--no-contains",
			"--merged", "--no-merged", "--points-at", "--abbrev", "--column", "--color"})
		if b := g.Bad(shortBad, longBad); b != "" {
			return fmt.Sprintf("`%s` changes refs", b)
		}
		if len(g.Operands) > 0 && !g.HasExact(listing...) {
			return "creates a ref"
		}
		return ""
	}
}

// gitFirstWord: subcommands like `git stash list`, where the word right after the subcommand says what
// happens. `git stash -m list` pushes a stash named list, so only that first word counts; noneOK says
// whether leaving it out (or starting with an option) reads.
func gitFirstWord(ok map[string]bool, noneOK bool) func(e *shell.Exec, args []shell.Word) string {
	return func(e *shell.Exec, args []shell.Word) string {
		if len(args) == 0 || strings.HasPrefix(args[0].Value, "-") && args[0].Value != "--" {
			if noneOK {
				return gitOpts("", "", "", nil)(e, args)
			}
			return "changes the repository"
		}
		if !ok[args[0].Value] {
			return fmt.Sprintf("`%s` changes the repository", args[0].Value)
		}
		return gitOpts("", "", "", nil)(e, args[1:])
	}
}

// gitSubmodule: status and summary only read, and git submodule without a subcommand, after --quiet
// too, is status.
func gitSubmodule(e *shell.Exec, args []shell.Word) string {
	i := 0
	for i < len(args) && (args[i].Value == "--quiet" || args[i].Value == "-q") {
		i++
	}
	if i == len(args) {
		return ""
	}
	return gitFirstWord(map[string]bool{"status": true, "summary": true}, false)(e, args[i:])
}

// gitRemote lists remotes; `git remote show NAME` asks the remote over the network unless -n is given.
func gitRemote(e *shell.Exec, args []shell.Word) string {
	i := 0
	for i < len(args) && (args[i].Value == "-v" || args[i].Value == "--verbose") {
		i++
	}
	if i == len(args) {
		if i > 0 {
			gitRemotePrints(e)
		}
		return ""
	}
	switch args[i].Value {
	case "get-url":
		gitRemotePrints(e)
		return ""
	case "show":
		g := gitargs.Parse(args[i+1:], "", "", nil)
		if len(g.Operands) > 0 && !g.HasExact("-n") {
			return "`git remote show` contacts the remote over the network"
		}
		gitRemotePrints(e)
		return ""
	}
	return fmt.Sprintf("`%s` changes the repository", args[i].Value)
}

// gitAlias reads, for deny and ask rules, what an alias runs: `git -c alias.p=push p` is git push, and
// `alias.x = !rm -rf y` runs rm through the shell. Aliases come from -c options and the configuration
// of the repository git uses; git consults them only for a name it has no command of.
func gitAlias(e *shell.Exec, words []shell.Word) {
	settings := map[string]string{}
	i := 0
	for ; i < len(words); i++ {
		v := words[i].Value
		switch {
		case v == "-c" && i+1 < len(words):
			i++
			k, val, _ := strings.Cut(words[i].Value, "=")
			settings[strings.ToLower(k)] = val
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			k, val, _ := strings.Cut(v[2:], "=")
			settings[strings.ToLower(k)] = val
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--config-env":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			goto sub
		}
	}
	return
sub:
	name := words[i].Value
	if !words[i].Static || gitargs.Builtins[name] || strings.HasPrefix(name, "-") {
		return
	}
	key := "alias." + strings.ToLower(name)
	value, ok := settings[key]
	from := "" // the file that set the alias, when it may hold secrets
	if !ok {
		if r, found := e.S.Git().Find(e.Scope().Cwd, e.LookupEnv, nil); found {
			if en, ok2 := e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: e.S.Ctx.Home}).Last(key); ok2 {
				value, ok = en.Value, true
				if en.File != "" && e.S.IsSecret(en.File) {
					from = en.File
				}
			}
		}
	}
	if !ok || value == "" {
		return
	}
	rest := strings.Join(shell.Values(words[i+1:]), " ")
	reason := fmt.Sprintf("`git %s` is an alias, which runs `%s`", name, value)
	if from != "" {
		// git reads an included file whatever it holds; the reason, which the person and the model read,
		// must not quote a value out of a file that may hold secrets.
		reason = fmt.Sprintf("`git %s` is an alias set in `%s`, a file that may hold secrets, so what it runs is not shown", name, from)
	}
	if body, viaShell := strings.CutPrefix(value, "!"); viaShell {
		e.Untrusted(body+" "+rest, reason)
		return
	}
	e.Untrusted("git "+value+" "+rest, reason)
}

// checkGit vets git's global options, then the subcommand.
func checkGit(e *shell.Exec, a *shell.Args) string {
	words := a.Words[1:]
	gitSettings(e, words)
	defer gitCommandLineReads(e)
	gitAlias(e, words)
	noLocks := false
	i := 0
	for ; i < len(words); i++ {
		v := words[i].Value
		noLocks = noLocks || v == "--no-optional-locks"
		switch {
		case v == "-C":
			i++
			if i >= len(words) {
				return "`git -C` without a directory"
			}
			e.Chdir(words[i].Value)
		case v == "-c":
			i++
			if i >= len(words) {
				return "`git -c` without a setting"
			}
			if r := gitConfigInert(words[i].Value); r != "" {
				return r
			}
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			if r := gitConfigInert(v[2:]); r != "" {
				return r
			}
		case v == "--no-pager" || v == "-P" || v == "--paginate" || v == "-p" || v == "--no-optional-locks" ||
			v == "--literal-pathspecs" || v == "--glob-pathspecs" || v == "--noglob-pathspecs" ||
			v == "--icase-pathspecs" || v == "--no-replace-objects" || v == "--no-advice" ||
			v == "--version" || v == "--exec-path" || v == "--html-path" || v == "--man-path" || v == "--info-path":
		case strings.HasPrefix(v, "-"):
			// --git-dir, --work-tree, --bare, --config-env, --exec-path=... point git at code or config
			// elsewhere: a bare repository's config may set diff.external or core.fsmonitor, and Warden's
			// safe.bareRepository=explicit only guards repositories git finds by itself.
			return fmt.Sprintf("`git %s` is not checked", v)
		default:
			goto sub
		}
	}
	return ""
sub:
	sub := words[i].Value
	check, ok := gitReadSub[sub]
	if !ok {
		if r := supplied.GitTransport(e, sub, e.Scope().Cwd); r != "" {
			return r
		}
		return fmt.Sprintf("`git %s` is not read-only", sub)
	}
	rest := words[i+1:]
	if r := gitSubmodules(rest); r != "" {
		return fmt.Sprintf("`git %s`: %s", sub, r)
	}
	if r := gitStdin(rest); r != "" {
		return fmt.Sprintf("`git %s`: %s", sub, r)
	}
	if r := check(e, rest); r != "" {
		return fmt.Sprintf("`git %s`: %s", sub, strings.TrimPrefix(r, "`git "+sub+"` "))
	}
	sc := e.Scope()
	isPath := func(p string) bool { return shell.Exists(e.S.Abs(p, sc)) }
	if r := supplied.GitRuns(e, gitargs.FacetsOf(shell.Display(a.Words), sub, rest, noLocks, isPath), sc.Cwd); r != "" {
		e.ConfigRuns = r
		return r
	}
	// Paths and rev:path operands may name secrets (git show HEAD:.env).
	for _, w := range rest {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			// An option's value may name a file: -f~/.aws/credentials, --contents=.env.
			if name, val, ok := strings.Cut(v, "="); ok && !gitGlobOption(name) && e.S.IsSecret(val) {
				e.S.Read(e.P, val, e.Scope())
			} else if !strings.HasPrefix(v, "--") && !strings.HasPrefix(v, "-x") && len(v) > 2 && e.S.IsSecret(v[2:]) {
				e.S.Read(e.P, v[2:], e.Scope())
			}
			continue
		}
		for _, path := range revPaths(v) {
			if e.S.IsSecret(path) {
				e.S.Read(e.P, path, e.Scope())
			}
		}
	}
	if csub, crest := gitargs.ContentSub(sub, rest); gitShowsContent[csub] {
		gitContentReads(e, csub, crest)
	}
	return ""
}

// gitGlobOptions are git options whose value is a pattern of names or refs, not a file.
var gitGlobOptions = []string{"--exclude", "--exclude-per-directory", "--glob", "--branches", "--tags", "--remotes",
	"--decorate-refs", "--decorate-refs-exclude", "-x"}

// gitGlobOption reports whether a git option's value is a pattern of names or refs, not a file.
func gitGlobOption(name string) bool {
	for _, o := range gitGlobOptions {
		if name == o || shell.Abbreviates(name, o) {
			return true
		}
	}
	return false
}

// gitConfigInert returns why a `git -c key=value` setting is not read-only, or "" when its key is one of
// gitInertConfig.
func gitConfigInert(kv string) string {
	key, _, _ := strings.Cut(strings.ToLower(kv), "=")
	if key == "blame.ignorerevsfile" {
		return fmt.Sprintf("`git -c %s` reads a file", kv)
	}
	for _, k := range gitInertConfig {
		if key == k || strings.HasSuffix(k, ".") && strings.HasPrefix(key, k) {
			return ""
		}
	}
	return fmt.Sprintf("`git -c %s` may run a program", kv)
}

// goSubFlags are, per read-only go subcommand, the flags it may be given: true for those that take a
// value. Any other flag asks: go env -w writes, go list -export and -compiled build, -toolexec runs a
// program, go doc -http serves downloaded code, -u, -versions and -retracted ask the network.
var goSubFlags = map[string]map[string]bool{
	"mod verify":   {},
	"mod edit":     {"json": false, "print": false},
	"tool nm":      {"n": false, "size": false, "sort": true, "type": false},
	"tool objdump": {"s": true, "S": false, "gnu": false},
	"version":      {"m": false, "v": false, "json": false},
	"doc":          {"all": false, "c": false, "cmd": false, "short": false, "src": false, "u": false},
	"env":          {"json": false, "changed": false},
	"list":         {"e": false, "json": false, "m": false, "deps": false, "find": false, "test": false, "trimpath": false, "buildvcs": false, "f": true, "tags": true, "mod": true},
	"mod graph":    {"go": true, "x": false},
	"mod why":      {"m": false, "vendor": false},
}

// checkGo: go version, env (reading), list, doc, help, mod graph and mod why. Flags are read the way Go's
// flag package reads them: one or two dashes, the value after `=` or, for a flag that takes one, in the
// next word; a boolean flag may be given `=true`.
func checkGo(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 {
		return ""
	}
	sub := a.Words[1].Value
	rest := a.Words[2:]
	if sub == "help" {
		return ""
	}
	if (sub == "mod" || sub == "tool") && len(rest) > 0 {
		sub += " " + rest[0].Value
		rest = rest[1:]
	}
	if sub == "vet" {
		return checkGoVet(e, rest)
	}
	if sub == "mod edit" && !slices.ContainsFunc(rest, func(w shell.Word) bool {
		return w.Value == "-json" || w.Value == "-print" || w.Value == "--json" || w.Value == "--print"
	}) {
		return "`go mod edit` without -json or -print rewrites go.mod"
	}
	allowed, ok := goSubFlags[sub]
	if !ok {
		return fmt.Sprintf("`go %s` is not read-only", sub)
	}
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		if v == "--" || !strings.HasPrefix(v, "-") || v == "-" {
			// -m pkg@version asks a module proxy or a repository.
			if sub == "list" && strings.Contains(v, "@") {
				return "`go list " + v + "` asks the network"
			}
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		takes, known := allowed[name]
		if !known {
			return fmt.Sprintf("`go %s %s` is not read-only", sub, v)
		}
		if takes && !hasValue && i+1 < len(rest) {
			i++
			value = rest[i].Value
		}
		// -mod=mod updates go.mod and go.sum; only readonly and vendor leave them be.
		if name == "mod" && value != "readonly" && value != "vendor" {
			return fmt.Sprintf("`go %s -mod=%s` may change go.mod", sub, value)
		}
	}
	return ""
}

// goVetBad are go vet's flags that run another program, read or write elsewhere, or change go.mod.
var goVetBad = map[string]bool{"vettool": true, "toolexec": true, "exec": true, "modfile": true, "overlay": true,
	"pgo": true, "C": true, "o": true, "modcacherw": false, "a": false}

// checkGoVet: go vet compiles the packages it checks (cgo runs the C compiler on the project's code) and
// writes Go's build cache; read-only inside the read-only jail, with no flag that runs another tool.
func checkGoVet(e *shell.Exec, rest []shell.Word) string {
	for _, w := range rest {
		v := w.Value
		if !w.Static {
			return "`go vet` with an argument only known at run time"
		}
		if !strings.HasPrefix(v, "-") || v == "--" {
			continue
		}
		name, value, _ := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		if goVetBad[name] {
			return fmt.Sprintf("`go vet -%s` runs or writes something else", name)
		}
		if name == "mod" && value != "readonly" && value != "vendor" {
			return fmt.Sprintf("`go vet -mod=%s` may change go.mod", value)
		}
	}
	return supplied.ProjectCode("go vet", "the compiler (and cgo's C compiler) on the project's code")(e, nil)
}

// checkNpm: only queries that do not run package scripts.
func checkNpm(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 {
		return "`npm` without a command"
	}
	// Another registry or proxy sends the request, names included, wherever it points.
	for _, w := range a.Words[2:] {
		if v := w.Value; strings.HasPrefix(v, "-") && (strings.Contains(v, "registry") || strings.Contains(v, "proxy") || strings.Contains(v, "config")) {
			return fmt.Sprintf("`npm %s` with another registry or configuration", a.Words[1].Value)
		}
	}
	switch sub := a.Words[1].Value; sub {
	case "ls", "list", "ll", "la", "view", "info", "show", "outdated", "--version", "-v", "version", "help", "why", "explain", "prefix", "root", "bin":
		if sub == "version" && len(a.Words) > 2 {
			return "`npm version` with an argument changes package.json"
		}
		return ""
	case "config":
		if len(a.Words) > 2 && (a.Words[2].Value == "get" || a.Words[2].Value == "list" || a.Words[2].Value == "ls") {
			return ""
		}
	}
	return fmt.Sprintf("`%s` is not read-only", shell.Display(a.Words))
}

// checkDocker: listing only. Inspecting a container or an image prints its environment, where passwords
// and tokens usually are, so only volumes and networks may be inspected.
func checkDocker(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 {
		return ""
	}
	switch a.Words[1].Value {
	case "ps", "images", "version", "--version", "info", "logs", "top", "stats":
		return ""
	case "image", "container", "volume", "network":
		if len(a.Words) > 2 && (a.Words[2].Value == "ls" || a.Words[2].Value == "list") {
			return ""
		}
		if len(a.Words) > 2 && a.Words[2].Value == "inspect" && (a.Words[1].Value == "volume" || a.Words[1].Value == "network") {
			return ""
		}
	case "compose":
		// `docker compose config` would print values interpolated from .env.
		if len(a.Words) > 2 && (a.Words[2].Value == "ps" || a.Words[2].Value == "ls" || a.Words[2].Value == "images") {
			return onlyOptions(a.Words[3:], "-a", "--all", "-q", "--quiet", "--format", "--services", "--status")
		}
	}
	return fmt.Sprintf("`%s` is not read-only", shell.Display(a.Words))
}
