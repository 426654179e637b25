package permissions

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		"check-attr": logLike, "var": logLike, "cherry": logLike, "show-branch": logLike,
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
		return ""
	}
	switch args[i].Value {
	case "get-url":
		return ""
	case "show":
		g := parseGit(args[i+1:], "", "", nil)
		if len(g.operands) > 0 && !g.hasExact("-n") {
			return "`git remote show` contacts the remote over the network"
		}
		return ""
	}
	return fmt.Sprintf("`%s` changes the repository", args[i].Value)
}

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
// operand sets a value, --add, --unset, -e...) asks.
func gitConfig(e *exec, args []word) string {
	g := parseGit(args, "f", "", []string{"--file", "--blob", "--type", "--default", "--value", "--url"})
	for _, f := range g.flags {
		if !gitConfigReadOpts[f.name] {
			return fmt.Sprintf("`%s` may change settings", f.name)
		}
		// The file or blob read is a read like any other, for deny rules and secrets alike.
		switch {
		case !f.has:
		case f.name == "-f" || f.name == "--file":
			if f.value == "-" {
				return "`git config -f -` reads its input"
			}
			e.c.read(e.p, f.value, e.scope())
		case f.name == "--blob":
			e.gitRevPath(f.value, gitTop(e.scope().cwd), e.scope())
		}
	}
	if len(args) > 0 && (args[0].Value == "list" || args[0].Value == "get") {
		return ""
	}
	if g.hasExact("--list", "-l") && len(g.operands) == 0 ||
		g.hasExact("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool") && len(g.operands) <= 2 {
		return ""
	}
	if len(g.operands) == 1 && g.operands[0].Value != "list" && g.operands[0].Value != "get" {
		return ""
	}
	return "`git config` changes settings"
}

// checkGit vets git's global options, then the subcommand.
func checkGit(e *exec, a *parsedArgs) string {
	words := a.words[1:]
	i := 0
	for ; i < len(words); i++ {
		v := words[i].Value
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
	// Paths and rev:path operands may name secrets (git show HEAD:.env).
	for _, w := range rest {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			// An option's value may name a file: -f~/.aws/credentials, --contents=.env.
			if _, val, ok := strings.Cut(v, "="); ok && isSecretPath(val, e.c.ctx.Home) {
				e.c.read(e.p, val, e.scope())
			} else if !strings.HasPrefix(v, "--") && len(v) > 2 && isSecretPath(v[2:], e.c.ctx.Home) {
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

// gitContentSub returns the content subcommand a read subcommand amounts to, and its arguments:
// `git reflog [show]` is `git log -g`, and `git stash show` prints a stash's diff, its files' contents
// with -p (like log, a stat otherwise); `git reflog list` and `git reflog exists` print none.
func gitContentSub(sub string, rest []word) (string, []word) {
	switch sub {
	case "reflog":
		if len(rest) > 0 && rest[0].Value == "show" {
			return "log", rest[1:]
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0].Value, "-") {
			return "log", rest
		}
	case "stash":
		if len(rest) > 0 && rest[0].Value == "show" {
			return "stash show", rest[1:]
		}
	}
	return sub, rest
}

// gitShowsContent are the read subcommands that print what files hold, in the work tree or in history.
var gitShowsContent = map[string]bool{
	"show": true, "log": true, "diff": true, "whatchanged": true, "blame": true, "annotate": true, "grep": true,
	"cat-file": true, "diff-tree": true, "diff-files": true, "diff-index": true, "range-diff": true,
	"stash show": true,
}

// gitFileShort are, per subcommand, the short options whose value names a file git reads: blame -S
// revs-file, diff -O orderfile, grep -f patterns.
var gitFileShort = map[string]string{
	"blame": "S", "annotate": "S", "grep": "f", "diff": "O", "log": "O", "show": "O", "whatchanged": "O",
	"diff-tree": "O", "diff-files": "O", "diff-index": "O", "stash show": "O",
}

// gitFileLong are long options whose value names a file git reads.
var gitFileLong = []string{"--contents", "--ignore-revs-file", "--orderfile", "--exclude-from", "--file",
	"--pathspec-from-file"}

// gitShortValues are, per content subcommand, the short options that take the next word as their value
// (log -n 5, log -S string, grep -e pattern). A flag wrongly taken to have one would hide a path, so only
// those that do are listed.
var gitShortValues = map[string]string{
	"log": "nSGLO", "show": "nSGLO", "whatchanged": "nSGLO", "diff": "SGO", "diff-tree": "SGO",
	"diff-files": "SGO", "diff-index": "SGO", "blame": "LS", "annotate": "LS", "grep": "efABCm",
	"stash show": "SGO",
}

// gitLongValues are long options of the content subcommands that take the next word as their value.
var gitLongValues = []string{"--grep", "--author", "--committer", "--format", "--pretty", "--since", "--until",
	"--after", "--before", "--max-count", "--skip", "--date", "--encoding", "--abbrev", "--src-prefix",
	"--dst-prefix", "--line-prefix", "--word-diff-regex", "--diff-filter", "--regexp", "--max-depth",
	"--threads", "--context", "--after-context", "--before-context", "--contents", "--ignore-revs-file",
	"--orderfile", "--exclude-from", "--file", "--pathspec-from-file", "--batch-size"}

// gitContentReads records what a content subcommand reads, so that deny rules and secret names apply:
// files named by options, `REV:path` (relative to the repository's top, or to the directory with ./ or
// ../, as git reads it), `-L range:path`, and paths and pathspecs, which read everything below them; a
// pathspec with a wildcard or magic reads the whole directory.
func (e *exec) gitContentReads(sub string, rest []word) {
	sc := e.scope()
	root := gitTop(sc.cwd)
	dash := slices.IndexFunc(rest, func(w word) bool { return w.Value == "--" })
	g := parseGit(rest, gitShortValues[sub], "", gitLongValues)
	pathspecs := 0
	if dash >= 0 {
		pathspecs = len(rest) - dash - 1
	}
	for _, f := range g.flags {
		switch {
		case !f.has || f.value == "" || f.value == "-":
		case f.name == "-L":
			if i := strings.LastIndexByte(f.value, ':'); i >= 0 {
				e.c.read(e.p, f.value[i+1:], sc)
			}
		case len(f.name) == 2 && strings.Contains(gitFileShort[sub], f.name[1:]),
			slices.ContainsFunc(gitFileLong, func(l string) bool { return abbreviates(f.name, l) }):
			e.c.read(e.p, f.value, sc)
		}
	}
	ops := g.operands
	if sub == "grep" && len(ops) > pathspecs && !slices.ContainsFunc(g.flags, func(f flagArg) bool {
		return !strings.HasPrefix(f.name, "--") && (f.name == "-e" || f.name == "-f") ||
			abbreviates(f.name, "--regexp") || abbreviates(f.name, "--file")
	}) {
		ops = ops[1:] // the pattern
	}
	paths, revs := 0, 0
	for i, o := range ops {
		v := o.Value
		after := i >= len(ops)-pathspecs
		if !o.Static {
			paths++
			continue // checked as a word only known at run time
		}
		paths++
		switch {
		case strings.HasPrefix(v, ":(") || strings.HasPrefix(v, ":!") || strings.HasPrefix(v, ":^"):
			e.treeRead(gitOr(root, "."), treeRead{hidden: true})
		case strings.HasPrefix(v, ":/"):
			e.gitPath(filepath.Join(gitOr(root, "."), v[2:]), sc)
		case !after && strings.Contains(v, ":"):
			e.gitRevPath(v, root, sc)
		case strings.ContainsAny(v, "*?[\\"):
			// A git wildcard matches across slashes: `*.go` is any path ending in .go, the same as a
			// base name ending in it; any other pattern may match a directory's name.
			t := treeRead{hidden: true}
			if rest, ok := strings.CutPrefix(v, "*"); ok && rest != "" && !strings.ContainsAny(rest, "*?[\\/") {
				t.include = []string{v}
			}
			e.treeRead(".", t)
		case after || exists(e.c.abs(v, sc)):
			e.gitPath(v, sc)
		default:
			paths--
			revs++
		}
	}
	// With no path, what is shown may be any file of the repository: the whole tracked tree (from the
	// directory, for grep). history may also hold files no longer tracked, which Warden cannot see.
	prints := gitPrintsContent(sub, g, revs) || sub == "stash show" && !g.hasExact(gitStatOnly...) && e.stashShowsPatch(root)
	if paths > 0 || !prints || root == "" {
		return
	}
	t := treeRead{hidden: true, repo: root, index: true}
	var gitlinks, ok bool
	t.tracked, gitlinks, ok = gitTracked(root)
	if !ok {
		e.p.notRO("prints files of a repository whose index Warden cannot list in full")
		return
	}
	if gitlinks || exists(filepath.Join(root, ".gitmodules")) {
		e.p.notRO("prints files of a repository with submodules, whose contents Warden does not follow")
		return
	}
	// What is in HEAD or history but no longer in the index (`git rm --cached .env`) is read too unless
	// only the index and the work tree are compared: the files on disk are looked at as well. A file
	// gone from both is not seen.
	t.worktree = (revs > 0 || !(sub == "diff-files" || (sub == "diff" || sub == "grep") && !g.has("--cached", "--staged"))) &&
		gitHasObjects(root)
	dir := root
	if sub == "grep" {
		dir = "."
	}
	e.treeRead(dir, t)
}

// stashShowsPatch reports whether git's configuration may make `git stash show` print a patch
// (stash.showPatch): any mention of it in the repository's or the user's configuration counts.
func (e *exec) stashShowsPatch(root string) bool {
	files := []string{filepath.Join(root, ".git", "config"), "/etc/gitconfig"}
	if h := e.c.ctx.Home; h != "" {
		files = append(files, filepath.Join(h, ".gitconfig"), filepath.Join(h, ".config", "git", "config"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && (bytes.Contains(bytes.ToLower(b), []byte("showpatch")) || bytes.Contains(bytes.ToLower(b), []byte("include"))) {
			return true
		}
	}
	return false
}

// gitPatchOptions make any content subcommand print what files hold; git takes them abbreviated.
var gitPatchOptions = []string{"--patch", "--unified", "--word-diff", "--word-diff-regex", "--color-words",
	"--patch-with-stat", "--patch-with-raw", "--cc", "--function-context", "--binary", "--full-index"}

// gitStatOnly are the options that leave file contents out, spelled out in full: only the exact spelling
// narrows what is read.
var gitStatOnly = []string{"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary",
	"--dirstat", "--no-patch", "--quiet", "--raw", "--compact-summary", "-s"}

// gitPrintsContent reports whether a content subcommand with no path prints what files hold: show, diff,
// grep, range-diff and cat-file do unless told to print only names or statistics; log, whatchanged and
// diff-tree only with a patch option.
func gitPrintsContent(sub string, g gitArgs, revs int) bool {
	for _, f := range g.flags {
		switch {
		case f.name == "-p" && sub != "cat-file", f.name == "-u", f.name == "-U", f.name == "-W", f.name == "-c", f.name == "-L":
			return true
		case len(f.name) > 2 && strings.HasPrefix(f.name, "--") &&
			slices.ContainsFunc(gitPatchOptions, func(o string) bool { return strings.HasPrefix(o, f.name) }):
			return true
		}
	}
	switch sub {
	case "cat-file":
		return revs > 0 && !g.hasExact("-t", "-s", "-e")
	case "show", "diff", "grep", "range-diff":
		return !g.hasExact(gitStatOnly...)
	}
	return false
}

// gitRevPath records the read of `REV:path` (or `:path`, `:N:path` in the index): the path is relative to
// the repository's top, or with ./ or ../ to the directory.
func (e *exec) gitRevPath(v, root string, sc *scope) {
	for _, path := range revPaths(v) {
		if path == "" {
			continue
		}
		if path != "." && path != ".." && !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") {
			if root == "" {
				e.p.notRO(fmt.Sprintf("`%s` names a path in a repository Warden cannot find", v))
				continue
			}
			path = filepath.Join(root, path)
		}
		e.c.read(e.p, path, sc)
	}
}

// revPaths returns the paths `REV:path` may name. git splits at the first `:` outside `{...}`
// (`HEAD@{2030-01-01 00:00}:x`, `HEAD^{/a:b}:x`); a path may hold a colon itself, so the text after the
// last `:` outside braces is read too. With unbalanced braces any colon may split, so every candidate is
// returned. `:N:path` names stage N of the index.
func revPaths(v string) []string {
	var cands []string
	depth, unbalanced := 0, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				unbalanced = true
			} else {
				depth--
			}
		case ':':
			if depth == 0 || unbalanced {
				cands = append(cands, v[i+1:])
			}
		}
	}
	if depth != 0 {
		cands = nil
		for i := 0; i < len(v); i++ {
			if v[i] == ':' {
				cands = append(cands, v[i+1:])
			}
		}
	}
	if len(cands) > 1 && !unbalanced && depth == 0 {
		cands = []string{cands[0], cands[len(cands)-1]}
	}
	var out []string
	for _, path := range cands {
		if len(path) > 1 && path[0] >= '0' && path[0] <= '3' && path[1] == ':' {
			path = path[2:]
		}
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}

// gitSubmodules returns why options make a subcommand go into submodules, whose contents and
// configuration Warden does not follow, or "": --recurse-submodules and --submodule=diff, in any
// abbreviation git accepts.
func gitSubmodules(args []word) string {
	for _, w := range args {
		v := w.Value
		if v == "--" {
			break
		}
		name, val, _ := strings.Cut(v, "=")
		if abbreviates(name, "--recurse-submodules") || abbreviates(name, "--no-recurse-submodules") && len(name) > 5 ||
			abbreviates(name, "--submodule") && len(name) > 3 && val == "diff" {
			return fmt.Sprintf("`%s` reads submodules, which Warden does not follow", v)
		}
	}
	return ""
}

// gitStdinOptions make git read revisions, object names or paths from its input, which Warden cannot see:
// `echo HEAD:secrets/key | git cat-file --batch`, `git diff-tree -p --stdin`. --batch-all-objects prints
// every object of the repository.
var gitStdinOptions = []string{"--stdin", "--batch", "--batch-check", "--batch-command", "--batch-all-objects",
	"--stdin-packs", "--stdin-commits", "--pathspec-from-file"}

// gitStdin returns why a subcommand's options read its input, or "". Every word before `--` counts,
// values included, and any abbreviation git accepts.
func gitStdin(args []word) string {
	for _, w := range args {
		v := w.Value
		if v == "--" {
			break
		}
		name, _, _ := strings.Cut(v, "=")
		if slices.ContainsFunc(gitStdinOptions, func(o string) bool { return abbreviates(name, o) }) {
			return fmt.Sprintf("`%s` reads object names or paths from its input, or every object", v)
		}
	}
	return ""
}

// gitPath records the read of a path git shows: a directory is read below it.
func (e *exec) gitPath(path string, sc *scope) {
	if fi, err := os.Stat(e.c.abs(path, sc)); err == nil && fi.IsDir() {
		e.treeRead(path, treeRead{hidden: true})
		return
	}
	e.c.read(e.p, path, sc)
}

func gitOr(root, def string) string {
	if root == "" {
		return def
	}
	return root
}

// gitTop finds the top of the repository dir is in, the way git does by default: the nearest directory
// holding .git. It returns "" when dir is unknown or in no repository.
func gitTop(dir string) string {
	for d := dir; d != "" && filepath.IsAbs(d); d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		if d == "/" {
			break
		}
	}
	return ""
}

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
	"version":   {"m": false, "v": false, "json": false},
	"doc":       {"all": false, "c": false, "cmd": false, "short": false, "src": false, "u": false},
	"env":       {"json": false, "changed": false},
	"list":      {"e": false, "json": false, "m": false, "deps": false, "find": false, "test": false, "trimpath": false, "buildvcs": false, "f": true, "tags": true, "mod": true},
	"mod graph": {"go": true, "x": false},
	"mod why":   {"m": false, "vendor": false},
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
	if sub == "mod" && len(rest) > 0 {
		sub += " " + rest[0].Value
		rest = rest[1:]
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
