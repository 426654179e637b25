package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
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
var gitReadSub map[string]func(e *exec, args []word) string

func init() {
	logLike := gitOpts("", "", "", nil)
	gitReadSub = map[string]func(e *exec, args []word) string{
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
		"submodule": gitFirstWord(map[string]bool{"status": true, "summary": true}, false),
		"config":    gitConfig,
		"help":      func(*exec, []word) string { return "`git help` opens a viewer" },
	}
}

// gitWriteOptions are options that make any read subcommand write or run something.
var gitWriteOptions = []string{"--output", "--ext-diff", "--open-files-in-pager"}

// gitArgs are a subcommand's arguments split the way git's parse-options splits them.
type gitArgs struct {
	flags    []flagArg
	operands []word
}

// parseGit splits args: short options cluster, a letter in values takes the rest of the word or else the
// next word, a letter in optional takes only the rest of the word, digits are a count (-3); a long option
// takes `=value`, or the next word when it is (an abbreviation of) one of longValues; `--` ends options.
// Long options keep the name as typed, abbreviated or not.
func parseGit(args []word, values, optional string, longValues []string) gitArgs {
	var g gitArgs
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			g.operands = append(g.operands, args[i+1:]...)
			return g
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v, "=")
			if !has && matchesLong(name[2:], trimDashes(longValues)) && i+1 < len(args) {
				i++
				val, has = args[i].Value, true
			}
			g.flags = append(g.flags, flagArg{name: name, value: val, has: has})
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				ch := v[j]
				f := flagArg{name: "-" + string(ch)}
				switch {
				case ch >= '0' && ch <= '9':
					continue
				case strings.IndexByte(values, ch) >= 0:
					f.value, f.has = v[j+1:], true
					if j == len(v)-1 && i+1 < len(args) {
						i++
						f.value = args[i].Value
					}
					j = len(v)
				case strings.IndexByte(optional, ch) >= 0:
					f.value, f.has = v[j+1:], j < len(v)-1
					j = len(v)
				}
				g.flags = append(g.flags, f)
			}
		default:
			g.operands = append(g.operands, args[i])
		}
	}
	return g
}

func trimDashes(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.TrimPrefix(n, "--")
	}
	return out
}

// bad returns the first option that is one of shortBad's letters or stands for one of longBad: git takes
// any unambiguous abbreviation of a long option, so an abbreviation of a bad one is bad.
func (g gitArgs) bad(shortBad string, longBad []string) string {
	for _, f := range g.flags {
		if strings.HasPrefix(f.name, "--") {
			if len(f.name) > 2 && slices.ContainsFunc(longBad, func(b string) bool { return strings.HasPrefix(b, f.name) }) {
				return f.name
			}
			continue
		}
		if strings.Contains(shortBad, f.name[1:]) {
			return f.name
		}
	}
	return ""
}

// has reports whether any of names was given; long ones count abbreviated too.
func (g gitArgs) has(names ...string) bool {
	for _, f := range g.flags {
		for _, n := range names {
			if f.name == n || abbreviates(f.name, n) {
				return true
			}
		}
	}
	return false
}

// hasExact reports whether any of names was given spelled out.
func (g gitArgs) hasExact(names ...string) bool {
	for _, f := range g.flags {
		if slices.Contains(names, f.name) {
			return true
		}
	}
	return false
}

// gitOpts vets a read subcommand's options against gitWriteOptions and its own bad ones.
func gitOpts(values, optional, shortBad string, longBad []string) func(e *exec, args []word) string {
	return func(e *exec, args []word) string {
		g := parseGit(args, values, optional, nil)
		if b := g.bad(shortBad, append(longBad, gitWriteOptions...)); b != "" {
			return fmt.Sprintf("`%s` is not read-only", b)
		}
		return ""
	}
}

// gitGrep: -O runs a pager on the files found. By default git grep reads tracked files only; with
// --no-index or --untracked it reads every file below the pathspecs, like grep -r.
func gitGrep(e *exec, args []word) string {
	g := parseGit(args, "efABCm", "O", []string{"--max-depth", "--threads", "--context", "--after-context",
		"--before-context", "--max-count", "--open-files-in-pager"})
	if b := g.bad("O", gitWriteOptions); b != "" {
		return fmt.Sprintf("`%s` is not read-only", b)
	}
	if g.has("--no-index", "--untracked", "--no-exclude-standard") {
		paths := g.operands
		if len(paths) > 0 && !g.has("-e", "-f") {
			paths = paths[1:]
		}
		e.pathspecTrees(paths)
	}
	return ""
}

// gitDiff: with --no-index, or with a path outside the repository (which implies it), git diff compares
// files on disk, and a directory operand is read recursively.
func gitDiff(e *exec, args []word) string {
	g := parseGit(args, "", "", nil)
	if b := g.bad("", gitWriteOptions); b != "" {
		return fmt.Sprintf("`%s` is not read-only", b)
	}
	noIndex := g.has("--no-index")
	for _, o := range g.operands {
		if p := e.c.abs(o.Value, e.scope()); o.Static && filepath.IsAbs(p) && !e.c.inside(p) && exists(p) {
			noIndex = true
		}
	}
	if noIndex {
		for _, o := range g.operands {
			if fi, err := os.Stat(e.c.abs(o.Value, e.scope())); o.Static && err == nil && fi.IsDir() {
				e.treeRead(o.Value, treeRead{hidden: true})
			} else if !o.Static {
				return "`git diff --no-index` compares files only known at run time"
			}
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// pathspecTrees records the recursive read of git pathspecs: each plain existing path is read below
// it; anything else (globs, magic, no pathspec at all) reads the whole directory.
func (e *exec) pathspecTrees(paths []word) {
	if len(paths) == 0 {
		e.treeRead(".", treeRead{hidden: true})
		return
	}
	for _, p := range paths {
		if !p.Static || strings.ContainsAny(p.Value, "*?[:\\") || !exists(e.c.abs(p.Value, e.scope())) {
			e.treeRead(".", treeRead{hidden: true})
			return
		}
	}
	for _, p := range paths {
		e.treeRead(p.Value, treeRead{hidden: true})
	}
}

// gitListOnly: branch and tag list with no operands or with listing options; otherwise they create.
func gitListOnly(shortBad, values, optional string, longBad, listing []string) func(e *exec, args []word) string {
	return func(e *exec, args []word) string {
		g := parseGit(args, values, optional, []string{"--sort", "--format", "--contains", "--no-contains",
			"--merged", "--no-merged", "--points-at", "--abbrev", "--column", "--color"})
		if b := g.bad(shortBad, longBad); b != "" {
			return fmt.Sprintf("`%s` changes refs", b)
		}
		if len(g.operands) > 0 && !g.hasExact(listing...) {
			return "creates a ref"
		}
		return ""
	}
}

// gitFirstWord: subcommands like `git stash list`, where the word right after the subcommand says what
// happens. `git stash -m list` pushes a stash named list, so only that first word counts; noneOK says
// whether leaving it out (or starting with an option) reads.
func gitFirstWord(ok map[string]bool, noneOK bool) func(e *exec, args []word) string {
	return func(e *exec, args []word) string {
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

// gitRemote lists remotes; `git remote show NAME` asks the remote over the network unless -n is given.
func gitRemote(e *exec, args []word) string {
	i := 0
	for i < len(args) && (args[i].Value == "-v" || args[i].Value == "--verbose") {
		i++
	}
	if i == len(args) {
		if i > 0 {
			e.gitRemotePrints()
		}
		return ""
	}
	switch args[i].Value {
	case "get-url":
		e.gitRemotePrints()
		return ""
	case "show":
		g := parseGit(args[i+1:], "", "", nil)
		if len(g.operands) > 0 && !g.hasExact("-n") {
			return "`git remote show` contacts the remote over the network"
		}
		e.gitRemotePrints()
		return ""
	}
	return fmt.Sprintf("`%s` changes the repository", args[i].Value)
}

// gitBuiltins are the subcommands git runs itself, before any alias of the same name (git.c's list).
var gitBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`add am annotate apply archive backfill bisect blame branch bugreport bundle cat-file
		check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick clean clone
		column commit commit-graph commit-tree config count-objects credential credential-cache credential-store
		describe diagnose diff diff-files diff-index diff-pairs diff-tree difftool fast-export fast-import fetch
		fetch-pack fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects gc get-tar-commit-id grep
		hash-object help history hook index-pack init init-db interpret-trailers last-modified log ls-files
		ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-ours
		merge-recursive merge-subtree merge-tree mktag mktree multi-pack-index mv name-rev notes pack-objects
		pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push range-diff read-tree rebase
		receive-pack reflog refs remote remote-ext remote-fd repack replace replay repo rerere reset restore rev-list
		rev-parse revert rm send-pack shortlog show show-branch show-index show-ref sparse-checkout stage stash
		status stripspace submodule switch symbolic-ref tag unpack-file unpack-objects update-index update-ref
		update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag version whatchanged
		worktree write-tree`) {
		gitBuiltins[n] = true
	}
}

// gitAlias reads, for deny and ask rules, what an alias runs: `git -c alias.p=push p` is git push, and
// `alias.x = !rm -rf y` runs rm through the shell. Aliases come from -c options and the configuration
// of the repository git uses; git consults them only for a name it has no command of.
func (e *exec) gitAlias(words []word) {
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
	if !words[i].Static || gitBuiltins[name] || strings.HasPrefix(name, "-") {
		return
	}
	key := "alias." + strings.ToLower(name)
	value, ok := settings[key]
	if !ok {
		if r, found := gitrepo.Find(e.scope().cwd, e.lookupEnv); found {
			if en, ok2 := gitrepo.LoadConfig(r, e.lookupEnv, e.c.ctx.Home).Last(key); ok2 {
				value, ok = en.Value, true
			}
		}
	}
	if !ok || value == "" {
		return
	}
	rest := strings.Join(values(words[i+1:]), " ")
	reason := fmt.Sprintf("`git %s` is an alias, which runs `%s`", name, value)
	if body, shell := strings.CutPrefix(value, "!"); shell {
		e.untrustedBody(body+" "+rest, reason)
		return
	}
	e.untrustedBody("git "+value+" "+rest, reason)
}

// checkGit vets git's global options, then the subcommand.
func checkGit(e *exec, a *parsedArgs) string {
	words := a.words[1:]
	e.gitSettings(words)
	defer e.gitCommandLineReads()
	e.gitAlias(words)
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
			e.chdir(words[i].Value)
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
	sc := e.scope()
	isPath := func(p string) bool { return exists(e.c.abs(p, sc)) }
	if r := e.gitTrust(gitFacets(display(a.words), sub, rest, noLocks, isPath), sc.cwd); r != "" {
		e.configRuns = r
		return r
	}
	// Paths and rev:path operands may name secrets (git show HEAD:.env).
	for _, w := range rest {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			// An option's value may name a file: -f~/.aws/credentials, --contents=.env.
			if name, val, ok := strings.Cut(v, "="); ok && !gitGlobOption(name) && isSecretPath(val, e.c.ctx.Home) {
				e.c.read(e.p, val, e.scope())
			} else if !strings.HasPrefix(v, "--") && !strings.HasPrefix(v, "-x") && len(v) > 2 && isSecretPath(v[2:], e.c.ctx.Home) {
				e.c.read(e.p, v[2:], e.scope())
			}
			continue
		}
		for _, path := range revPaths(v) {
			if isSecretPath(path, e.c.ctx.Home) {
				e.c.read(e.p, path, e.scope())
			}
		}
	}
	if csub, crest := gitContentSub(sub, rest); gitShowsContent[csub] {
		e.gitContentReads(csub, crest)
	}
	return ""
}

// gitGlobOptions are git options whose value is a pattern of names or refs, not a file.
var gitGlobOptions = []string{"--exclude", "--exclude-per-directory", "--glob", "--branches", "--tags", "--remotes",
	"--decorate-refs", "--decorate-refs-exclude", "-x"}

// gitGlobOption reports whether a git option's value is a pattern of names or refs, not a file.
func gitGlobOption(name string) bool {
	for _, o := range gitGlobOptions {
		if name == o || abbreviates(name, o) {
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
func checkGo(e *exec, a *parsedArgs) string {
	if len(a.words) < 2 {
		return ""
	}
	sub := a.words[1].Value
	rest := a.words[2:]
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
	if sub == "mod edit" && !slices.ContainsFunc(rest, func(w word) bool {
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
func checkGoVet(e *exec, rest []word) string {
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
	return projectCode("go vet", "the compiler (and cgo's C compiler) on the project's code")(e, nil)
}

// checkNpm: only queries that do not run package scripts.
func checkNpm(e *exec, a *parsedArgs) string {
	if len(a.words) < 2 {
		return "`npm` without a command"
	}
	// Another registry or proxy sends the request, names included, wherever it points.
	for _, w := range a.words[2:] {
		if v := w.Value; strings.HasPrefix(v, "-") && (strings.Contains(v, "registry") || strings.Contains(v, "proxy") || strings.Contains(v, "config")) {
			return fmt.Sprintf("`npm %s` with another registry or configuration", a.words[1].Value)
		}
	}
	switch sub := a.words[1].Value; sub {
	case "ls", "list", "ll", "la", "view", "info", "show", "outdated", "--version", "-v", "version", "help", "why", "explain", "prefix", "root", "bin":
		if sub == "version" && len(a.words) > 2 {
			return "`npm version` with an argument changes package.json"
		}
		return ""
	case "config":
		if len(a.words) > 2 && (a.words[2].Value == "get" || a.words[2].Value == "list" || a.words[2].Value == "ls") {
			return ""
		}
	}
	return fmt.Sprintf("`%s` is not read-only", display(a.words))
}

// checkDocker: listing only. Inspecting a container or an image prints its environment, where passwords
// and tokens usually are, so only volumes and networks may be inspected.
func checkDocker(e *exec, a *parsedArgs) string {
	if len(a.words) < 2 {
		return ""
	}
	switch a.words[1].Value {
	case "ps", "images", "version", "--version", "info", "logs", "top", "stats":
		return ""
	case "image", "container", "volume", "network":
		if len(a.words) > 2 && (a.words[2].Value == "ls" || a.words[2].Value == "list") {
			return ""
		}
		if len(a.words) > 2 && a.words[2].Value == "inspect" && (a.words[1].Value == "volume" || a.words[1].Value == "network") {
			return ""
		}
	case "compose":
		// `docker compose config` would print values interpolated from .env.
		if len(a.words) > 2 && (a.words[2].Value == "ps" || a.words[2].Value == "ls" || a.words[2].Value == "images") {
			return onlyOptions(a.words[3:], "-a", "--all", "-q", "--quiet", "--format", "--services", "--status")
		}
	}
	return fmt.Sprintf("`%s` is not read-only", display(a.words))
}
