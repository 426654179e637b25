// Package models is the promise's knowledge of programs: what each word of a command line is to the
// program that takes it. While deny or ask rules are in force, the engine lets yolo, an allow rule,
// accept-edits or the sandbox's auto-allow run a part that does more than read only when a model here
// accounts for every word of it (grammar.go): the program's options in every spelling it accepts, each
// value and operand given a role (data, a path read or written, a directory worked in, a script run,
// code, a shell command), globs expanded and every path resolved and recorded on the part. Modelled: the
// coreutils writers, sed and gofmt (files.go), git's writing subcommands (git.go), make, npm, yarn, pnpm,
// node, python, pip, pytest, ruff, mypy, prettier and eslint (project.go), go and cargo (golang.go).
//
// It also knows the wrappers, programs that run another one given in their words (wrappers.go,
// wrappers_grammar.go), and marks on the part what a program hands Warden that it cannot read: code in
// another language or on a stream, a script, a command an option names (code.go, given.go, git_runs.go).
//
// It imports the vocabulary (shell), git's command line (gitargs) and the read-only table (programs):
// never the engine, which imports it.
package models
