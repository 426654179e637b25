// Package programs is the read-only table: what Warden knows of each program it may let run unasked.
// A program's row (table.go) says which of its options write or run something, which take a value or
// name a file the program reads, and what its operands are; a program a row cannot describe has a check
// of its own: git's read subcommands and what they print of the repository (git.go, git_config.go,
// git_content.go), sed's and awk's scripts and find's expressions (text.go, awk.go), the recursive walks
// of grep, rg, ag and diff (search.go), the read-only corners of status commands and developer tools
// (status.go, tools.go). Check judges one simple command by its row; a program the table does not have
// is not read-only. Dangerous says which commands are catastrophic, and substitutions.go which file
// names a command substitution lists.
//
// A check that finds a command inside another (find -exec's) judges it through shell.Judge, which the
// engine's walker implements. It imports the vocabulary (shell), the walks (treewalk), git's command
// line (gitargs) and the supplied-program survey (supplied): never the engine nor the promise's models
// (package models), which import it.
package programs
