package supplied

// What git's configuration makes git run. A read-only subcommand is only read-only when no file git
// reads for the repository it really uses names a program that subcommand runs: `git status` in a
// repository whose .git/config sets core.fsmonitor runs that program. The chain is read with gitrepo,
// in Go, never by running git.
//
// The survey, key by key (git's Documentation/config and the source, at v2.53):
//   - core.fsmonitor: a hook path is run, and `true` starts git's own daemon (which keeps running), by
//     anything that loads the index: every subcommand but those that never load the index (gitargs.FacetsOf: log, show, branch...).
//   - diff.external, GIT_EXTERNAL_DIFF and diff.<driver>.command: run by porcelain `git diff` when it
//     prints a patch (allow_external is set only there; elsewhere --ext-diff, which asks anyway).
//   - diff.<driver>.textconv: run wherever patches are made or searched with textconv allowed: diff,
//     show, log -p/-S/-G/-L and their kin, blame and annotate, status -v, and --textconv anywhere.
//   - filter.<driver>.clean and .process: run when git reads a work-tree file to compare it (status,
//     diff against the work tree, diff-files, diff-index without --cached, blame of the work-tree file,
//     describe --dirty, ls-files -m/-d); .smudge and .process by cat-file --filters.
//   - gpg.program, gpg.<format>.program: run when signatures are checked (--show-signature,
//     log.showSignature, %G formats, %(signature) atoms), also when format.pretty or a pretty.<name>
//     holds such a format, since plain `git log` and `--format=NAME` use them.
//   - hooks: post-index-change (in core.hooksPath or hooks/), and hook.<name>.command, run when the
//     index is written, which status, diff and describe --dirty do to refresh it unless optional locks
//     are off.
//   - core.worktree pointing elsewhere: the work tree read is another directory (`git diff` would print
//     the files there).
//   - a partial clone (extensions.partialClone, remote.<name>.promisor): reading an object it lacks
//     fetches it, over the network, through the remote's transport (core.sshCommand,
//     remote.<name>.uploadpack, url.<base>.insteadOf, credential helpers).
//   - submodules: status, diff and `submodule status|summary` run git inside each populated
//     submodule, where the submodule's own configuration applies; checked the same way.
//   - files a key names that git reads: blame.ignoreRevsFile, diff.orderFile, mailmap.file,
//     core.excludesFile, core.attributesFile, gpg.ssh.allowedSignersFile: a secret there is a read.
//   - Inert for the read-only subcommands: core.pager and pager.<cmd> (commands' output is not a
//     terminal and GIT_PAGER is cat), core.editor and sequence.editor, alias.* (builtins win), core.sshCommand,
//     core.gitProxy, core.askPass, credential.*, remote.*, url.* (network, which these subcommands do not
//     reach outside a partial clone), help.autoCorrect (only unknown subcommands), merge.*, difftool.*,
//     mergetool.*, interactive.diffFilter, gc.*, maintenance.*, uploadpack.*, receive.*, web.browser,
//     browser.*, man.*, instaweb.*, guitool.*, trailer.*, submodule.<name>.update.
//   - A file git would refuse (it does not parse, includes nest too deep): git stops before running
//     anything, but Warden's reading could differ from git's, so the command asks.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
)

// configFormatChecksSignatures reports whether the configuration gives a format that verifies
// signatures: format.pretty, the default of log and show, or a pretty.<name> a --format may name. Any
// such format counts, named or not, since a name may also come from an alias of another.
func configFormatChecksSignatures(cfg gitrepo.Config) bool {
	for _, en := range cfg.Entries {
		if (en.Key == "format.pretty" || en.Section() == "pretty") &&
			(strings.Contains(en.Value, "%G") || strings.Contains(en.Value, "%(signature")) {
			return true
		}
	}
	return false
}

// maxSubmoduleChecks bounds how many submodules (at every depth) one git command's check looks into.
const maxSubmoduleChecks = 64

// GitRuns returns why the configuration of the repository git uses for run in dir makes it run a
// program (or read a secret, or leave the work tree), or "".
func GitRuns(e *shell.Exec, run gitargs.Facets, dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return Supplies(e, fmt.Sprintf("`%s` runs in a directory Warden lost track of, whose repository's configuration it cannot read", run.Name), "")
	}
	env := e.LookupEnv
	r, ok := e.S.FindRepo(dir)
	if len(e.Env) > 0 {
		// GIT_DIR or GIT_WORK_TREE in front of the command may name another repository.
		r, ok = e.S.Git().Find(dir, env, nil)
	}
	if !ok {
		// Outside any repository git reads the system and global files only.
		r = gitrepo.Repo{}
	}
	budget := maxSubmoduleChecks
	return gitTrustRepo(e, run, r, env, &budget, 0)
}

func gitTrustRepo(e *shell.Exec, run gitargs.Facets, r gitrepo.Repo, env gitrepo.Env, budget *int, depth int) string {
	cfg := e.S.Git().Load(r, gitrepo.LoadOptions{Env: env, Home: e.S.Ctx.Home})
	// What the repository's own files (its git directory, its work tree) set is what it supplies.
	supplied := func(reason, file string) string {
		if file == "" && reason != "" {
			return reason // the environment, which is the person's
		}
		return Supplies(e, reason, file, r.GitDir, r.CommonDir, r.Top)
	}
	if cfg.Problem != "" {
		return Supplies(e, fmt.Sprintf("git's configuration cannot be read as git reads it (%s), so what `%s` runs is unknown", e.S.Shown(cfg.Problem), run.Name), "")
	}
	if ext, ok := env("GIT_EXTERNAL_DIFF"); ok && ext != "" && run.External {
		return fmt.Sprintf("GIT_EXTERNAL_DIFF in the environment runs a program on `%s`", run.Name)
	}
	showSignature := false
	for _, en := range cfg.Entries {
		if en.Key == "log.showsignature" {
			showSignature, _ = en.Bool()
		}
	}
	if showSignature && (run.Sub == "log" || run.Sub == "show" || run.Sub == "whatchanged" || run.Sub == "reflog") {
		run.Signatures = true
	}
	if gitargs.PrintsCommits[run.Sub] && configFormatChecksSignatures(cfg) {
		run.Signatures = true
	}
	var partial gitrepo.Entry
	for _, en := range cfg.Entries {
		if reason := gitEntry(e, run, r, en); reason != "" {
			return supplied(reason, en.File)
		}
		if en.Key == "extensions.partialclone" || en.Section() == "remote" && en.Name() == "promisor" && truthy(en) {
			partial = en
		}
	}
	if partial.Key != "" && run.Objects {
		return supplied(fmt.Sprintf("the repository is a partial clone (`%s`): `%s` may fetch objects it lacks over the network, running the remote's transport", partial.Key, run.Name), partial.File)
	}
	if r.GitDir != "" && run.WritesIndex {
		if v, ok := env("GIT_OPTIONAL_LOCKS"); !ok || v != "0" {
			if hook := gitHook(r, cfg, "post-index-change"); hook != "" {
				return supplied(fmt.Sprintf("`%s` is a hook git runs when `%s` refreshes the index", e.S.Shown(hook), run.Name), hook)
			}
		}
	}
	if r.Top != "" && run.Submodules && depth < 3 {
		if idx, ok := e.S.Git().ReadIndex(r, nil); ok {
			for _, sm := range idx.Gitlinks {
				sr, ok := e.S.Git().AtTop(filepath.Join(r.Top, sm), env, nil)
				if !ok {
					continue // not populated: git does not go in
				}
				if *budget--; *budget < 0 {
					return Supplies(e, fmt.Sprintf("`%s` goes into more submodules than Warden checks", run.Name), "")
				}
				inner := gitargs.FacetsOf(run.Name, "status", nil, false, nil)
				if run.InSubmodule != "" {
					inner = gitargs.Facets{Name: run.Name, Sub: run.InSubmodule}
				}
				if reason := gitTrustRepo(e, inner, sr, env, budget, depth+1); reason != "" {
					wrapped := fmt.Sprintf("in the submodule `%s`: %s", sm, reason)
					if e.P.Supplied == reason {
						e.P.Supplied = wrapped
					}
					return wrapped
				}
			}
		}
	}
	return ""
}

// gitEntry returns why one configuration variable makes run run a program, read a secret or leave the
// work tree, or "".
func gitEntry(e *shell.Exec, run gitargs.Facets, r gitrepo.Repo, en gitrepo.Entry) string {
	where := func() string { return EntryOrigin(e.S, en) }
	runs := func(when string) string {
		return fmt.Sprintf("%s sets `%s`, which runs a program %s", where(), en.Key, when)
	}
	on := "on `" + run.Name + "`"
	section, name := en.Section(), en.Name()
	switch {
	case en.Key == "core.fsmonitor" && run.Index:
		if b, ok := en.Bool(); ok {
			if b {
				return fmt.Sprintf("%s sets `core.fsmonitor`, which starts git's file-system monitor daemon on `%s`, and it keeps running", where(), run.Name)
			}
			return ""
		}
		if en.Value != "" {
			return runs(on)
		}
	case en.Key == "diff.external" && en.Value != "" && run.External:
		return runs(on)
	case section == "diff" && en.Subsection() != "" && name == "command" && en.Value != "" && run.External:
		return runs(on)
	case section == "diff" && en.Subsection() != "" && name == "textconv" && en.Value != "" && run.Textconv:
		return runs(on)
	case section == "filter" && en.Subsection() != "" && en.Value != "" &&
		((name == "clean" || name == "process") && run.Worktree || (name == "smudge" || name == "process") && run.Smudge):
		return runs(on)
	case en.Key == "gpg.program" || section == "gpg" && en.Subsection() != "" && name == "program":
		if run.Signatures && en.Value != "" {
			return runs(fmt.Sprintf("when `%s` checks signatures", run.Name))
		}
	case section == "hook" && en.Subsection() != "" && name == "command" && run.WritesIndex:
		return fmt.Sprintf("%s sets `%s`, a hook git may run when `%s` refreshes the index", where(), en.Key, run.Name)
	case en.Key == "core.worktree" && r.Top != "" && en.Value != "":
		// A relative value is relative to the git directory.
		wt := en.Value
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(r.GitDir, wt)
		}
		if shell.ResolvePath("/", wt, e.S.Ctx.Home) != shell.ResolvePath("/", r.Top, e.S.Ctx.Home) {
			return fmt.Sprintf("%s sets `core.worktree` to `%s`, so `%s` takes another directory for the work tree", where(), en.Value, run.Name)
		}
	case en.Key == "blame.ignorerevsfile" || en.Key == "diff.orderfile" || en.Key == "mailmap.file" ||
		en.Key == "core.excludesfile" || en.Key == "core.attributesfile" || en.Key == "gpg.ssh.allowedsignersfile":
		if p := configPath(e, en); e.S.IsSecret(p) {
			return fmt.Sprintf("%s sets `%s` to `%s`, which may hold secrets and `%s` reads", where(), en.Key, en.Value, run.Name)
		}
	}
	return ""
}

// configPath is the file a configuration value names: `~` is home, and a relative path is relative to
// the work tree's top for most keys, which this takes to be the file's own repository.
func configPath(e *shell.Exec, en gitrepo.Entry) string {
	v := en.Value
	if v == "~" || strings.HasPrefix(v, "~/") {
		return shell.ResolvePath("/", v, e.S.Ctx.Home)
	}
	if filepath.IsAbs(v) || en.File == "" {
		return v
	}
	return filepath.Join(filepath.Dir(en.File), v)
}

func truthy(en gitrepo.Entry) bool {
	b, ok := en.Bool()
	return ok && b
}

// gitHook returns the path of the named hook if git would run it: an executable file in core.hooksPath
// (relative to the work tree's top) or the common directory's hooks.
func gitHook(r gitrepo.Repo, cfg gitrepo.Config, name string) string {
	dir := filepath.Join(r.CommonDir, "hooks")
	if en, ok := cfg.Last("core.hookspath"); ok && en.Value != "" {
		dir = en.Value
		if !filepath.IsAbs(dir) {
			base := r.Top
			if base == "" {
				base = r.GitDir
			}
			dir = filepath.Join(base, dir)
		}
	}
	p := filepath.Join(dir, name)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

// EntryOrigin names where a variable was set, for a reason: the file as the person would find it, or
// the environment.
func EntryOrigin(c *shell.State, en gitrepo.Entry) string {
	if en.File == "" && en.Env == "GIT_CONFIG_PARAMETERS" {
		return "`git -c` (GIT_CONFIG_PARAMETERS)"
	}
	if en.File == "" {
		return "the environment (GIT_CONFIG_COUNT)"
	}
	return fmt.Sprintf("`%s`", c.Shown(en.File))
}
