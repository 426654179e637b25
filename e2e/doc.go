// Package e2e holds the tests of Warden as a person and a script meet it: the real binary, built from the
// module's root, run in a fresh workspace with its own HOME and XDG directories, against the fake OpenAI
// server (agent/fakeapi) and, for the full-screen program, in a pseudo-terminal or tmux. They check what
// DESIGN.md promises of the command line, the event stream and exit statuses, the permissions and the
// walls, and the whole-program benchmarks that bench/run.sh prints live here too.
//
// The package has no code of its own. Its tests may use the packages below the application (the fake
// server, config, tools) to set a scene or to compare with, never package app: what they check goes
// through the binary.
package e2e
