// Package permissions decides whether a tool call may run. It owns the rules (their syntax, compiling
// and matching), the permission modes, the decision for a command or a file path in the order DESIGN.md §5
// gives, the promise deny and ask rules make (promise.go), the path policy with its one path-resolution
// function (ResolvePath), rule suggestions for "always allow", and the data behind `warden check`. The
// walker (classify.go, run.go) reads a command as bash will run it and asks the packages below what each
// simple command does.
//
// The engine's knowledge is layered, each package importing only those below it, never one above:
//
//	permissions           the engine: rules, modes, decisions, the walker, the promise
//	permissions/models    the promise's models of programs, the wrappers, what programs hand Warden unseen
//	permissions/programs  the read-only table and the checks of programs a row cannot describe
//	permissions/supplied  what the working tree supplies to a program of the table (the survey)
//	permissions/gitargs   git's command line as git reads it
//	permissions/shell     the vocabulary: words, paths, reads, secrets, Part, Context, State, Exec, Memory
//	permissions/treewalk  which files a recursive read takes in, the way its program walks
//
// and below them the leaves gitrepo, secrets, ignore, safefile, cache and printable. A package that finds
// a command inside another (find -exec's, a shell body) calls back up through shell.Judge, which the
// walker implements, never by importing the engine.
//
// What an engine remembers between decisions (the repositories it read, the files it judged by content,
// directory listings, the other names of files, PATH's directories) is one shell.Memory, bounded, that
// the engine owns and hands each classification: no two engines share what one learnt.
//
// Besides its own sub-packages and the leaves it must never import a Warden package (tools, agent, config,
// ui): the agent translates tool calls into Requests, and the file tools receive ResolvePath (the
// vocabulary's, offered here) and IsSecretPath by injection.
package permissions

// Decisions worth knowing, kept here so they are read before the code is changed:
//
//   - Read-only is decided per simple command against the read-only table (package programs:
//     table.go, git.go, text.go). A command or option that is not in the table asks.
//   - /bin, /usr/bin, /usr/local/bin, /sbin and /usr/sbin are trusted: /usr/bin/cat is cat. Any other
//     path-qualified program (./cat, bin/cat, /tmp/x/cat) asks.
//   - A bash command may read files outside the workspace without asking (`cat /etc/os-release`, the Go
//     module cache); only secrets ask. `cd` outside the workspace asks, because the session's directory
//     persists. The file tools are stricter: reading outside the workspace asks (issue 6).
//   - Globs are expanded against the file system, bounded (shell/glob.go), to catch file names that
//     would be taken as options and secrets hidden behind patterns; dot files count as matches.
//   - Brace expansion, loop variables and variables assigned earlier in the same command are not
//     tracked: words using them are only known at run time and ask unless the program only prints.
//   - Dangerous commands ask even in yolo and even when an allow rule matches; deny rules still deny.
//   - A deny or ask rule is a promise in every mode (promise.go decides, in one place). While any is in
//     force, a part that does more than read is allowed by yolo, an allow rule (a bare `Bash` and a program's
//     own `Bash(tar:*)` included), accept-edits or the sandbox's auto-allow only when Warden models it word
//     by word (package models, grammar.go); anything else asks. "Not modelled" is the default, not a list:
//     shell.Part.NotRO marks a part unmodelled, and only an effect Warden follows in full says otherwise
//     (shell.Part.Effect: a write of a known file, a cd, a quiet variable such as CGO_ENABLED) or a program's
//     model accounts for every word of it. A model knows the program's every option in every spelling it
//     accepts (GNU and git abbreviations resolved against the whole list, so an unknown or ambiguous one is
//     unseen; git's tables come from git's own lists, gitargs/options.go), gives each value and operand a
//     role (data, a path read or written, a directory written into, a directory worked in, a script run,
//     code, a shell command), expands globs, and checks every path against the path rules. Modelled: the
//     coreutils writers, sed, gofmt, source, git's writing subcommands and grep, make, npm (installs and
//     scripts), npx, yarn and pnpm (installs and package.json's scripts), node, python (and -m pytest, pip,
//     venv, unittest, or a module of the project), pip, pytest, go, cargo, ruff, mypy, prettier, eslint, the
//     plain wrappers (env, nice, timeout, stdbuf, time...), and a program or script in the workspace on disk
//     before the command runs, whose arguments it may read or write. The rest (tar, zip, curl, docker, perl,
//     gcc, strace, chrt...) asks whenever a deny or ask rule is in force: what they do with their words
//     Warden does not follow; so does a program xargs gives more words at run time. Without such rules
//     nothing changes.
//   - Besides, the walker marks, on the part where it arises, each construct whose effect Warden cannot
//     see, one named kind per construct (shell.UnseenKind): a program named at run time or by a glob; code
//     written (or linked) and run in one call; code on a stream (process substitution, pipe, /dev/stdin
//     however spelled, a here-document to an interpreter); inline code of a language Warden does not
//     read; bodies kept for later (trap, PROMPT_COMMAND, fc, writes to git's configuration and hooks or
//     a directory on PATH); variables that change what runs; changes to how bash reads (alias, hash -p,
//     shopt, set -k); env -S; git told to run a command; programs told to run one; bodies read only for
//     rules; constructs not read at all; paths the same command may make links first; file lists read
//     from input. A mark made once the command is known (freshPaths) leaves the read-only judgement
//     alone.
//   - Where the walker can read what such a construct runs (a trap's body, env -S's string, a git -c
//     program key's value, rebase --exec, --upload-pack, bisect run, submodule foreach, grep -O, a
//     program glob's matches, a program path through a link, a script bash reads from a here-string
//     through /dev/stdin), it is read as bash for deny and ask rules, so the rule denies. git send-pack
//     and http-push are git push for rules.
//   - Code on disk before the command runs is the project's own: make with its Makefile, npm test, go
//     test, pytest, a project binary, a script. What such a program reads as code by itself is an input
//     of the part (shell.Part.Inputs, RunsBelow), and what the same command writes there is code written
//     and run in one call: a Makefile, the makefiles it includes and make's -I directories;
//     package.json and .npmrc; a module or __pycache__ where python -m runs, python's user site, what a
//     script finds beside it, node_modules up the tree; the module go test, run and generate build; the
//     directory make, pytest, cargo and npm's scripts run in; .cargo/config.toml up the tree; git's
//     configuration files (the repository's, ~/.gitconfig, $XDG_CONFIG_HOME/git/config, there or not
//     yet) and the hooks directory core.hooksPath names. A file run must be there before the command
//     runs. Once a file is sourced, any program run by name in a command that writes files is unseen (an
//     activate script moves PATH). chmod, touch, mkdir and rm make no code.
//   - Words only known at run time decide a rule only where a rule could match what they become
//     (shell/loose.go, loose_match.go): a program or subcommand a Bash rule names (for git, only when the
//     subcommand is not known, or is the rule's), or a path. A path's unknown parts, when each is one safe
//     file name component (a number such as $$, arithmetic, date with a numeric format, git rev-parse, id -u,
//     nproc), leave it where its known parts say, and it asks only if a path rule may match there; any other
//     unknown path asks under any path rule of its kind. A commit message, a printed word or an option's data
//     value never asks; a word that may turn out to be an option does, unless nothing before its first
//     expansion is a dash. A double-quoted substitution printing a quoted here-document with cat (a commit
//     message) is the words of the here-document.
//   - A program whose reads and writes are not modelled may read and write every path it is given
//     (words, `--opt=value`, `key=value`, `@file`): the question says it is not modelled. cp and mv read
//     what they copy or move elsewhere. git add, stash -u and the source tools (linters, formatters,
//     compilers, test runners) leave out what git ignores: there only an existing file git does not
//     ignore counts. git's work-tree writers (checkout of a branch, merge, pull, rebase, stash, apply,
//     am, reset --hard) may write anything in the work tree; a new branch from HEAD, checkout -- PATHS
//     and restore PATHS write only those paths, and reset without --hard, --merge or --keep nothing.
//   - Not covered, by design (the README says so): a program runs as itself. What code on disk before
//     the command runs does inside (make's recipes, the tests, a project binary, a script written by an
//     earlier command) is not read, nor what it makes of its arguments and environment; what a package
//     manager downloads and runs for the names the project or the command gives it (npm install's
//     lifecycle scripts, npx of a package not installed, go run pkg@version, pip install of an sdist) is
//     the registry's; which files a branch switch, a merge or a stash pop change depends on trees Warden
//     does not compare, so they ask under an Edit or Write rule that governs the work tree; a variable
//     assigned earlier in the same command is not followed. git subcommands' options are those of git
//     2.39: one a later git added is unseen when spelled out, and an abbreviation is resolved against
//     the options Warden knows.
//   - Edit and Write rules are interchangeable: both govern any change to a file.
//   - A write to a guarded place (guarded.go: secrets.GuardedWrite's catalogue of places whose content
//     later programs run or obey, the scripts hooks run, the files git's variables name, a directory on
//     PATH) is never allowed by accept-edits nor by a PreToolUse hook's allow, only by a rule naming it
//     or yolo. The catalogue leaves out what people edit all day (package.json, a Makefile,
//     .vscode/settings.json, CI workflows): what runs those asks on its own.
//   - A path rule naming a directory covers everything below it.
//   - A function replaces the program of its name only where bash is certain to have defined it: at the
//     same level, unconditionally, earlier. One defined in a subshell, a branch, after && or in a
//     background job leaves later calls to the program, and its body is read where it is called, for
//     deny and ask rules. A function's body runs where it is called (functions.go): a call in another
//     directory than where it was defined judges the body again there. Wrappers, xargs and find -exec
//     always run the program. `unset` of a function's name asks.
//   - find -exec's {} may only be a plain file operand of a table command; a program that reads it reads
//     every file found, judged like grep -r over the roots, narrowed only by a plain conjunction of -name
//     tests. `find ... | xargs cat` is judged the same way when find prints only names (no -printf, -ls,
//     -exec, -L); `echo NAMES | xargs cat` and `printf '%s\n' NAMES | xargs cat` are judged as the
//     command with those names appended, when what they print is known exactly. Lines may pass through
//     sort, uniq, head and tail. Any other producer of names (ls, git ls-files, a file, stdin) asks for a
//     program that reads files or has options that read files, since the names may be anything.
//   - An option whose value is a file the program reads (grep -f, du --files0-from, jq --from-file) is a
//     read of that file, for secrets and deny rules alike; package programs lists them in fileValues.
//   - `shopt -s`/`-u` asks: nullglob, nocaseglob, globstar and the rest change what globs expand to.
//     zsh, ksh and mksh bodies are not read as bash and ask. sh, dash and ash bodies (and watch's and
//     flock -c's, which sh runs) are judged only when a POSIX parser reads them into the same tree as
//     bash's: dash has no $'...', `&>` or here-strings.
//   - A function runs in the calling shell: a cd in its body moves the caller, and each call applies it.
//   - `~+` is the current directory; `~-`, `~user` and `~N` are only known at run time.
//   - git's content subcommands (show, log, diff, blame, grep, cat-file...) read their REV:path operands
//     (relative to the repository's top, or with ./ to the directory), their paths and pathspecs.
//   - Long options count in any abbreviation their program accepts (GNU getopt, git) wherever that makes
//     the answer stricter; an abbreviated option that would narrow what is read is ignored. The promise's
//     models resolve abbreviations against a program's whole list of options instead (package models).
//   - Globs are expanded wherever a path is judged: operands, option values, redirection targets (where
//     bash uses the one file a pattern matches, and refuses more), scripts run and find's roots.
//   - Paths are resolved the way the kernel walks them: a `..` applies after the symlinks before it.
//     A path through /proc/self, /proc/N/{cwd,root,fd,environ} or /dev/fd is the command's own view,
//     which Warden cannot resolve from its process: reading it counts as reading a secret.
//   - A deny or ask path rule matches a resolved path as written and with the symlinks of its literal start
//     (before its first wildcard) resolved when the rules are loaded: Read(./cfg/**) with cfg -> real
//     covers real/prod.yml too. A link below a wildcard, or made after the rules were loaded, is not
//     followed; an allow rule covers only the name as written.
//   - xargs reads the modelled names only as the pipeline stage's own command with no input redirection,
//     fed by echo, printf or find run directly (no wrapper, no output redirection), and only when the
//     command defines no function of any of those names. A program judged as itself asks whenever the
//     command defines a function of its name anywhere.
//   - git reading revisions or objects from stdin (--stdin, --batch*) asks. A content-printing git
//     command with no path (git log -p, git show REV, git diff, git grep, git reflog -p, git stash show
//     -p), or with a directory for a path, reads what the repository holds there, read from the
//     repository itself (git is never run): the index's files and, unless it only compares the index
//     and the work tree (git diff, git grep without a revision or --cached), every file any commit
//     reachable from the refs, HEADs and reflogs ever held. What is only on disk (an untracked or
//     ignored .env) is never printed by them, and does not count. An index Warden cannot list in full
//     (split, sparse, unreadable), a history it cannot read (SHA-256, reftable, missing trees of a
//     partial clone, more than 2,000,000 objects), one still being read (a decision spends at most
//     shell.HistoryBudget on it; the walk goes on in the background, so git.git's 203,000 commits take
//     half a minute once) or a repository with submodules (.gitmodules,
//     gitlinks) makes such a read ask, as do --recurse-submodules and --submodule=diff anywhere. An
//     object named by its id that no ref, reflog or index entry reaches (a blob once added and reset)
//     asks. REV:path splits at the first `:` outside braces, and the last is read too.
//   - A recursive read that covers a denied path asks with the rule as the reason; only a read that
//     names the denied path, or starts inside it, denies. A -name filter that matches no denied file
//     leaves the read allowed.
//   - A recursive read whose walk passes treewalk.MaxEntries entries asks: a secret past the bound is not
//     seen. Walks go the way the program walks (package treewalk): grep -r reads every file, its last
//     matching --include or --exclude deciding; ag is read as reading everything; rg decides as its ignore
//     crate does (treewalk/rg.go): -g globs first (braces expanded, --iglob folded, the last match winning, a
//     plain one taking in even hidden and ignored files), then .rgignore, .ignore, .gitignore and
//     info/exclude up to the nearest .git (a nested repository starts afresh; directories above the searched
//     one count), then --type, then hidden names. A `!` pattern takes a hidden file in. The repository's
//     core.ignoreCase and core.excludesFile are git's, not rg's. Patterns rg reads differently from git
//     (POSIX classes, [^..], braces, backslashes, ** inside a name) never leave anything out. --type-add
//     makes types unknown. A file a walk leaves out keeps a deny rule naming it out of the read, unless links
//     are followed. Directory listings are remembered, while the directory's times and inode stay the same,
//     by the engine's treewalk.Lister, which is bounded.
//   - A link is read where it leads (`cat notes.txt` with notes.txt -> ~/.ssh/id_rsa reads the key).
//     A walk that follows links (grep -R, rg -L) or hands its names to a program that opens them (find
//     -exec, xargs, a command substitution) follows them: a file they lead to is read, a directory is
//     walked. A file a walk takes in that has other names (hard links) is read under each of them; the
//     link count is the listing's.
//   - Globs in the words of echo or printf feeding xargs are expanded as for any operand; a name matched
//     that may be taken as an option makes the names unknown (bash orders them by the locale).
//   - A directory a recursive read leaves out (grep --exclude-dir, rg -g '!dir' when every glob leaves
//     out) keeps deny rules below it out of the read, unless links are followed (grep -R, rg -L). Globs
//     Go matches differently from fnmatch ([!...], [[:class:]]) never leave anything out.
//   - /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/0-2 are the command's own streams (its input is
//     empty; a redirection of them is judged as the read it is); other /dev/fd/N and /proc paths stay secret.
//     A script taken from anything below /dev (but /dev/null) or /proc, however spelled (/dev/./stdin,
//     //dev/stdin, /dev/pts/../stdin, /proc/self/root/dev/stdin) or reached through a link, is code on a
//     stream (shell/streams.go). /proc/self/exe run as a program is the shell running the command; rbash is
//     bash; the dynamic loader (ld.so) is a wrapper.
//   - A function calls itself only when its body runs its name through the shell: `command f` runs the
//     program.
//   - Loops over known values are judged per value within a budget of maxLoopRounds bodies per command;
//     past it a body is judged once with its variable unknown.
//   - A program of the read-only table is judged with the files it trusts (package supplied): what it loads
//     from the working tree, the directories above it and the environment that could make it run a
//     program, write or reach the network is recorded beside every entry, and checked per call. git
//     reads the configuration chain of the repository it really uses (after -C, cd, GIT_DIR, .git files
//     of linked work trees and submodules, every include whatever its condition, config.worktree,
//     GIT_CONFIG_*), parsed in Go by gitrepo, never by running git; each key that runs something asks
//     only for the subcommands that run it (supplied/git.go has the survey). A configuration
//     file Warden cannot parse asks, even though git would refuse it too.
//   - A program found on PATH inside the workspace or through a relative PATH entry is not the system
//     tool of its name (a project venv's bin, node_modules/.bin). Nor is one found outside the system's
//     program directories as a link to a program of another name (~/.local/bin/ls -> /bin/rm): it asks,
//     unless the target is the same program: the same name, the name followed by a version only
//     (python3 -> python3.11, rg -> rg-14.1.0), a name the same program is installed under (awk ->
//     mawk, fd -> fdfind) or a multi-call binary that runs the tool it is called as (busybox, rustup's
//     proxies). A name that merely starts the target's is another program (ss -> ssh, tr -> truncate).
//     Such a link runs its target, so only an allow rule naming the target covers it (Part.RunsAs);
//     Bash(ls:*) does not, and a deny or ask rule naming the target holds.
//   - ssh, scp and sftp are never read-only, and git's network subcommands (fetch, pull, push,
//     ls-remote, remote show) ask, so nothing that reads the person's ~/.ssh/config (whose ProxyCommand,
//     LocalCommand and Match exec run programs) runs unasked. That file is the person's own, decided as
//     their ~/.gitconfig is: an allow rule of theirs for ssh or git fetch covers what it runs; what the
//     repository's own configuration names for reaching a remote (core.sshCommand, core.gitProxy, a
//     remote's uploadpack, a credential helper, an ext:: URL) is what it supplies, which no rule covers
//     (supplied/git_transport.go).
//   - Tools whose only risk is running project code (eslint's, prettier's and mypy's configuration and
//     plugins, pytest's conftest.py) are read-only only when read-only commands run in the read-only jail
//     (Policy.ReadOnlyJail); otherwise they ask.
//   - Reading a file in a git object store (a loose object, a pack, any file below a git directory's
//     objects) reads the repository's history: it asks like a secret, and a deny rule naming any path
//     the history or the index ever held denies it. History is read from the objects (gitrepo), every
//     commit reachable from refs, HEADs, reflogs and the stash, cached and extended as refs move.
//   - A regular file with more than one link is read under every other name found in the workspace,
//     the additional directories and the home directory's secret places (the listing is cached per
//     directory by its times); a search past shell.MaxLinkSearch entries asks. The file tools' paths are
//     decided under each such name too (hardlink_paths.go), with the same search.
//   - What is secret is the catalogue of package secrets (keys, tools' and AI assistants' tokens, histories,
//     files the environment names such as SOPS_AGE_KEY_FILE) plus Warden's own state and /proc's views
//     (shell/secrets.go). Some files are secret by what they hold, read once per version: a shell start-up
//     file with a line that sets a token, yarn's configuration with a token written in, and one of git's
//     configuration files setting a credential-bearing variable (http.*.extraHeader, a URL with a password).
//     A login shell (`bash -lc`) reads the start-up files. git config, git var -l and git remote -v, get-url
//     and show are judged by the variables they print, not the files they read: `git config user.name` beside
//     an extraHeader runs unasked, `git config -l` asks; so do `git config --name-only -l` (names hold a
//     credential only as a URL with one) and a --get-regexp whose pattern matches no variable carrying one. A
//     walk that takes hidden files in (grep -r, rg --hidden, -uu) reads .git's config, config.worktree and
//     the submodules' configurations under .git/modules, each judged so. The read-only jail keeps git's and
//     yarn's configuration readable (IsSecretPath leaves them out): the programs must read it to run.
//   - A command holding a character that shows differently from what bash reads (printable.Hidden: a
//     control character other than tab and newline, a bidi override, a zero-width or other format
//     character) asks, and the reason names it by its code point (U+202E, U+200B).
//   - A file operand made of an unquoted command substitution alone (`wc -l $(git ls-files)`) is judged
//     by what its command lists when that is known: git ls-files (the index below the directory), git
//     diff --name-only at the work tree's top (the index and the history), find printing names, rg and
//     grep listing files (-l, --files, with no option that prints anything else, such as rg's -L or
//     --null). Every name must come out whole: a blank, a wildcard or a leading dash asks. What the
//     work tree holds at a name git lists is judged too: a link, a directory, a file with other names.
//     Any other substitution leaves the operand unknown.
//   - A here-document bash may end before the parser does asks: inside a substitution, a line that
//     starts with the delimiter and holds a `)`; in an unquoted body, lines joined by a backslash that
//     make the delimiter.
//   - Deny and ask rules match the parsed command as well as its words (rulematch.go): options in any order
//     and clustering, long forms (and their abbreviations) for their short twins where Warden knows them, an
//     option's value attached or apart for the programs of the read-only table (`Bash(head -c:*)` stops `head
//     -c5`, `head --bytes 5`), extra options still matching; git's global options before the subcommand,
//     git-push and /usr/lib/git-core/git-push as git push; aliases from -c and the repository's configuration
//     expanded. Allow rules still need the words as written. `~`, `$HOME` and `${HOME}` in a Bash rule are
//     the home directory.
//   - Bodies Warden does not judge are read as bash for deny and ask rules only, their parts never
//     read-only and unseen (so any deny or ask rule makes them ask): zsh, ksh, mksh and fish -c, script
//     -c, eval with words known before running, a shell fed by echo or printf through a pipe.
//     busybox and toybox run their applet like a wrapper; `sh -c '"$@"' _ cmd...` runs cmd.
