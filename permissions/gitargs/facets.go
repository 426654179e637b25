package gitargs

import (
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// Facets is what one git invocation does, as far as configured programs are concerned.
type Facets struct {
	// Name is how reasons name the invocation (`git status`); Sub is its subcommand.
	Name string
	Sub  string
	// Textconv: textconv drivers apply; External: diff.external and diff drivers' commands run.
	Textconv, External bool
	// Worktree: work-tree files are cleaned to compare them; Smudge: objects are smudged.
	Worktree, Smudge bool
	// WritesIndex: the index may be written, running post-index-change.
	WritesIndex bool
	// Signatures: signatures are checked.
	Signatures bool
	// Objects: objects' contents are read (a partial clone fetches missing ones).
	Objects bool
	// Submodules: git runs itself in each populated submodule, as `git status`, or, for `git submodule
	// status|summary`, as InSubmodule, a command that does not load the index.
	Submodules  bool
	InSubmodule string
	// Index: the index is loaded, which runs core.fsmonitor.
	Index bool
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

// FacetsOf says what an invocation of a read-only subcommand does. rest are the words after the
// subcommand; noLocks is set by --no-optional-locks; isPath reports whether an operand names an
// existing file (relative to where git runs), which makes it a path rather than a revision.
func FacetsOf(name, sub string, rest []shell.Word, noLocks bool, isPath func(string) bool) Facets {
	csub, crest := ContentSub(sub, rest)
	g := Parse(crest, ShortValues[csub], "", LongValues)
	run := Facets{Name: name, Sub: sub}
	patch := gitPrintsPatch(csub, g)
	pickaxe := g.Has("-S", "-G", "-L", "--pickaxe-regex", "--pickaxe-all")
	textconvFlag := g.Has("--textconv")
	cached := g.Has("--cached", "--staged")
	revs := gitRevCount(csub, g, isPath)
	switch csub {
	case "diff":
		run.Textconv = patch || pickaxe
		run.External = patch
		run.Worktree = !cached && revs < 2 && !g.Has("--no-index")
		run.WritesIndex = run.Worktree
		run.Submodules = run.Worktree
		run.Objects = true
	case "show", "log", "whatchanged", "stash show", "range-diff":
		run.Textconv = csub != "stash show" && csub != "range-diff" && (patch || pickaxe) || textconvFlag
		run.Objects = true
	case "diff-files":
		run.Worktree = true
		run.Textconv = textconvFlag
		run.Objects = true
	case "diff-index":
		run.Worktree = !cached
		run.Textconv = textconvFlag
		run.Objects = true
	case "diff-tree", "grep", "cat-file", "ls-tree":
		run.Textconv = textconvFlag || csub == "cat-file" && g.Has("--filters")
		run.Smudge = csub == "cat-file" && g.Has("--filters")
		run.Objects = csub != "ls-tree"
	case "blame", "annotate":
		run.Textconv = true
		run.Worktree = revs == 0
		run.Objects = true
	case "status":
		run.Textconv = g.Has("-v", "--verbose")
		run.Worktree = true
		run.WritesIndex = true
		run.Submodules = true
	case "describe":
		run.Worktree = g.Has("--dirty", "--broken")
		run.WritesIndex = run.Worktree
		run.Submodules = run.Worktree
	case "ls-files":
		run.Worktree = g.Has("-m", "--modified", "-d", "--deleted", "-t", "-k", "--killed")
	case "submodule":
		run.Submodules = true
		run.InSubmodule = "rev-parse"
	}
	if PrintsCommits[csub] || csub == "for-each-ref" || csub == "branch" || csub == "tag" {
		run.Signatures = g.Has("--show-signature") || gitFormatChecksSignatures(g)
	}
	run.Index = !gitNoIndex[sub] || run.Worktree || run.Submodules
	for _, w := range rest {
		if strings.HasPrefix(w.Value, ":") && !strings.HasPrefix(w.Value, ":(") && !strings.HasPrefix(w.Value, ":/") {
			run.Index = true
		}
	}
	if noLocks {
		run.WritesIndex = false
	}
	return run
}

// gitPrintsPatch reports whether a subcommand prints patches: show, diff and range-diff do unless told
// to print only names or statistics; log and its kin only with a patch option.
func gitPrintsPatch(sub string, g Args) bool {
	for _, f := range g.Flags {
		switch {
		case f.Name == "-p", f.Name == "-u", f.Name == "-U", f.Name == "-W", f.Name == "-c", f.Name == "-L":
			return true
		case len(f.Name) > 2 && strings.HasPrefix(f.Name, "--") &&
			slices.ContainsFunc(PatchOptions, func(o string) bool { return strings.HasPrefix(o, f.Name) }):
			return true
		}
	}
	switch sub {
	case "show", "diff", "range-diff":
		return !g.HasExact(StatOnly...)
	}
	return false
}

// gitRevCount counts the operands before `--` that are not existing paths: the revisions (`git diff A
// B` compares two trees and reads no work-tree file).
func gitRevCount(sub string, g Args, isPath func(string) bool) int {
	n := 0
	for _, o := range g.Operands {
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
func gitFormatChecksSignatures(g Args) bool {
	for _, f := range g.Flags {
		if (shell.Abbreviates(f.Name, "--format") || shell.Abbreviates(f.Name, "--pretty")) && f.Has &&
			(strings.Contains(f.Value, "%G") || strings.Contains(f.Value, "%(signature")) {
			return true
		}
	}
	return false
}
