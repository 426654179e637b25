// Package app is Warden the application: it reads the command line, builds a session from the settings
// (the permission engine, the bash engine and file tools, the MCP servers, checkpoints, the agent) and runs
// it full-screen or headless, and it serves the subcommands (check, history, sessions, undo, mcp list).
//
// Package main only hands it the command line. Nothing imports app; it imports ui, agent, tools,
// permissions, config and the packages below them, never the other way round.
package app
