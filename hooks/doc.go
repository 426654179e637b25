// Package hooks runs the person's hook programs at points of a session in Claude Code's protocol, so that
// hook scripts written for Claude Code work unchanged. A hook is told of its event by a JSON object on its
// standard input (session_id, transcript_path, cwd, permission_mode, hook_event_name and the event's own
// fields: tool_name, tool_input, tool_response, prompt, stop_hook_active, source, reason, trigger,
// message), with Claude Code's tool names (Bash, Read, Edit, mcp__server__tool) and field names
// (file_path, old_string…). It answers with its exit status (0 goes on, 2 blocks, anything else is an
// error that blocks nothing) and, on 0, optionally with a JSON object on standard output (decision,
// reason, continue, stopReason, suppressOutput, systemMessage, hookSpecificOutput).
//
// The package decides nothing about the session: a Runner runs the hooks an event matches, all at once,
// and returns one Outcome, which the agent applies. A hook's "allow" goes to the permission engine as an
// allow rule naming the call, no more; its "deny" and "ask" always hold.
//
// Hooks are started as the session's MCP servers are, through a StartFunc the session gives (its
// supervisor, so that they die with Warden even when it is killed), by bash in a process group of their
// own, with the allow-listed environment commands get plus CLAUDE_PROJECT_DIR; a project's hook in the
// workspace's top folder, where the files its approval covers were read, the person's where the session
// is. One that overruns its timeout (60 s unless its settings say otherwise) is killed with its group and
// counts as a failure; what it prints is bounded; nothing it starts outlives it.
//
// It imports config (the hooks as the settings give them) and the tools framework (a call's result), and
// must never import agent or anything above it.
package hooks
