package permissions

import (
	"github.com/warden-cli/warden/permissions/shell"
	"slices"
	"strings"
)

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

// gitRun is what one git invocation does, as far as configured programs are concerned.
type gitRun struct {
	name string // how reasons name it: `git status`
	sub  string
	// textconv: textconv drivers apply; external: diff.external and diff drivers' commands run.
	textconv, external bool
	// worktree: work-tree files are cleaned to compare them; smudge: objects are smudged.
	worktree, smudge bool
	// writesIndex: the index may be written, running post-index-change.
	writesIndex bool
	// signatures: signatures are checked.
	signatures bool
	// objects: objects' contents are read (a partial clone fetches missing ones).
	objects bool
	// submodules: git runs itself in each populated submodule, as `git status` (or, for `git submodule
	// status|summary`, as commands that do not load the index).
	submodules  bool
	inSubmodule string
	// index: the index is loaded, which runs core.fsmonitor.
	index bool
}

// gitNoIndex are the subcommands that never load the index, unless an operand names an index entry
// (`:path`, `:0:path`).
var gitNoIndex = map[string]bool{
	"log": true, "whatchanged": true, "shortlog": true, "show": true, "rev-list": true, "cat-file": true,
	"ls-tree": true, "show-ref": true, "for-each-ref": true, "merge-base": true, "name-rev": true,
	"count-objects": true, "diff-tree": true, "range-diff": true, "var": true, "version": true, "cherry": true,
	"show-branch": true, "branch": true, "tag": true, "remote": true, "stash": true, "worktree": true,
	"reflog": true, "config": true, "describe": true, "rev-parse": true, "help": true,
}

// gitFacets says what an invocation of a read-only subcommand does. rest are the words after the
// subcommand; noLocks is set by --no-optional-locks; isPath reports whether an operand names an
// existing file (relative to where git runs), which makes it a path rather than a revision.
func gitFacets(name, sub string, rest []shell.Word, noLocks bool, isPath func(string) bool) gitRun {
	csub, crest := gitContentSub(sub, rest)
	g := parseGit(crest, gitShortValues[csub], "", gitLongValues)
	run := gitRun{name: name, sub: sub}
	patch := gitPrintsPatch(csub, g)
	pickaxe := g.has("-S", "-G", "-L", "--pickaxe-regex", "--pickaxe-all")
	textconvFlag := g.has("--textconv")
	cached := g.has("--cached", "--staged")
	revs := gitRevCount(csub, g, isPath)
	switch csub {
	case "diff":
		run.textconv = patch || pickaxe
		run.external = patch
		run.worktree = !cached && revs < 2 && !g.has("--no-index")
		run.writesIndex = run.worktree
		run.submodules = run.worktree
		run.objects = true
	case "show", "log", "whatchanged", "stash show", "range-diff":
		run.textconv = csub != "stash show" && csub != "range-diff" && (patch || pickaxe) || textconvFlag
		run.objects = true
	case "diff-files":
		run.worktree = true
		run.textconv = textconvFlag
		run.objects = true
	case "diff-index":
		run.worktree = !cached
		run.textconv = textconvFlag
		run.objects = true
	case "diff-tree", "grep", "cat-file", "ls-tree":
		run.textconv = textconvFlag || csub == "cat-file" && g.has("--filters")
		run.smudge = csub == "cat-file" && g.has("--filters")
		run.objects = csub != "ls-tree"
	case "blame", "annotate":
		run.textconv = true
		run.worktree = revs == 0
		run.objects = true
	case "status":
		run.textconv = g.has("-v", "--verbose")
		run.worktree = true
		run.writesIndex = true
		run.submodules = true
	case "describe":
		run.worktree = g.has("--dirty", "--broken")
		run.writesIndex = run.worktree
		run.submodules = run.worktree
	case "ls-files":
		run.worktree = g.has("-m", "--modified", "-d", "--deleted", "-t", "-k", "--killed")
	case "submodule":
		run.submodules = true
		run.inSubmodule = "rev-parse"
	}
	if gitPrintsCommits[csub] || csub == "for-each-ref" || csub == "branch" || csub == "tag" {
		run.signatures = g.has("--show-signature") || gitFormatChecksSignatures(g)
	}
	run.index = !gitNoIndex[sub] || run.worktree || run.submodules
	for _, w := range rest {
		if strings.HasPrefix(w.Value, ":") && !strings.HasPrefix(w.Value, ":(") && !strings.HasPrefix(w.Value, ":/") {
			run.index = true
		}
	}
	if noLocks {
		run.writesIndex = false
	}
	return run
}

// gitPrintsPatch reports whether a subcommand prints patches: show, diff and range-diff do unless told
// to print only names or statistics; log and its kin only with a patch option.
func gitPrintsPatch(sub string, g gitArgs) bool {
	for _, f := range g.flags {
		switch {
		case f.Name == "-p", f.Name == "-u", f.Name == "-U", f.Name == "-W", f.Name == "-c", f.Name == "-L":
			return true
		case len(f.Name) > 2 && strings.HasPrefix(f.Name, "--") &&
			slices.ContainsFunc(gitPatchOptions, func(o string) bool { return strings.HasPrefix(o, f.Name) }):
			return true
		}
	}
	switch sub {
	case "show", "diff", "range-diff":
		return !g.hasExact(gitStatOnly...)
	}
	return false
}

// gitRevCount counts the operands before `--` that are not existing paths: the revisions (`git diff A
// B` compares two trees and reads no work-tree file).
func gitRevCount(sub string, g gitArgs, isPath func(string) bool) int {
	n := 0
	for _, o := range g.operands {
		if o.Value == "--" {
			break
		}
		if !strings.HasPrefix(o.Value, "-") && (isPath == nil || !isPath(o.Value)) {
			n++
		}
	}
	if sub == "blame" || sub == "annotate" {
		// blame's last operand is the file.
		n = max(0, n-1)
	}
	return n
}

// gitFormatChecksSignatures reports whether a --format or --pretty asks for signature information,
// which verifies the signature: %G? and friends, or a %(signature) atom.
func gitFormatChecksSignatures(g gitArgs) bool {
	for _, f := range g.flags {
		if (shell.Abbreviates(f.Name, "--format") || shell.Abbreviates(f.Name, "--pretty")) && f.Has &&
			(strings.Contains(f.Value, "%G") || strings.Contains(f.Value, "%(signature")) {
			return true
		}
	}
	return false
}

// gitPrintsCommits are the subcommands that print commits with a pretty format, from --format, --pretty
// or format.pretty, by name through pretty.<name>.
var gitPrintsCommits = map[string]bool{
	"log": true, "show": true, "whatchanged": true, "reflog": true, "stash": true, "stash list": true,
	"stash show": true, "rev-list": true, "shortlog": true, "diff-tree": true,
}

// gitArgs are a subcommand's arguments split the way git's parse-options splits them.
type gitArgs struct {
	flags    []shell.Flag
	operands []shell.Word
}

// parseGit splits args: short options cluster, a letter in values takes the rest of the word or else the
// next word, a letter in optional takes only the rest of the word, digits are a count (-3); a long option
// takes `=value`, or the next word when it is (an abbreviation of) one of longValues; `--` ends options.
// Long options keep the name as typed, abbreviated or not.
func parseGit(args []shell.Word, values, optional string, longValues []string) gitArgs {
	var g gitArgs
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			g.operands = append(g.operands, args[i+1:]...)
			return g
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v, "=")
			if !has && shell.MatchesLong(name[2:], trimDashes(longValues)) && i+1 < len(args) {
				i++
				val, has = args[i].Value, true
			}
			g.flags = append(g.flags, shell.Flag{Name: name, Value: val, Has: has})
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				ch := v[j]
				f := shell.Flag{Name: "-" + string(ch)}
				switch {
				case ch >= '0' && ch <= '9':
					continue
				case strings.IndexByte(values, ch) >= 0:
					f.Value, f.Has = v[j+1:], true
					if j == len(v)-1 && i+1 < len(args) {
						i++
						f.Value = args[i].Value
					}
					j = len(v)
				case strings.IndexByte(optional, ch) >= 0:
					f.Value, f.Has = v[j+1:], j < len(v)-1
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
		if strings.HasPrefix(f.Name, "--") {
			if len(f.Name) > 2 && slices.ContainsFunc(longBad, func(b string) bool { return strings.HasPrefix(b, f.Name) }) {
				return f.Name
			}
			continue
		}
		if strings.Contains(shortBad, f.Name[1:]) {
			return f.Name
		}
	}
	return ""
}

// has reports whether any of names was given; long ones count abbreviated too.
func (g gitArgs) has(names ...string) bool {
	for _, f := range g.flags {
		for _, n := range names {
			if f.Name == n || shell.Abbreviates(f.Name, n) {
				return true
			}
		}
	}
	return false
}

// hasExact reports whether any of names was given spelled out.
func (g gitArgs) hasExact(names ...string) bool {
	for _, f := range g.flags {
		if slices.Contains(names, f.Name) {
			return true
		}
	}
	return false
}

// gitContentSub returns the content subcommand a read subcommand amounts to, and its arguments:
// `git reflog [show]` is `git log -g`, and `git stash show` prints a stash's diff, its files' contents
// with -p (like log, a stat otherwise); `git reflog list` and `git reflog exists` print none.
func gitContentSub(sub string, rest []shell.Word) (string, []shell.Word) {
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

// gitPatchOptions make any content subcommand print what files hold; git takes them abbreviated.
var gitPatchOptions = []string{"--patch", "--unified", "--word-diff", "--word-diff-regex", "--color-words",
	"--patch-with-stat", "--patch-with-raw", "--cc", "--function-context", "--binary", "--full-index"}

// gitStatOnly are the options that leave file contents out, spelled out in full: only the exact spelling
// narrows what is read.
var gitStatOnly = []string{"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary",
	"--dirstat", "--no-patch", "--quiet", "--raw", "--compact-summary", "-s"}
