// Package app is Warden the application. Run (app.go) reads one command line and either runs a session
// (start.go), full-screen (tui.go) or headless for one request (headless.go), with what is piped beside the
// prompt (piped.go), or serves a subcommand, one file each (cmd_check.go, cmd_history.go, cmd_sessions.go,
// cmd_undo.go, cmd_mcp.go, cmd_trust.go). commandline.go reads the command line: global flags before or
// after a subcommand's name, a prompt given as words, -p and --resume with or without their value;
// exit.go holds a run's exit statuses.
//
// A session is built in compose.go from the settings (settings.go): the permission engine, the bash engine
// and its tasks, the file tools, the MCP servers (mcp.go), the hooks (hooks.go), the skills (skills.go), the
// checkpoints (checkpoints.go), web_fetch's judge of hosts (hosts.go) and the agent's options over them.
// session.go holds its life: its file opened (store.go finds and names session files), settled, given what
// the person approves (trust.go), switched for another, closed.
//
// benchstats.go is built only with -tags benchstats, for bench/: the soak asks such a binary for its
// goroutines and heap, and a profile of the real binary shows where a figure's CPU goes.
//
// Package main hands Run the command line and the build's version, and nothing imports app. It may import any
// of Warden's other packages (ui, agent, tools and the tool packages, permissions, config, mcp, hooks,
// checkpoint, commands, skills, piped and the leaves); none of them may import it. It keeps no state in
// package variables: what a run shares is its session.
package app
