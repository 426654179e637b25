package models

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/programs"
	"github.com/warden-cli/warden/permissions/shell"
)

// git's model for the promise: its global options, as git.c reads them (spelled out only), and the
// subcommands Warden models, with every option their parse-options accept (gitargs.Options), in any
// unambiguous abbreviation, and what each option's value and each operand is. What git runs from its
// configuration and hooks is the project's (or the person's) own, unless the same command writes them (the
// engine's unseen_fresh.go); what it is told to run on the command line (--exec, --upload-pack) is read as
// bash for deny and ask rules, and unseen. A subcommand Warden does not model, an alias, or a mistyped name
// that help.autocorrect may run as another, is unseen.

// gitGlobalFlags are git's global options that take no value and change nothing the rules look at.
var gitGlobalFlags = map[string]bool{
	"-p": true, "--paginate": true, "-P": true, "--no-pager": true, "--no-replace-objects": true,
	"--no-lazy-fetch": true, "--no-optional-locks": true, "--no-advice": true, "--literal-pathspecs": true,
	"--glob-pathspecs": true, "--noglob-pathspecs": true, "--icase-pathspecs": true, "--exec-path": true,
	"--html-path": true, "--man-path": true, "--info-path": true, "-v": true, "--version": true, "-h": true,
	"--help": true,
}

// gitModels are the subcommands' grammars.
var gitModels = map[string]*grammar{}

func init() {
	models["git"] = &grammar{custom: gitModel}
	read := func(names ...string) map[string]role {
		m := map[string]role{}
		for _, n := range names {
			m[n] = rRead
		}
		return m
	}
	pathspecFile := read("--pathspec-from-file")
	sub := func(name string, roles map[string]role, judge func(*shell.Exec, *modelArgs) string) *grammar {
		g := gram(gitargs.Options[name]+" -h --help", roles)
		g.judge = judge
		return g
	}
	data := func(*shell.Exec, *modelArgs) string { return "" }
	for name, g := range map[string]*grammar{
		"add":         sub("add", pathspecFile, data), // what it takes in, gitTreeUnseen records
		"commit":      sub("commit", read("-F", "--file", "-t", "--template", "--pathspec-from-file"), gitCommitted),
		"tag":         sub("tag", read("-F", "--file"), data),
		"branch":      sub("branch", nil, data),
		"merge":       sub("merge", read("-F", "--file"), data),
		"rebase":      sub("rebase", map[string]role{"-x": rCommand, "--exec": rCommand}, data),
		"cherry-pick": sub("cherry-pick", nil, data), "revert": sub("revert", nil, data),
		"checkout": sub("checkout", pathspecFile, gitCheckedOut), "switch": sub("switch", nil, gitSwitched),
		"restore": sub("restore", pathspecFile, gitRestored), "reset": sub("reset", pathspecFile, gitReset),
		"fetch":     sub("fetch", map[string]role{"--upload-pack": rCommand}, gitRemoteOperand(1)),
		"pull":      sub("pull", map[string]role{"--upload-pack": rCommand}, gitRemoteOperand(1)),
		"push":      sub("push", map[string]role{"--receive-pack": rCommand, "--exec": rCommand}, gitRemoteOperand(1)),
		"ls-remote": sub("ls-remote", map[string]role{"--upload-pack": rCommand}, gitRemoteOperand(1)),
		"clone": sub("clone", map[string]role{"-u": rCommand, "--upload-pack": rCommand, "-c": rUnseen, "--config": rUnseen,
			"--template": rUnseen, "--separate-git-dir": rInto}, gitCloned),
		"init":   sub("init", map[string]role{"--template": rUnseen, "--separate-git-dir": rInto}, gitInitialised),
		"apply":  sub("apply", map[string]role{"--build-fake-ancestor": rWrite}, gitPatches),
		"am":     sub("am", nil, gitPatches),
		"rm":     sub("rm", pathspecFile, gitRemoved),
		"mv":     sub("mv", nil, gitMoved),
		"clean":  sub("clean", nil, gitCleaned),
		"gc":     sub("gc", nil, data),
		"config": sub("config", map[string]role{"-f": rEdit, "--file": rEdit}, data),
		"grep":   sub("grep", map[string]role{"-O": rCommand, "--open-files-in-pager": rCommand, "-f": rRead}, data),
		"stash": {custom: gitFamily("stash", "push", map[string]*grammar{
			"push": sub("stash push", pathspecFile, data), "save": sub("stash save", nil, data),
			"pop": sub("stash pop", nil, data), "apply": sub("stash apply", nil, data), "drop": sub("stash drop", nil, data),
			"branch": sub("stash branch", nil, data), "list": sub("stash list", nil, data), "show": sub("stash show", nil, data),
			"clear": sub("stash clear", nil, data),
		})},
		"remote": {custom: gitFamily("remote", "", map[string]*grammar{
			"add": sub("remote add", nil, gitRemoteOperand(1)), "rename": sub("remote rename", nil, data),
			"remove": sub("remote remove", nil, data), "rm": sub("remote rm", nil, data),
			"set-url": sub("remote set-url", nil, gitRemoteOperand(1)), "set-head": sub("remote set-head", nil, data),
			"prune": sub("remote prune", nil, data), "update": sub("remote update", nil, data),
			"set-branches": sub("remote set-branches", nil, data),
		})},
		"worktree": {custom: gitFamily("worktree", "", map[string]*grammar{
			"add": sub("worktree add", nil, gitWorktreePath), "remove": sub("worktree remove", nil, gitWorktreePath),
			"move": sub("worktree move", nil, gitWorktreePath), "prune": sub("worktree prune", nil, data),
			"lock": sub("worktree lock", nil, data), "unlock": sub("worktree unlock", nil, data),
			"list": sub("worktree list", nil, data), "repair": sub("worktree repair", nil, data),
		})},
		"submodule": {custom: gitSubmodule},
		"bisect":    {custom: gitBisect},
	} {
		gitModels[name] = g
	}
	gitModels["stage"] = gitModels["add"]
}

// gitModel judges git's global options, then the subcommand with its grammar.
func gitModel(e *shell.Exec, words []shell.Word) string {
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			return fmt.Sprintf("`git` is given `%s`, only known at run time", w.Raw)
		}
		v := w.Value
		switch {
		case gitGlobalFlags[v]:
		case v == "-C":
			i++
			if i >= len(words) {
				return ""
			}
			if why := takes(e, rDir, words[i], "`git -C`"); why != "" {
				return why
			}
		case v == "-c" || strings.HasPrefix(v, "-c"):
			kv := strings.TrimPrefix(v, "-c")
			if kv == "" {
				i++
				if i >= len(words) {
					return ""
				}
				if !words[i].Static {
					return fmt.Sprintf("`git -c %s` sets a key only known at run time", words[i].Raw)
				}
				kv = words[i].Value
			}
			key, value, _ := strings.Cut(kv, "=")
			if !gitQuietKey(key, value) {
				return fmt.Sprintf("`git -c %s` may make git run a program", key)
			}
		case v == "--namespace":
			i++
		case strings.HasPrefix(v, "--namespace=") || strings.HasPrefix(v, "--list-cmds="):
		case strings.HasPrefix(v, "-"):
			return fmt.Sprintf("`git %s` is not modelled", v)
		default:
			gitInputs(e)
			sub := v
			g, ok := gitModels[sub]
			if !ok && programs.GitReadsOnly(sub) {
				if e.ConfigRuns != "" && e.P.Unmodelled == e.ConfigRuns {
					// It runs what the configuration on disk names: the project's or the person's own,
					// unless the same command writes it first (gitInputs).
					return ""
				}
				// A reading subcommand in a form that does more: why the read-only check says so.
				return keepReason
			}
			if !ok {
				// An alias, an external git-SUB, or a name help.autocorrect may run as another.
				return fmt.Sprintf("`git %s` is a subcommand Warden does not model", sub)
			}
			named := shell.Word{Value: "git " + sub, Raw: "git " + sub, Static: true}
			return model(e, g, append([]shell.Word{named}, words[i+1:]...))
		}
	}
	return ""
}

// gitFamily judges a subcommand whose first word picks what it does (git stash push, git remote add):
// without one, or with an option first, it is def ("" when only listing is, which is read-only and not
// judged here).
func gitFamily(name, def string, subs map[string]*grammar) func(e *shell.Exec, words []shell.Word) string {
	return func(e *shell.Exec, words []shell.Word) string {
		rest := words[1:]
		pick := def
		if len(rest) > 0 && rest[0].Static && !strings.HasPrefix(rest[0].Value, "-") {
			pick, rest = rest[0].Value, rest[1:]
		} else if len(rest) > 0 && !rest[0].Static {
			return fmt.Sprintf("`git %s` is given `%s`, only known at run time", name, rest[0].Raw)
		}
		g, ok := subs[pick]
		if !ok {
			return fmt.Sprintf("`git %s %s` is not modelled", name, pick)
		}
		named := shell.Word{Value: "git " + name + " " + pick, Static: true}
		return model(e, g, append([]shell.Word{named}, rest...))
	}
}

// gitRemoteOperand judges the operand at index i as a repository: a URL, a remote's name or a path, but
// not a transport that runs a command (ext::, fd::).
func gitRemoteOperand(i int) func(e *shell.Exec, a *modelArgs) string {
	return func(e *shell.Exec, a *modelArgs) string {
		for k, w := range a.operands {
			if k != i-1 && k != i {
				continue
			}
			if !w.Static {
				if k == i-1 {
					return fmt.Sprintf("`%s` talks to a repository only known at run time", a.words[0].Value)
				}
				continue
			}
			if gitCommandURL(w.Value) {
				return fmt.Sprintf("`%s %s` runs a command as its transport", a.words[0].Value, w.Value)
			}
		}
		return ""
	}
}

// gitCommandURL reports whether a repository URL names a transport that runs a command or talks to a
// descriptor.
func gitCommandURL(v string) bool {
	l := strings.ToLower(v)
	return strings.HasPrefix(l, "ext::") || strings.HasPrefix(l, "fd::") || strings.Contains(l, "::") && !strings.Contains(l, "://")
}

// gitCommitted judges git commit's pathspecs: the files named are taken into the repository as they are,
// like git add's.
func gitCommitted(e *shell.Exec, a *modelArgs) string {
	sc := e.Scope()
	for _, w := range a.operands {
		if !w.Static {
			e.P.Loose = append(e.P.Loose, e.LoosePath(w, shell.Reading))
			continue
		}
		paths, why := expanded(e, w, "`git commit`")
		if why != "" {
			return why
		}
		for _, p := range paths {
			if strings.ContainsAny(filepath.Base(p), "*?[:") {
				p = sc.Cwd
			}
			e.P.GitTakes = append(e.P.GitTakes, p)
		}
	}
	return ""
}

// gitCloned judges git clone's operands: the repository (not a command transport), and the directory it
// makes.
func gitCloned(e *shell.Exec, a *modelArgs) string {
	if why := gitRemoteOperand(1)(e, a); why != "" {
		return why
	}
	switch len(a.operands) {
	case 0:
		return ""
	case 1:
		src := a.operands[0]
		if !src.Static {
			return ""
		}
		name := strings.TrimSuffix(filepath.Base(strings.TrimSuffix(src.Value, "/")), ".git")
		return takes(e, rInto, shell.Word{Value: name, Raw: name, Static: true}, "`git clone`")
	}
	return takes(e, rInto, a.operands[1], "`git clone`")
}

// gitInitialised judges git init's directory.
func gitInitialised(e *shell.Exec, a *modelArgs) string {
	return each(e, rInto, a.operands, "`git init`")
}

// gitPatches judges git apply's and git am's operands: patches and mailboxes it reads.
func gitPatches(e *shell.Exec, a *modelArgs) string {
	return each(e, rRead, a.operands, fmt.Sprintf("`%s`", a.words[0].Value))
}

// gitPathspec applies r to a pathspec: a directory, a pattern git matches itself or magic stands for
// anything below; a plain file for itself.
func gitPathspec(e *shell.Exec, w shell.Word, r role, what string) string {
	if !w.Static {
		e.P.Loose = append(e.P.Loose, e.LoosePath(w, shell.Writing))
		return ""
	}
	if !w.Glob && strings.ContainsAny(w.Value, "*?[:") {
		return takes(e, rInto, shell.Word{Value: ".", Raw: ".", Static: true}, what)
	}
	paths, why := expanded(e, w, what)
	if why != "" {
		return why
	}
	for _, p := range paths {
		rr := r
		if isDir(p) {
			rr = rInto
		}
		if why := takes(e, rr, shell.Word{Value: p, Raw: p, Static: true}, what); why != "" {
			return why
		}
	}
	return ""
}

// gitRemoved judges git rm's pathspecs: removed from the work tree and the index.
func gitRemoved(e *shell.Exec, a *modelArgs) string {
	for _, w := range a.operands {
		if why := gitPathspec(e, w, rWrite, "`git rm`"); why != "" {
			return why
		}
	}
	return ""
}

// gitMoved judges git mv: the sources are moved, the last operand is written or written into.
func gitMoved(e *shell.Exec, a *modelArgs) string {
	if len(a.operands) < 2 {
		return ""
	}
	dest := a.operands[len(a.operands)-1]
	for _, w := range a.operands[:len(a.operands)-1] {
		if why := gitPathspec(e, w, rEdit, "`git mv`"); why != "" {
			return why
		}
	}
	return destination(e, dest, a.operands[:len(a.operands)-1], true, "`git mv`")
}

// gitCleaned judges git clean's pathspecs: what is untracked below them is removed.
func gitCleaned(e *shell.Exec, a *modelArgs) string {
	for _, w := range a.operands {
		if why := gitPathspec(e, w, rInto, "`git clean`"); why != "" {
			return why
		}
	}
	return ""
}

// gitWorktreePath judges the path of a work tree git worktree adds, removes or moves.
func gitWorktreePath(e *shell.Exec, a *modelArgs) string {
	for i, w := range a.operands {
		if i > 1 {
			break
		}
		if strings.HasSuffix(a.words[0].Value, "add") && i == 1 {
			break // the branch to check out
		}
		if why := takes(e, rInto, w, fmt.Sprintf("`%s`", a.words[0].Value)); why != "" {
			return why
		}
	}
	return ""
}

// gitSubmoduleOpts are git submodule's options, by subcommand ("" for those before it).
var gitSubmoduleOpts = map[string]string{
	"":        "--quiet --cached",
	"status":  "--cached --recursive --quiet",
	"summary": "--cached --files --summary-limit= -n= --quiet",
	"init":    "--quiet",
	"deinit":  "-f --force --all --quiet",
	"update": `--init --remote -N --no-fetch -f --force --checkout --rebase --merge --reference= --dissociate --recursive
		--depth= --jobs= -j= --recommend-shallow --no-recommend-shallow --single-branch --no-single-branch --filter=
		--progress --quiet`,
	"sync":          "--recursive --quiet",
	"absorbgitdirs": "--quiet",
	"set-branch":    "-b= --branch= -d --default --quiet",
	"set-url":       "--quiet",
	"add":           "-b= -f --force --name= --reference= --depth= --quiet --dissociate",
}

// gitSubmodule judges git submodule: foreach runs a command in every submodule (read as bash for deny
// and ask rules); the others clone, check out and configure.
func gitSubmodule(e *shell.Exec, words []shell.Word) string {
	rest := words[1:]
	for len(rest) > 0 && rest[0].Static && (rest[0].Value == "--quiet" || rest[0].Value == "--cached" || rest[0].Value == "-q") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return ""
	}
	if !rest[0].Static {
		return fmt.Sprintf("`git submodule` is given `%s`, only known at run time", rest[0].Raw)
	}
	sub := rest[0].Value
	if sub == "foreach" {
		body := rest[1:]
		for len(body) > 0 && body[0].Static && (body[0].Value == "--recursive" || body[0].Value == "--quiet" || body[0].Value == "-q") {
			body = body[1:]
		}
		for _, w := range body {
			if !w.Static {
				e.P.Unsee(shell.UnseenGitProgram, "`git submodule foreach` runs a command only known at run time")
				return ""
			}
		}
		gitRuns(e, "`git submodule foreach` runs a command in every submodule", strings.Join(shell.Values(body), " "), true)
		return ""
	}
	spec, ok := gitSubmoduleOpts[sub]
	if !ok {
		return fmt.Sprintf("`git submodule %s` is not modelled", sub)
	}
	named := shell.Word{Value: "git submodule " + sub, Static: true}
	var g *grammar
	if sub == "add" {
		g = gram(spec, nil).judging(gitRemoteOperand(1))
	} else {
		g = gram(spec, nil)
	}
	return model(e, g, append([]shell.Word{named}, rest[1:]...))
}

// gitBisect judges git bisect: run runs a command at every step (gitSubUnseen reads it); the others move
// HEAD and the work tree, which gitTreeUnseen records.
func gitBisect(e *shell.Exec, words []shell.Word) string {
	if len(words) < 2 {
		return ""
	}
	if !words[1].Static {
		return fmt.Sprintf("`git bisect` is given `%s`, only known at run time", words[1].Raw)
	}
	switch words[1].Value {
	case "start", "good", "bad", "new", "old", "skip", "reset", "terms", "log", "next", "help":
		return ""
	case "run":
		return "" // unseen, and its command read for deny rules, by gitSubUnseen
	}
	return fmt.Sprintf("`git bisect %s` is not modelled", words[1].Value)
}

// gitTop returns the top of the work tree git runs in, or "" when Warden lost track of where that is.
func gitTop(e *shell.Exec) string {
	dir := e.Scope().Cwd
	if dir == "" {
		return ""
	}
	if r, ok := e.S.FindRepo(dir); ok && r.Top != "" {
		return r.Top
	}
	return dir
}

// gitWholeTree records that a git command may write anything in the work tree.
func gitWholeTree(e *shell.Exec, what string) string {
	top := gitTop(e)
	if top == "" {
		return fmt.Sprintf("%s writes a work tree Warden lost track of", what)
	}
	e.P.HandedWrites = append(e.P.HandedWrites, top)
	return ""
}

// gitCheckedOut judges git checkout: a new branch from HEAD writes nothing, pathspecs after `--` only
// themselves; a branch switched to may change any file.
func gitCheckedOut(e *shell.Exec, a *modelArgs) string {
	if a.has("-b", "-B", "--orphan") && len(a.operands) == 0 {
		return "" // a new branch where HEAD is: the files stay as they are
	}
	if a.dashdash >= 0 && !a.has("--pathspec-from-file", "-p", "--patch") {
		for _, w := range a.operands[a.dashdash:] {
			if why := gitPathspec(e, w, rWrite, "`git checkout`"); why != "" {
				return why
			}
		}
		return ""
	}
	return gitWholeTree(e, "`git checkout`")
}

// gitSwitched judges git switch: a new branch from HEAD writes nothing; any other switch may change any
// file.
func gitSwitched(e *shell.Exec, a *modelArgs) string {
	if a.has("-c", "-C", "--create", "--force-create", "--orphan") && len(a.operands) == 0 {
		return ""
	}
	return gitWholeTree(e, "`git switch`")
}

// gitRestored judges git restore: the index alone (--staged) writes no file; otherwise it writes the
// paths it is given.
func gitRestored(e *shell.Exec, a *modelArgs) string {
	if a.has("-S", "--staged") && !a.has("-W", "--worktree") {
		return ""
	}
	if a.has("--pathspec-from-file", "-p", "--patch") {
		return gitWholeTree(e, "`git restore`")
	}
	for _, w := range a.operands {
		if why := gitPathspec(e, w, rWrite, "`git restore`"); why != "" {
			return why
		}
	}
	return ""
}

// gitReset judges git reset: only --hard, --merge and --keep write the work tree; the others move HEAD
// and the index.
func gitReset(e *shell.Exec, a *modelArgs) string {
	if a.has("--hard", "--merge", "--keep") {
		return gitWholeTree(e, "`git reset`")
	}
	return ""
}

// gitInputs records what git reads as code for a command run where the part runs: its configuration
// files (which may name a program, an alias, a hooks directory), there or not yet, and the hooks it runs.
// A file the same command writes there is code written and run in one call.
func gitInputs(e *shell.Exec) {
	dir := e.Scope().Cwd
	if dir == "" {
		return
	}
	r, ok := e.S.FindRepo(dir)
	if !ok {
		return
	}
	home := e.S.Ctx.Home
	cfg := e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: home})
	files := append(cfg.Files(), filepath.Join(r.CommonDir, "config"), filepath.Join(r.GitDir, "config.worktree"))
	if g, ok := e.LookupEnv("GIT_CONFIG_GLOBAL"); ok && g != "" {
		files = append(files, gitrepo.ExpandPath(g, home))
	} else if home != "" {
		xdg, ok := e.LookupEnv("XDG_CONFIG_HOME")
		if !ok || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config"))
	}
	for _, f := range files {
		if filepath.IsAbs(f) {
			e.P.Inputs = append(e.P.Inputs, f)
		}
	}
	hooks := filepath.Join(r.CommonDir, "hooks")
	if en, ok := cfg.Last("core.hookspath"); ok && en.Value != "" {
		hooks = gitrepo.ExpandPath(en.Value, home)
		if !filepath.IsAbs(hooks) {
			top := r.Top
			if top == "" {
				top = dir
			}
			hooks = filepath.Join(top, hooks)
		}
	}
	e.P.RunsBelow = append(e.P.RunsBelow, hooks)
}
