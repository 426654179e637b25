package permissions

import (
	"fmt"
	"path/filepath"
	"strings"
)

// git's own ways to run a command or to move files Warden does not see: a `-c` key that names a program,
// options and subcommands whose value is a shell command (rebase --exec, bisect run, submodule foreach,
// filter-branch's filters, --upload-pack), remote helpers, settings written for later git commands to
// obey, and subcommands that take the whole work tree into the repository or write it.

// gitQuietKeys are `git -c` and `git config` keys that neither run a program nor change where git reads,
// writes or connects: identities, output, line endings and merge presentation. Any other key may name a
// program (the survey in commands_git_trust.go), so it is unseen. help.autocorrect is not quiet: it runs
// a mistyped subcommand as the one it resembles (`git psuh` as git push).
var gitQuietKeys = []string{
	"user.", "author.", "committer.", "color.", "column.", "advice.", "i18n.", "log.", "status.", "format.pretty",
	"core.quotepath", "core.abbrev", "core.autocrlf", "core.safecrlf", "core.eol", "core.filemode",
	"core.precomposeunicode", "core.whitespace", "diff.noprefix", "diff.mnemonicprefix", "diff.renames",
	"diff.algorithm", "diff.context", "diff.indentheuristic", "diff.colormoved", "grep.linenumber",
	"grep.patterntype", "blame.date", "blame.coloring", "merge.conflictstyle", "init.defaultbranch",
	"pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "rebase.autosquash", "rebase.autostash",
	"commit.verbose", "fetch.prune", "rerere.enabled", "branch.autosetupmerge",
}

// gitQuietKey reports whether a key is one of gitQuietKeys; commit.gpgsign is quiet only when off,
// since on it runs gpg.program.
func gitQuietKey(key, value string) bool {
	key = strings.ToLower(key)
	if key == "commit.gpgsign" || key == "tag.gpgsign" {
		return value == "false" || value == "0" || value == "no" || value == "off"
	}
	for _, k := range gitQuietKeys {
		if key == k || strings.HasSuffix(k, ".") && strings.HasPrefix(key, k) {
			return true
		}
	}
	return false
}

// gitProgramKey reports whether a key's value is a command git runs through the shell: read as bash for
// deny and ask rules.
func gitProgramKey(key string) bool {
	key = strings.ToLower(key)
	for _, suffix := range []string{"pager", "editor", "sshcommand", "external", "textconv", ".command", ".cmd",
		"helper", "program", ".driver", ".clean", ".smudge", ".process", "askpass", "gitproxy", "packobjectshook",
		"uploadpack", "receivepack", "fsmonitor"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return strings.HasPrefix(key, "pager.")
}

// gitCommandOptions are, per subcommand, the options whose value is a shell command git runs.
var gitCommandOptions = map[string][]string{
	"rebase":        {"--exec", "-x"},
	"difftool":      {"--extcmd", "-x"},
	"grep":          {"--open-files-in-pager", "-O"},
	"filter-branch": {"--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"},
	"fetch":         {"--upload-pack"},
	"pull":          {"--upload-pack"},
	"clone":         {"--upload-pack", "-u"},
	"ls-remote":     {"--upload-pack"},
	"fetch-pack":    {"--upload-pack", "--exec"},
	"push":          {"--receive-pack", "--exec"},
	"send-pack":     {"--receive-pack", "--exec"},
	"archive":       {"--exec"},
}

// gitTreeWriters are subcommands that write the work tree from what the repository or a patch holds: an
// Edit or Write rule below the work tree cannot be checked against them.
var gitTreeWriters = map[string]bool{
	"checkout": true, "switch": true, "restore": true, "reset": true, "merge": true, "pull": true, "rebase": true,
	"cherry-pick": true, "revert": true, "stash": true, "apply": true, "am": true, "read-tree": true,
	"checkout-index": true, "sparse-checkout": true, "submodule": true, "worktree": true, "bisect": true,
	"filter-branch": true, "clean": true,
}

// gitPathWriters are the work-tree writers whose models say what they write: some forms write only the
// paths they are given, or nothing at all.
var gitPathWriters = map[string]bool{"checkout": true, "switch": true, "restore": true, "reset": true}

// gitHistoryCopiers are subcommands that copy what the repository holds into a file or a stream.
var gitHistoryCopiers = map[string]bool{
	"archive": true, "bundle": true, "fast-export": true, "format-patch": true, "send-email": true,
}

// gitUnseen marks what a git command does that Warden cannot see. words are the command's words,
// git first. It reports whether it recorded what the command is given, leaving nothing to hand.
func (e *exec) gitUnseen(words []word) bool {
	i := 1
	for ; i < len(words); i++ {
		v := words[i].Value
		key, value := "", ""
		switch {
		case v == "-c" && i+1 < len(words):
			i++
			key, value, _ = strings.Cut(words[i].Value, "=")
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			key, value, _ = strings.Cut(v[2:], "=")
		case v == "--config-env" && i+1 < len(words):
			i++
			key, _, _ = strings.Cut(words[i].Value, "=")
			value = "$" + key
		case strings.HasPrefix(v, "--config-env="):
			key, _, _ = strings.Cut(strings.TrimPrefix(v, "--config-env="), "=")
			value = "$" + key
		case strings.HasPrefix(v, "--exec-path="):
			e.p.unsee(unseenGitProgram, fmt.Sprintf("`git %s` runs git's commands from another directory", v))
		case v == "--git-dir" || v == "--work-tree" || strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree="):
			e.p.unsee(unseenGitProgram, fmt.Sprintf("`git %s` runs git in a repository whose hooks and configuration Warden does not check", v))
			if !strings.Contains(v, "=") {
				i++
			}
		case v == "-C":
			i++
			if dir := e.scope().cwd; dir != "" && !e.c.inside(dir) {
				e.p.unsee(unseenGitProgram, "`git -C` runs git outside the workspace, in a repository whose hooks and configuration Warden does not check")
			}
		case v == "--namespace":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			return e.gitSubUnseen(words[i].Value, words[i+1:])
		}
		if key != "" && !gitQuietKey(key, value) {
			e.gitRuns(fmt.Sprintf("`git -c %s` may make git run a program", key), value, gitProgramKey(key))
		}
	}
	return false
}

// gitRuns marks the part unseen for why; when body is a shell command git runs, it is read as bash for
// deny and ask rules.
func (e *exec) gitRuns(why, body string, shell bool) {
	e.p.unsee(unseenGitProgram, why)
	if shell && body != "" {
		e.untrustedBody(strings.TrimPrefix(body, "!"), why)
	}
}

// gitSubUnseen marks what the subcommand sub, given rest, runs or moves unseen, and reports whether it
// recorded what the subcommand is given.
func (e *exec) gitSubUnseen(sub string, rest []word) bool {
	joined := strings.Join(values(rest), " ")
	for j := 0; j < len(rest); j++ {
		v := rest[j].Value
		for _, o := range gitCommandOptions[sub] {
			switch {
			case v == o && j+1 < len(rest):
				e.gitRuns(fmt.Sprintf("`git %s %s` runs a command", sub, o), rest[j+1].Value, true)
				return false
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				e.gitRuns(fmt.Sprintf("`git %s %s` runs a command", sub, o), strings.TrimPrefix(v, o+"="), true)
				return false
			case !strings.HasPrefix(o, "--") && strings.HasPrefix(v, o) && len(v) > len(o):
				e.gitRuns(fmt.Sprintf("`git %s %s` runs a command", sub, o), v[len(o):], true)
				return false
			}
		}
	}
	switch {
	case sub == "bisect" && len(rest) > 0 && rest[0].Value == "run":
		e.gitRuns("`git bisect run` runs a command at every step", strings.Join(values(rest[1:]), " "), true)
	case sub == "submodule" && strings.HasPrefix(joined, "foreach"):
		body := rest[1:]
		for len(body) > 0 && strings.HasPrefix(body[0].Value, "-") {
			body = body[1:]
		}
		e.gitRuns("`git submodule foreach` runs a command in every submodule", strings.Join(values(body), " "), true)
	case sub == "for-each-repo":
		body := rest
		for len(body) > 0 && strings.HasPrefix(body[0].Value, "--") {
			body = body[1:]
		}
		e.gitRuns("`git for-each-repo` runs a git command in other repositories", "git "+strings.Join(values(body), " "), true)
	case strings.HasPrefix(sub, "remote-"):
		e.p.unsee(unseenGitProgram, fmt.Sprintf("`git %s` is a remote helper, which does what its input says", sub))
	case (sub == "subtree" || sub == "lfs") && len(rest) > 0 && rest[0].Value == "push":
		e.p.unsee(unseenGitProgram, fmt.Sprintf("`git %s push` pushes through a program of its own", sub))
	case sub == "svn" || sub == "p4":
		e.p.unsee(unseenGitProgram, fmt.Sprintf("`git %s` talks to another version control system", sub))
	case sub == "clone" || sub == "init":
		for _, w := range rest {
			if strings.HasPrefix(w.Value, "--template") {
				e.p.unsee(unseenLaterCode, fmt.Sprintf("`git %s --template` takes hooks from a directory", sub))
			}
		}
	case sub == "config":
		e.gitConfigUnseen(rest)
	}
	return e.gitTreeUnseen(sub, rest)
}

// gitConfigUnseen: `git config` that writes a key which may name a program keeps code for later git
// commands; `git config --edit` runs an editor.
func (e *exec) gitConfigUnseen(rest []word) {
	for j, w := range rest {
		v := w.Value
		if v == "-e" || v == "--edit" || v == "edit" {
			e.p.unsee(unseenLaterCode, "`git config --edit` runs an editor")
			return
		}
		if strings.HasPrefix(v, "-") || !strings.Contains(v, ".") {
			continue
		}
		value := ""
		if j+1 < len(rest) {
			value = rest[j+1].Value
		}
		if !gitQuietKey(v, value) {
			e.p.unsee(unseenLaterCode, fmt.Sprintf("`git config %s` sets what later git commands may run", v))
			if gitProgramKey(v) && value != "" {
				e.untrustedBody(strings.TrimPrefix(value, "!"), "`git config` keeps a command for later git commands")
			}
		}
		return
	}
}

// gitTreeUnseen records what subcommands take into the repository (add, stash -u) or copy out of it
// (archive, bundle, fast-export), and hands the work tree to those that write it (checkout, merge,
// apply). It reports whether it recorded what the subcommand is given. commit -a takes only what git
// already tracks, whose paths the history reads already know.
func (e *exec) gitTreeUnseen(sub string, rest []word) bool {
	sc := e.scope()
	if sc.cwd == "" {
		return false
	}
	top := sc.cwd
	if r, ok := e.c.findRepo(top); ok && r.Top != "" {
		top = r.Top
	}
	// checkout, switch, restore and reset write the work tree only in some forms, which their models
	// (model_git.go) tell apart with their options resolved.
	if gitTreeWriters[sub] && !gitPathWriters[sub] {
		e.p.handedWrites = append(e.p.handedWrites, top)
	}
	switch sub {
	case "add", "stage":
		// Pathspecs are relative to where git runs; without -f git leaves out what it ignores, and
		// refuses an ignored file named outright.
		force := hasWord(rest, "-f", "--force") || hasShortOpt(rest, 'f')
		var specs []string
		for _, w := range gitOperands(rest) {
			if !w.Static {
				return false
			}
			if strings.ContainsAny(w.Value, "*?[:") {
				specs = append(specs, top)
				continue
			}
			if path := e.c.abs(w.Value, sc); filepath.IsAbs(path) {
				specs = append(specs, path)
			}
		}
		if len(specs) == 0 && (hasWord(rest, "-A", "--all", "-u", "--update", "--no-ignore-removal", "--pathspec-from-file") ||
			hasShortOpt(rest, 'A') || hasShortOpt(rest, 'u')) {
			specs = append(specs, top)
		}
		if force {
			e.p.handedReads = append(e.p.handedReads, specs...)
		} else {
			e.p.gitTakes = append(e.p.gitTakes, specs...)
		}
		return true
	case "stash":
		switch {
		case hasWord(rest, "-a", "--all") || hasShortOpt(rest, 'a'):
			e.p.handedReads = append(e.p.handedReads, top)
		case hasWord(rest, "-u", "--include-untracked") || hasShortOpt(rest, 'u'):
			e.p.gitTakes = append(e.p.gitTakes, top)
		}
	default:
		if gitHistoryCopiers[sub] {
			e.p.handedReads = append(e.p.handedReads, top)
		}
	}
	return false
}

// gitOperands are the words of a subcommand that are not options: all of them after `--`.
func gitOperands(rest []word) []word {
	var out []word
	for i, w := range rest {
		if w.Value == "--" {
			return append(out, rest[i+1:]...)
		}
		if !strings.HasPrefix(w.Value, "-") {
			out = append(out, w)
		}
	}
	return out
}

// hasWord reports whether one of words is one of names, or starts with one of the long ones and `=`, or
// abbreviates a long one, as GNU getopt and git's parse-options accept: seeing an option here only ever
// makes the answer stricter.
func hasWord(words []word, names ...string) bool {
	for _, w := range words {
		typed, _, _ := strings.Cut(w.Value, "=")
		for _, n := range names {
			if w.Value == n || strings.HasPrefix(n, "--") && (typed == n || abbreviates(typed, n)) {
				return true
			}
		}
	}
	return false
}
