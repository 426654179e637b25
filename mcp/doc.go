// Package mcp connects Warden to Model Context Protocol servers and offers their tools to the model as
// mcp__SERVER__TOOL, each call decided by the permission engine like any other (the tools report
// tools.AccessMCP). It owns the servers' lifecycle: they start concurrently in the background, a server that
// fails or dies is reported with the tail of its stderr (kept in a log file) and started again on next use,
// every call is bounded in time and stops when its context ends, and answers are bounded like command
// output. What one conversation is offered of the tools is an Offer (defer.go): all of them, or, past a
// share of the context window, the search tool mcp_search and the tools it loaded.
//
// It is built on the official Go SDK (github.com/modelcontextprotocol/go-sdk) and imports only config (for
// the server entries), tools (for the Tool interface, the Env and the allow-listed environment a server
// gets), the bash engine's TextResult (an answer is shortened as a command's output is; the session starts
// stdio servers through its Tasks, handed in as a function) and the leaf printable (what a server wrote is
// escaped by its one table before anyone shows it); agent and ui use it through small interfaces of their
// own.
package mcp
