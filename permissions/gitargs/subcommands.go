package gitargs

import (
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// Builtins are the subcommands git runs itself, before any alias of the same name (git.c's list).
var Builtins = map[string]bool{}

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
		Builtins[n] = true
	}
}

// PrintsCommits are the subcommands that print commits with a pretty format, from --format, --pretty
// or format.pretty, by name through pretty.<name>.
var PrintsCommits = map[string]bool{
	"log": true, "show": true, "whatchanged": true, "reflog": true, "stash": true, "stash list": true,
	"stash show": true, "rev-list": true, "shortlog": true, "diff-tree": true,
}

// ContentSub returns the content subcommand a read subcommand amounts to, and its arguments:
// `git reflog [show]` is `git log -g`, and `git stash show` prints a stash's diff, its files' contents
// with -p (like log, a stat otherwise); `git reflog list` and `git reflog exists` print none.
func ContentSub(sub string, rest []shell.Word) (string, []shell.Word) {
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

// ShortValues are, per content subcommand, the short options that take the next word as their value
// (log -n 5, log -S string, grep -e pattern). A flag wrongly taken to have one would hide a path, so only
// those that do are listed.
var ShortValues = map[string]string{
	"log": "nSGLO", "show": "nSGLO", "whatchanged": "nSGLO", "diff": "SGO", "diff-tree": "SGO",
	"diff-files": "SGO", "diff-index": "SGO", "blame": "LS", "annotate": "LS", "grep": "efABCm",
	"stash show": "SGO",
}

// LongValues are long options of the content subcommands that take the next word as their value.
var LongValues = []string{"--grep", "--author", "--committer", "--format", "--pretty", "--since", "--until",
	"--after", "--before", "--max-count", "--skip", "--date", "--encoding", "--abbrev", "--src-prefix",
	"--dst-prefix", "--line-prefix", "--word-diff-regex", "--diff-filter", "--regexp", "--max-depth",
	"--threads", "--context", "--after-context", "--before-context", "--contents", "--ignore-revs-file",
	"--orderfile", "--exclude-from", "--file", "--pathspec-from-file", "--batch-size"}

// PatchOptions make any content subcommand print what files hold; git takes them abbreviated.
var PatchOptions = []string{"--patch", "--unified", "--word-diff", "--word-diff-regex", "--color-words",
	"--patch-with-stat", "--patch-with-raw", "--cc", "--function-context", "--binary", "--full-index"}

// StatOnly are the options that leave file contents out, spelled out in full: only the exact spelling
// narrows what is read.
var StatOnly = []string{"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary",
	"--dirstat", "--no-patch", "--quiet", "--raw", "--compact-summary", "-s"}
