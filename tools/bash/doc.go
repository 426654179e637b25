// Package bash is the bash engine and its tools (bash, bash_output, kill_bash; DESIGN.md §4). Tasks runs
// every command of a session: a fresh `bash -c` in the session's directory, with empty stdin, the
// allow-listed environment (tools.Env.ChildEnv) and resource limits set by the shell's first statements
// (limits.go); started by the session's supervisor (tools/supervisor), by the read-only jail's when the
// call was judged read-only (wall.go, tools/jail), or confined by the first wall when the person turned it
// on (tools/sandbox). Output streams live, cleaned of escapes and progress redraws (clean.go), and reaches
// the model bounded, as head and tail with the whole in a file (output.go, truncate.go). A timeout, an
// interrupt or Warden's exit stops the whole process group, TERM then KILL, and nothing a command started
// outlives it (process.go); a command may be moved to the background and read later (tasks.go,
// task_end.go). Commands that would wait for a terminal are refused before they run (interactive.go).
// Programs Warden keeps running beside the commands (MCP servers) are started the same way (program.go).
//
// What the engine reuses between commands is its Tasks' own, never the package's: the answers of the
// sandbox's and the jail's probes, idle final-directory pipes, emptied pids cgroups, read buffers. Where
// pids cgroups can be made is a fact about the process and is found once.
//
// It imports the framework (tools) and the confinements below it (sandbox, jail, supervisor, confine);
// it must never import files, permissions, agent, config or ui.
package bash
