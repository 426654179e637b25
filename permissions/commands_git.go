package permissions

import (
	"fmt"
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
var gitReadSub = map[string]func(args []word) string{
	"status": gitOpts(nil), "log": gitOpts(nil), "show": gitOpts(nil), "diff": gitOpts(nil),
	"whatchanged": gitOpts(nil), "shortlog": gitOpts(nil), "blame": gitOpts(nil), "annotate": gitOpts(nil),
	"describe": gitOpts(nil), "rev-parse": gitOpts(nil), "rev-list": gitOpts(nil), "ls-files": gitOpts(nil),
	"ls-tree": gitOpts(nil), "cat-file": gitOpts(nil), "show-ref": gitOpts(nil), "for-each-ref": gitOpts(nil),
	"merge-base": gitOpts(nil), "name-rev": gitOpts(nil), "count-objects": gitOpts(nil), "diff-tree": gitOpts(nil),
	"diff-files": gitOpts(nil), "diff-index": gitOpts(nil), "range-diff": gitOpts(nil), "check-ignore": gitOpts(nil),
	"check-attr": gitOpts(nil), "var": gitOpts(nil), "cherry": gitOpts(nil), "show-branch": gitOpts(nil),
	"version": gitOpts(nil),
	"grep":    gitOpts([]string{"-O", "--open-files-in-pager"}),
	"branch": gitListOnly([]string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force",
		"-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "-t", "--no-track", "--create-reflog"},
		[]string{"--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}),
	"tag": gitListOnly([]string{"-d", "--delete", "-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-f",
		"--force", "-m", "--message", "-F", "--file", "-e", "--edit", "--create-reflog"},
		[]string{"--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-n"}),
	"remote":   gitRemote,
	"stash":    gitSubSub(map[string]bool{"list": true, "show": true}),
	"worktree": gitSubSub(map[string]bool{"list": true}),
	"reflog":   gitSubSub(map[string]bool{"": true, "show": true}),
	"config":   gitConfig,
	"help":     func([]word) string { return "`git help` opens a viewer" },
}

// gitWriteOptions are options that make any read subcommand write or run something.
var gitWriteOptions = []string{"--output", "--ext-diff", "--open-files-in-pager"}

func gitOpts(extraBad []string) func(args []word) string {
	return func(args []word) string {
		for _, w := range args {
			v := w.Value
			if v == "--" {
				break
			}
			if !strings.HasPrefix(v, "--") {
				for _, b := range extraBad {
					if len(b) == 2 && strings.HasPrefix(v, b) {
						return fmt.Sprintf("`%s` is not read-only", v)
					}
				}
				continue
			}
			long, _, _ := strings.Cut(v, "=")
			for _, b := range append(gitWriteOptions, extraBad...) {
				if strings.HasPrefix(b, "--") && len(long) > 3 && strings.HasPrefix(b, long) {
					return fmt.Sprintf("`%s` is not read-only", v)
				}
			}
		}
		return ""
	}
}

// gitListOnly: branch and tag list with no operands or with listing options; otherwise they create.
func gitListOnly(bad, listing []string) func(args []word) string {
	return func(args []word) string {
		listMode := false
		operands := 0
		for _, w := range args {
			v := w.Value
			name, _, _ := strings.Cut(v, "=")
			for _, b := range bad {
				if name == b || len(b) == 2 && strings.HasPrefix(v, b) && !strings.HasPrefix(v, "--") {
					return fmt.Sprintf("`%s` changes refs", v)
				}
			}
			for _, l := range listing {
				if name == l {
					listMode = true
				}
			}
			if !strings.HasPrefix(v, "-") {
				operands++
			}
		}
		if operands > 0 && !listMode {
			return "creates a ref"
		}
		return ""
	}
}

func gitSubSub(ok map[string]bool) func(args []word) string {
	return func(args []word) string {
		sub := ""
		for _, w := range args {
			if !strings.HasPrefix(w.Value, "-") || ok[w.Value] {
				sub = w.Value
				break
			}
		}
		if !ok[sub] {
			return fmt.Sprintf("`%s` changes the repository", sub)
		}
		return ""
	}
}

// gitRemote lists remotes; `git remote show NAME` asks the remote over the network unless -n is given.
func gitRemote(args []word) string {
	if r := gitSubSub(map[string]bool{"": true, "-v": true, "--verbose": true, "show": true, "get-url": true})(args); r != "" {
		return r
	}
	show, offline, names := false, false, 0
	for _, w := range args {
		switch {
		case w.Value == "show":
			show = true
		case w.Value == "-n":
			offline = true
		case show && !strings.HasPrefix(w.Value, "-"):
			names++
		}
	}
	if show && names > 0 && !offline {
		return "`git remote show` contacts the remote over the network"
	}
	return ""
}

func gitConfig(args []word) string {
	for _, w := range args {
		switch w.Value {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list", "--show-origin", "--show-scope", "--name-only":
			return ""
		}
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
			v == "--icase-pathspecs" || v == "--no-replace-objects" || v == "--bare" || v == "--no-advice" ||
			v == "--version" || v == "--exec-path" || v == "--html-path" || v == "--man-path" || v == "--info-path":
		case strings.HasPrefix(v, "-"):
			// --git-dir, --work-tree, --config-env, --exec-path=... point git at code or config elsewhere.
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
	if r := check(rest); r != "" {
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
		if _, path, ok := strings.Cut(v, ":"); ok && path != "" {
			v = path
		}
		if isSecretPath(v, e.c.ctx.Home) {
			e.c.read(e.p, v, e.scope())
		}
	}
	return ""
}

func gitConfigInert(kv string) string {
	key, _, _ := strings.Cut(strings.ToLower(kv), "=")
	for _, k := range gitInertConfig {
		if key == k || strings.HasSuffix(k, ".") && strings.HasPrefix(key, k) {
			return ""
		}
	}
	return fmt.Sprintf("`git -c %s` may run a program", kv)
}

// checkGo: go version, env (reading), list, doc, help. Builds and tests run code and ask.
func checkGo(e *exec, a *parsedArgs) string {
	if len(a.words) < 2 {
		return ""
	}
	sub := a.words[1].Value
	rest := a.words[2:]
	switch sub {
	case "version", "help", "doc":
		return ""
	case "env":
		for _, w := range rest {
			if w.Value == "-w" || w.Value == "-u" {
				return "`go env " + w.Value + "` changes settings"
			}
		}
		return ""
	case "list":
		for _, w := range rest {
			v := strings.Replace(w.Value, "--", "-", 1)
			if strings.HasPrefix(v, "-toolexec") || strings.HasPrefix(v, "-exec") || v == "-export" || v == "-compiled" {
				return "`go list " + w.Value + "` runs tools"
			}
			// -mod=mod updates go.mod and go.sum; -modfile names another one; -versions, -u, -retracted
			// and module@version ask a module proxy or a repository over the network.
			if strings.HasPrefix(v, "-mod=") && v != "-mod=readonly" && v != "-mod=vendor" || strings.HasPrefix(v, "-modfile") {
				return "`go list " + w.Value + "` may change go.mod"
			}
			if v == "-versions" || v == "-u" || v == "-retracted" || !strings.HasPrefix(v, "-") && strings.Contains(v, "@") {
				return "`go list " + w.Value + "` asks the network"
			}
		}
		return ""
	}
	return fmt.Sprintf("`go %s` is not read-only", sub)
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

// checkDocker: listing and inspecting only.
func checkDocker(e *exec, a *parsedArgs) string {
	if len(a.words) < 2 {
		return ""
	}
	switch a.words[1].Value {
	case "ps", "images", "version", "--version", "info", "inspect", "logs", "top", "stats":
		return ""
	case "image", "container", "volume", "network":
		if len(a.words) > 2 && (a.words[2].Value == "ls" || a.words[2].Value == "list" || a.words[2].Value == "inspect") {
			return ""
		}
	}
	return fmt.Sprintf("`%s` is not read-only", display(a.words))
}
