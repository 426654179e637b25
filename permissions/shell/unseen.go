package shell

// A deny rule is a promise in every mode. Deny and ask rules are checked against what Warden reads in the
// command: the programs it names, the code it hands to a shell, the files it names. What Warden does not
// model word by word is unseen by default (Part.NotRO marks the part unmodelled; package models); besides,
// some of what a command does Warden knows it cannot read: code written and run in the same call, code
// arriving on a stream, a trap's body, a program reached through a glob or a link made a moment before, git
// told to run a command. The walker marks each such construct on the part where it arises, with the kind
// below, and the engine decides in one place (package permissions' promise.go): while deny or ask rules are
// in force, a part with a mark, or not modelled, asks, whatever the mode and the allow rules. Without such
// rules nothing changes.
//
// What the marks do not cover, and the README says: a program runs as itself. Warden does not read what
// make, npm test or a script already on disk do inside; a deny rule names commands and files, and a
// program that is not one of them is not checked against it from within.

// UnseenKind is a set of kinds of construct Warden cannot see into.
type UnseenKind uint32

// The kinds, one per construct. Each mark also makes the part not read-only.
const (
	// UnseenProgram: the program's name is only known at run time ($CMD, $(...), the {} of find -exec).
	UnseenProgram UnseenKind = 1 << iota
	// UnseenGlobProgram: the program's name is a pattern bash replaces with file names (/usr/bin/r?).
	UnseenGlobProgram
	// UnseenWrittenCode: the part runs, as a program, a script or a sourced file, a path the same
	// command writes or links first (printf ... > s.sh; bash s.sh, ln -s /bin/rm x; ./x).
	UnseenWrittenCode
	// UnseenStreamCode: code that arrives on a stream: a process substitution (source <(...)),
	// /dev/stdin or /dev/fd/N as a script, a pipe or a here-document into an interpreter.
	UnseenStreamCode
	// UnseenInlineCode: code in a language Warden does not read, given in the command (python3 -c,
	// node -e, perl -e, an awk program that runs commands, sed's e command).
	UnseenInlineCode
	// UnseenLaterCode: code kept to run later: a trap's body, PROMPT_COMMAND, fc, and writes to git's
	// configuration and hooks, which later git commands run.
	UnseenLaterCode
	// UnseenProgramEnv: a variable that changes which programs run or what they load (PATH,
	// LD_PRELOAD, BASH_ENV, ENV, GIT_*...).
	UnseenProgramEnv
	// UnseenShellRules: a change to how bash reads what follows (alias, hash -p, enable, shopt, set -k).
	UnseenShellRules
	// UnseenSplitWords: env -S, which splits a string into a command.
	UnseenSplitWords
	// UnseenGitProgram: git told to run a command: a -c key that names a program, rebase --exec,
	// bisect run, submodule foreach, filter-branch's filters, --upload-pack, a remote helper.
	UnseenGitProgram
	// UnseenForeignBody: a body read as bash only for deny and ask rules (another shell's, eval's, a
	// script piped into a shell): what really runs may differ.
	UnseenForeignBody
	// UnseenUnread: a construct Warden does not read at all (a coprocess, a syntax error, a command too
	// long or too deeply nested).
	UnseenUnread
	// UnseenFreshLink: a path the part reads or writes that the same command may turn into a link
	// first (ln -s secrets/k x; cat x).
	UnseenFreshLink
	// UnseenFileList: a program that takes the names of the files it reads from its input or a list
	// file (cpio -o, tar -T -, zip -@, rsync --files-from).
	UnseenFileList
	// UnseenGivenCommand: a program told to run a command in an option or its arguments (tar
	// --to-command, ssh -o ProxyCommand, rsync -e, less +!, su -c, parallel, tmux, at, crontab).
	UnseenGivenCommand
)

// LastUnseen is the last kind, for tests that walk them all.
const LastUnseen = UnseenGivenCommand

// Unsee marks the part as doing something of kind k that Warden cannot see; why says what, for the
// person. The part is not read-only.
func (p *Part) Unsee(k UnseenKind, why string) {
	if p.Unseen == 0 {
		p.UnseenWhy = why
	}
	p.Unseen |= k
	p.NotRO(why)
}

// UnseeVar marks the assignment of a variable SensitiveVar named (why is its reason), unless it is one
// of QuietVars.
func (p *Part) UnseeVar(name, why string) {
	if !QuietVars[name] {
		p.Unsee(UnseenProgramEnv, why)
	}
}

// SensitiveAssign records that the part gives a variable SensitiveVar named (why is its reason) to its
// program: not read-only, and unseen unless it is one of QuietVars, or one a program's model reads
// (modelledVars), which that model must account for (EnvModel).
func (p *Part) SensitiveAssign(name, why string) {
	p.Effect(why)
	switch {
	case QuietVars[name]:
	case modelledVars[name]:
		p.EnvModel = append(p.EnvModel, name)
	default:
		p.Unsee(UnseenProgramEnv, why)
	}
}

// modelledVars are variables of SensitiveVar's families that a program's model reads as its own
// options (GOFLAGS for go): set for that program, they are judged with its command line; set for any
// other, they are unseen.
var modelledVars = map[string]bool{"GOFLAGS": true}

// QuietVars are variables of SensitiveVar's families that change neither which programs run nor what
// they load: build switches and commit identities set every day. Setting one is still not read-only.
var QuietVars = map[string]bool{
	"CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true, "GOMAXPROCS": true,
	"GOGC": true, "NODE_ENV": true, "NODE_NO_WARNINGS": true, "PYTHONUNBUFFERED": true,
	"PYTHONDONTWRITEBYTECODE": true, "PYTHONHASHSEED": true, "PYTHONIOENCODING": true,
	"CARGO_TERM_COLOR": true, "CARGO_INCREMENTAL": true, "GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true,
	"GIT_AUTHOR_DATE": true, "GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_TERMINAL_PROMPT": true,
}
