package mcp

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/printable"
)

// ServerStatus is what `/mcp` and `warden mcp list` show of one server.
type ServerStatus struct {
	Name string
	// Transport is stdio, http or sse; Target the command line or URL as configured.
	Transport, Target string
	// File is the settings file that configured the server.
	File  string
	State State
	// Error says why the server failed or exited, with the tail of its stderr.
	Error string
	// Log is the file holding the server's stderr (stdio servers).
	Log     string
	Tools   []ToolStatus
	Prompts []PromptStatus
	// DroppedTools counts tools beyond the limit of one server.
	DroppedTools int
	// HintTrusted says the server's read-only marks are trusted.
	HintTrusted bool
}

// ToolStatus is one tool of a server.
type ToolStatus struct {
	// Name is mcp__SERVER__TOOL; Remote the server's own name for it.
	Name, Remote string
	ReadOnly     bool
}

// Status describes every server, in the order configured.
func (m *Manager) Status() []ServerStatus {
	var out []ServerStatus
	for _, s := range m.list() {
		s.mu.Lock()
		st := ServerStatus{Name: s.entry.Name, Transport: s.entry.Transport(), Target: s.entry.Target(),
			File: printable.Escape(s.entry.File), State: s.state, Error: printable.EscapeLines(s.err), DroppedTools: s.dropped,
			HintTrusted: s.entry.TrustReadOnly != nil && *s.entry.TrustReadOnly}
		if st.Transport == "stdio" {
			st.Log = s.stderr.path
		}
		for _, t := range s.tools {
			st.Tools = append(st.Tools, ToolStatus{Name: t.name, Remote: printable.Escape(t.remote), ReadOnly: t.readOnly})
		}
		st.Prompts = s.promptStatusLocked()
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// Counts returns how many servers are ready, and how many there are.
func (m *Manager) Counts() (ready, total int) {
	for _, s := range m.list() {
		s.mu.Lock()
		if s.state == Ready {
			ready++
		}
		total++
		s.mu.Unlock()
	}
	return ready, total
}

// Format writes the servers' status as text, for `warden mcp list` and `/mcp`.
func Format(list []ServerStatus) string {
	if len(list) == 0 {
		return "No MCP servers are configured. Add them under \"mcpServers\" in a settings file or in .mcp.json (see the README).\n"
	}
	var b strings.Builder
	for i, s := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s  %s  (%s) %s\n", s.Name, s.State, s.Transport, s.Target)
		fmt.Fprintf(&b, "  from %s\n", s.File)
		if s.Error != "" {
			for _, l := range strings.Split(s.Error, "\n") {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
		if len(s.Tools) > 0 {
			names := make([]string, 0, len(s.Tools))
			for _, t := range s.Tools {
				n := t.Name
				if t.ReadOnly {
					n += " (read-only"
					if !s.HintTrusted {
						n += ", not trusted"
					}
					n += ")"
				}
				names = append(names, n)
			}
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(names, ", "))
		}
		if s.DroppedTools > 0 {
			fmt.Fprintf(&b, "  %d more tools left out (at most %d a server)\n", s.DroppedTools, maxTools)
		}
		if len(s.Prompts) > 0 {
			names := make([]string, 0, len(s.Prompts))
			for _, p := range s.Prompts {
				names = append(names, "/"+p.Command)
			}
			fmt.Fprintf(&b, "  prompts: %s\n", strings.Join(names, ", "))
		}
	}
	return b.String()
}
