package programs

// What git prints of files' contents: `git show HEAD:path`, `git log -p -- dir`, `git grep x` read the files
// they name, or the whole tracked tree when they name none, and are judged as reads of those files.

import (
	"bytes"
	"errors"
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
	"github.com/warden-cli/warden/safefile"
)

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

// gitContentReads records what a content subcommand reads, so that deny rules and secret names apply:
// files named by options, `REV:path` (relative to the repository's top, or to the directory with ./ or
// ../, as git reads it), `-L range:path`, and paths and pathspecs, which read everything below them; a
// pathspec with a wildcard or magic reads the whole directory.
func gitContentReads(e *shell.Exec, sub string, rest []shell.Word) {
	sc := e.Scope()
	repo, _ := workTree(e.S, sc.Cwd)
	root := repo.Top
	dash := slices.IndexFunc(rest, func(w shell.Word) bool { return w.Value == "--" })
	g := gitargs.Parse(rest, gitargs.ShortValues[sub], "", gitargs.LongValues)
	pathspecs := 0
	if dash >= 0 {
		pathspecs = len(rest) - dash - 1
	}
	for _, f := range g.Flags {
		switch {
		case !f.Has || f.Value == "" || f.Value == "-" || slices.Contains(gitGlobOptions, f.Name):
		case f.Name == "-L":
			if i := strings.LastIndexByte(f.Value, ':'); i >= 0 {
				e.S.Read(e.P, f.Value[i+1:], sc)
			}
		case len(f.Name) == 2 && strings.Contains(gitFileShort[sub], f.Name[1:]),
			slices.ContainsFunc(gitFileLong, func(l string) bool { return shell.Abbreviates(f.Name, l) }):
			e.S.Read(e.P, f.Value, sc)
		}
	}
	ops := g.Operands
	if sub == "grep" && len(ops) > pathspecs && !slices.ContainsFunc(g.Flags, func(f shell.Flag) bool {
		return !strings.HasPrefix(f.Name, "--") && (f.Name == "-e" || f.Name == "-f") ||
			shell.Abbreviates(f.Name, "--regexp") || shell.Abbreviates(f.Name, "--file")
	}) {
		ops = ops[1:] // the pattern
	}
	paths, revs := 0, 0
	var hexRevs []string
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
			e.TreeRead(gitOr(root, "."), treewalk.Tree{Hidden: true})
		case strings.HasPrefix(v, ":/"):
			gitPath(e, filepath.Join(gitOr(root, "."), v[2:]), repo, sc)
		case !after && strings.Contains(v, ":"):
			gitRevPath(e, v, root, sc)
		case strings.ContainsAny(v, "*?[\\"):
			// A git wildcard matches across slashes: `*.go` is any path ending in .go, the same as a
			// base name ending in it; any other pattern may match a directory's name.
			t := treewalk.Tree{Hidden: true}
			if rest, ok := strings.CutPrefix(v, "*"); ok && rest != "" && !strings.ContainsAny(rest, "*?[\\/") {
				t.Include = []string{v}
			}
			e.TreeRead(".", t)
		case after || shell.Exists(e.S.Abs(v, sc)):
			gitPath(e, v, repo, sc)
		default:
			paths--
			revs++
			if id := hexRev(v); id != "" {
				hexRevs = append(hexRevs, id)
			}
		}
	}
	if len(hexRevs) > 0 && root != "" {
		// An object named by its id may be one no ref reaches (a blob once added, then reset), whose
		// content nothing else tells.
		if reason := gitUnplaced(e, repo, hexRevs); reason != "" {
			e.P.NotRO(reason)
			return
		}
	}
	// With no path, what is shown may be any file the repository holds: the tracked files (from the
	// directory, for grep) and, unless only the index and the work tree are compared, every file its
	// history ever held, read from the repository itself.
	prints := gitPrintsContent(sub, g, revs) || sub == "stash show" && !g.HasExact(gitargs.StatOnly...) && stashShowsPatch(e, root)
	if paths > 0 || !prints || root == "" {
		return
	}
	history := revs > 0 || !(sub == "diff-files" || (sub == "diff" || sub == "grep") && !g.Has("--cached", "--staged"))
	files, reason := gitRepoFiles(e, repo, history)
	if reason != "" {
		e.P.NotRO(reason)
		return
	}
	dir := root
	if sub == "grep" {
		dir = "."
	}
	e.TreeRead(dir, treewalk.Tree{Hidden: true, Repo: root, Index: true, Tracked: files})
}

// hexRev returns the object id a revision names directly (`3f2a1b`, `3f2a1b~2`, `3f2a1b^{tree}`), or "".
func hexRev(v string) string {
	end := strings.IndexAny(v, "~^@:")
	if end < 0 {
		end = len(v)
	}
	id := v[:end]
	if len(id) < 4 || len(id) > 40 || strings.Trim(strings.ToLower(id), "0123456789abcdef") != "" {
		return ""
	}
	return id
}

// gitUnplaced returns why object ids named on the command line cannot be placed in what the repository
// r holds, or "": an id that is a ref's name, or that the history or the index reaches, is placed.
func gitUnplaced(e *shell.Exec, r gitrepo.Repo, ids []string) string {
	h, err := e.S.Git().ReadHistory(r, e.S.LookupEnv, shell.HistoryBudget)
	if err != nil {
		return fmt.Sprintf("names objects of a history Warden cannot read (%v)", err)
	}
	idx, _ := e.S.Git().ReadIndex(r, nil)
	for _, id := range ids {
		if h.HasObject(id) || idx.HasObject(id) || gitRefNamed(r, id) {
			continue
		}
		return fmt.Sprintf("names the object `%s`, which no ref, reflog or index entry reaches: what it holds is unknown", id)
	}
	return ""
}

// gitRefNamed reports whether a branch, tag or remote-tracking ref of the repository has the name.
func gitRefNamed(r gitrepo.Repo, name string) bool {
	for _, d := range []string{"refs/heads", "refs/tags", "refs/remotes"} {
		if shell.Exists(filepath.Join(r.CommonDir, d, name)) {
			return true
		}
	}
	packed, _, _ := supplied.ReadSmall(filepath.Join(r.CommonDir, "packed-refs"))
	return strings.Contains(packed, "/"+name+"\n")
}

// gitRepoFiles lists the files a content read of the repository r may print: those the index tracks
// and, with history, every file any commit reachable from its refs and reflogs held. reason says why
// they cannot be listed in full.
func gitRepoFiles(e *shell.Exec, r gitrepo.Repo, history bool) ([]string, string) {
	idx, ok := e.S.Git().ReadIndex(r, nil)
	if !ok {
		return nil, "prints files of a repository whose index Warden cannot list in full"
	}
	if len(idx.Gitlinks) > 0 || shell.Exists(filepath.Join(r.Top, ".gitmodules")) {
		return nil, "prints files of a repository with submodules, whose contents Warden does not follow"
	}
	if !history {
		return idx.Paths, ""
	}
	h, err := e.S.Git().ReadHistory(r, e.S.LookupEnv, shell.HistoryBudget)
	if errors.Is(err, gitrepo.ErrHistoryNotYet) {
		return nil, "prints files from a history Warden is still reading (it goes on in the background)"
	}
	if err != nil {
		return nil, fmt.Sprintf("prints files from a history Warden cannot read (%v)", err)
	}
	return append(append([]string(nil), idx.Paths...), h.Paths...), ""
}

// stashShowsPatch reports whether git's configuration may make `git stash show` print a patch
// (stash.showPatch): any mention of it in the repository's or the user's configuration counts.
func stashShowsPatch(e *shell.Exec, root string) bool {
	files := []string{filepath.Join(root, ".git", "config"), "/etc/gitconfig"}
	if h := e.S.Ctx.Home; h != "" {
		files = append(files, filepath.Join(h, ".gitconfig"), filepath.Join(h, ".config", "git", "config"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	for _, f := range files {
		if b, err := safefile.ReadRegular(f); err == nil && (bytes.Contains(bytes.ToLower(b), []byte("showpatch")) || bytes.Contains(bytes.ToLower(b), []byte("include"))) {
			return true
		}
	}
	return false
}

// gitPrintsContent reports whether a content subcommand with no path prints what files hold: show, diff,
// grep, range-diff and cat-file do unless told to print only names or statistics; log, whatchanged and
// diff-tree only with a patch option.
func gitPrintsContent(sub string, g gitargs.Args, revs int) bool {
	for _, f := range g.Flags {
		switch {
		case f.Name == "-p" && sub != "cat-file", f.Name == "-u", f.Name == "-U", f.Name == "-W", f.Name == "-c", f.Name == "-L":
			return true
		case len(f.Name) > 2 && strings.HasPrefix(f.Name, "--") &&
			slices.ContainsFunc(gitargs.PatchOptions, func(o string) bool { return strings.HasPrefix(o, f.Name) }):
			return true
		}
	}
	switch sub {
	case "cat-file":
		return revs > 0 && !g.HasExact("-t", "-s", "-e")
	case "show", "diff", "grep", "range-diff":
		return !g.HasExact(gitargs.StatOnly...)
	}
	return false
}

// gitRevPath records the read of `REV:path` (or `:path`, `:N:path` in the index): the path is relative to
// the repository's top, or with ./ or ../ to the directory.
func gitRevPath(e *shell.Exec, v, root string, sc *shell.Scope) {
	for _, path := range revPaths(v) {
		if path == "" {
			continue
		}
		if path != "." && path != ".." && !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") {
			if root == "" {
				e.P.NotRO(fmt.Sprintf("`%s` names a path in a repository Warden cannot find", v))
				continue
			}
			path = filepath.Join(root, path)
		}
		e.S.Read(e.P, path, sc)
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
func gitSubmodules(args []shell.Word) string {
	for _, w := range args {
		v := w.Value
		if v == "--" {
			break
		}
		name, val, _ := strings.Cut(v, "=")
		if shell.Abbreviates(name, "--recurse-submodules") || shell.Abbreviates(name, "--no-recurse-submodules") && len(name) > 5 ||
			shell.Abbreviates(name, "--submodule") && len(name) > 3 && val == "diff" {
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
func gitStdin(args []shell.Word) string {
	for _, w := range args {
		v := w.Value
		if v == "--" {
			break
		}
		name, _, _ := strings.Cut(v, "=")
		if slices.ContainsFunc(gitStdinOptions, func(o string) bool { return shell.Abbreviates(name, o) }) {
			return fmt.Sprintf("`%s` reads object names or paths from its input, or every object", v)
		}
	}
	return ""
}

// gitPath records the read of a path git shows: a directory is read below it. In a repository whose
// files can be listed (the index and the history), a directory's files are those it holds below the
// directory, not what happens to be on disk there (an untracked .env is never printed).
func gitPath(e *shell.Exec, path string, repo gitrepo.Repo, sc *shell.Scope) {
	if fi, err := os.Stat(e.S.Abs(path, sc)); err == nil && fi.IsDir() {
		if repo.Top != "" {
			if files, reason := gitRepoFiles(e, repo, true); reason == "" {
				e.TreeRead(path, treewalk.Tree{Hidden: true, Repo: repo.Top, Index: true, Tracked: files})
				return
			}
		}
		e.TreeRead(path, treewalk.Tree{Hidden: true})
		return
	}
	e.S.Read(e.P, path, sc)
}

func gitOr(root, def string) string {
	if root == "" {
		return def
	}
	return root
}

// workTree returns the repository whose work tree dir is in, when it has one.
func workTree(c *shell.State, dir string) (gitrepo.Repo, bool) {
	r, ok := c.FindRepo(dir)
	if !ok || r.Top == "" {
		return gitrepo.Repo{}, false
	}
	return r, true
}
