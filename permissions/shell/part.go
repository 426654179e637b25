package shell

import (
	"fmt"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// NotRO marks the part as not read-only, keeping the first reason found. What is not read-only is not
// modelled either, unless the caller knows it is (effect) or the program's model accounts for it
// (package models): "not modelled" is the default, so that nothing Warden does not follow is allowed by yolo
// or an allow rule while deny or ask rules are in force.
func (p *Part) NotRO(reason string) {
	p.Effect(reason)
	p.Unmodel(reason)
}

// Effect marks the part as not read-only for an effect Warden models in full: a write of a known file,
// a change of directory it follows.
func (p *Part) Effect(reason string) {
	if p.ReadOnly || p.Reason == "" {
		p.Reason = reason
	}
	p.ReadOnly = false
	p.EditOnly = false
	p.Marks++
}

// Unmodel records that Warden's model of the part ends here, for why, keeping the first reason.
func (p *Part) Unmodel(why string) {
	if p.Unmodelled == "" {
		p.Unmodelled = why
	}
}

// WriteFile records a known file write. A part whose only effect so far is writing known files stays
// EditOnly, so accept-edits mode and Edit/Write rules can allow it.
func (p *Part) WriteFile(shown, path string) {
	editOnly := p.ReadOnly || p.EditOnly
	p.Effect(fmt.Sprintf("writes to `%s`", shown))
	p.EditOnly = editOnly
	p.Writes = append(p.Writes, path)
}

// Part is one simple command of a classified command line (or a redirection of a compound command),
// with what it was found to do.
type Part struct {
	// Text is the exact substring of the classified command this part comes from, for highlighting.
	// A part found inside a `bash -c` body or a here-document carries the text of the outer command.
	Text string
	// Args is the argument vector after wrappers are peeled and quotes removed. Words only known at run
	// time appear as their source text. It is empty for a redirection of a compound command.
	Args []string
	// Layers lists the argument vector at each wrapper level, outermost first; the last one is Args.
	Layers [][]string
	// Static is true when every word of the part was resolved without running anything.
	Static bool
	// ReadOnly is true when the part changes nothing: no writes, no programs Warden cannot see through.
	ReadOnly bool
	// Reason says, for a part that is not read-only or that reads a secret, why.
	Reason string
	// Reads and Writes are the absolute paths the part is known to read or write. A relative path whose
	// directory is unknown (after `cd -`, say) is kept relative.
	Reads, Writes []string
	// Secret is true when the part reads credentials or keys.
	Secret bool
	// Dangerous is true for catastrophic commands: wiping / or home, mkfs, writing block devices, fork bombs.
	Dangerous bool
	// Privileged is true when the part runs through sudo or doas; rules for the inner command never allow it.
	Privileged bool
	// EditOnly is true when the part's only effect is writing the files in Writes, all of them known.
	EditOnly bool

	// Supplied is why the program would run what the working tree supplies (a program the repository's
	// git configuration names, a toolchain path in rust-toolchain.toml): a Bash allow rule names the
	// program as the person knows it, not that, so it does not cover the part.
	Supplied string
	// RunsAs is the program a link found on PATH runs under another name (~/.local/bin/ls -> /bin/rm
	// runs rm): a Bash allow rule covers the part only when it names that program, never the name.
	RunsAs string

	// RedirWrites are the files written by redirections, which a Bash allow rule for the program does
	// not cover on its own.
	RedirWrites []string
	// FromFind is set for the command of find -exec: its {} stands for every file found, so no rule
	// written from its words would mean what the person saw.
	FromFind bool
	// ActsItself is set when a wrapper acts itself (sudo, strace): rules for the inner command do not allow.
	ActsItself bool
	// Unseen names the kinds of thing the part does that Warden cannot see (unseen.go); unseenWhy says,
	// for the first one marked, what it is.
	Unseen    UnseenKind
	UnseenWhy string
	// Unmodelled says why Warden's model of the part ends (package models), or is empty when the part is
	// read-only or every word of it is modelled: while deny or ask rules are in force, such a part asks.
	Unmodelled string
	// Loose are the paths the part reads or writes that are only known at run time (loose.go).
	Loose []LoosePath
	// Inputs are files the program reads as code by itself when they exist (a Makefile, package.json,
	// .git/hooks), and RunsBelow directories whose files it runs (go test, pytest): what the same
	// command writes there is code written and run in one call (the engine's unseen_fresh.go).
	Inputs, RunsBelow []string
	// RunGlobs are patterns naming what the part runs, to be matched against what the same command
	// writes: bash expands them when the part runs, after the writes.
	RunGlobs []string
	// EnvModel are variables the command line gives the program that its model must read as its own
	// options (modelledVars); any left when the part is judged are unseen.
	EnvModel []string
	// Runs are the files the part runs as code (a program by its path, a script given to a shell or an
	// interpreter, a sourced file), for the engine's check (unseen_fresh.go) that the same command does not
	// write them.
	Runs []string
	// HandedReads and HandedWrites are the paths the part gives a program whose reads and writes Warden
	// does not model (tar, zip, git add -A, make -C): it may read or write anything there.
	HandedReads, HandedWrites []string
	// WritesInto are the directories a modelled program writes files of names Warden does not know into
	// (cp -t DIR): what it writes there counts as written in the command, code included.
	WritesInto []string
	// GitTakes are the paths git takes into the repository as it finds them below (git add, stash -u):
	// what git ignores there it leaves out.
	GitTakes []string
	// LayerStatic says, per layer and per word, whether the word was known before running.
	LayerStatic [][]bool
	// OpenTail is set under xargs: more arguments come at run time, so exact rules cannot match.
	OpenTail bool
	// Marks counts the times the part was found not read-only.
	Marks int
	// Trees are the directories the part reads recursively.
	Trees []treewalk.Tree
	// Objects are the repositories whose object store the part reads.
	Objects []gitrepo.Repo
	// ReadsInput is set when xargs gives the program file names from its input, which it reads;
	// InputOpts when those words may be options that read files (du --files0-from). NamesKnown is set
	// when the engine's pipedNames found out what the names are; InputDir is where the program resolves
	// them.
	ReadsInput, InputOpts, NamesKnown bool
	InputDir                          string
	// ScriptFromInput is set for a shell that runs the commands its input holds.
	ScriptFromInput bool
	// Called is the name a command was called by when it was judged as the program of that name, not
	// as a function.
	Called string
	// Producers are the programs the engine's pipedNames trusted to tell the names: the producer and the stages
	// between it and xargs.
	Producers []string
	// XargsRaw is set when xargs splits its input at NULs or a delimiter (-0, -d), not at blanks; ArgFile
	// when it reads them from a file (-a), not from its input.
	XargsRaw, ArgFile bool
	// Lists are the files find prints, for a pipeline that feeds them to xargs.
	Lists []treewalk.Tree
	// ArgStatic says, per word of Args, whether it was resolved without running anything; glob, whether
	// bash replaces it with the file names it matches, in dir.
	ArgStatic, ArgGlob []bool
	ArgDir             string
}

// UnseenOnly marks the part as doing something of kind k that Warden cannot see, leaving its read-only
// judgement as it is: the engine looks at such marks only while deny or ask rules are in force.
func (p *Part) UnseenOnly(k UnseenKind, why string) {
	if p.Unseen == 0 {
		p.UnseenWhy = why
	}
	p.Unseen |= k
}
