// Package supplied finds what the working tree supplies to a program Warden would otherwise take for the
// system's tool of its name. A program of the read-only table is read-only only while nothing it loads
// on its own, from the working tree, the directories above it or the environment, makes it run a
// program, write or reach the network. The survey (survey.go) says, for every program of the table, what
// it loads and how a call is judged with it (Check); a test keeps the survey and the table in step. The
// judgements read what the program reads, in Go, never by running it: the configuration chain of the
// repository git really uses (git.go), and what it names for reaching a remote, which git's network
// subcommands run though they are not in the table (git_transport.go), go's, node's and rust's
// toolchain files (golang.go, node.go, rust.go), the configuration of rg, docker compose, pip, maven,
// dotnet and bundler (tools.go). A
// program found on PATH inside the workspace, or outside the system's program directories as a link
// to another program, is not the system's tool of its name (PathProgram).
//
// A finding whose file lies in the workspace or one of a repository's directories is what the working
// tree supplies (Supplies): it is recorded on the part, and no allow rule covers it. What the person's
// own files and environment configure is theirs, and a rule of theirs allows it.
//
// It imports the vocabulary (shell), git's command line (gitargs) and leaves: never the engine nor the
// read-only table (programs), which calls it.
package supplied
