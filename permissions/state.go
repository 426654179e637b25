package permissions

import (
	"mvdan.cc/sh/v3/syntax"
)

// State is what one classification of a command line knows beyond the simple command being judged:
// where the command runs, the parts found so far, the functions it defines, what it exports, why
// arithmetic may run code, the repositories and directories looked up, and how far recursive reads
// have walked. Programs' judgements read and extend it through the Exec they are given.
type State struct {
	ctx Context
	// judge is the walker, which judges the commands programs run (Judge).
	judge Judge
	parts []Part
	// defined names every function declared anywhere in the command, whether or not it ran.
	defined map[string]bool
	// roots are the resolved workspace and additional directories, computed on first use.
	roots []string
	// tainted says why some variable may hold an array subscript, which arithmetic runs (arith.go).
	tainted string
	// walked counts the entries looked at below recursively read directories.
	walked int
	// followed are the directories walks reached through links; dirs caches resolved directories of
	// names git lists.
	followed map[string]bool
	dirs     map[string]string
	// substParts are, per command substitution, the parts its commands were judged as.
	substParts map[*syntax.CmdSubst][2]int
	// repos remembers the repositories found for directories during this classification.
	repos map[string]foundRepo
	// exports is set once the command exports a variable (export, declare -x): programs after it get
	// it in their environment.
	exports bool
}

// Judge judges commands found inside another one, for the programs' knowledge that finds them: the
// command find -exec runs (Run), a shell body (Script), a body Warden reads only for deny and ask rules
// (Untrusted). The engine's walker implements it; a program's judgement calls back through it rather
// than up into the engine.
type Judge interface {
	// Run judges words as the command e's program runs, in e's part.
	Run(e *exec, words []word)
	// Script judges body as a script a new shell runs (posix: /bin/sh reads it), in parts of its own.
	Script(e *exec, body string, posix bool)
	// Untrusted reads body as bash for deny and ask rules only: every part found is not read-only, and
	// unseen.
	Untrusted(e *exec, body, reason string)
}
