package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/warden-cli/warden/agent"
)

// mcpBodyLines is the approval modal's body for a call to an MCP server's tool: the server, the tool with
// the server's read-only mark, and the arguments as indented JSON (the modal scrolls them when long), every
// control character made visible.
func mcpBodyLines(st *styles, req agent.ApprovalRequest, inner int) []string {
	t := req.Access.MCP
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, inner), "\n")...) }
	add(st.dim.Render("server ") + st.highlight.Render(t.Server))
	tool := st.dim.Render("tool   ") + st.highlight.Render(t.Tool)
	if t.ReadOnlyHint {
		if t.HintTrusted {
			tool += st.dim.Render("  marked read-only by the server")
		} else {
			tool += st.warn.Render("  marked read-only by the server (not trusted)")
		}
	}
	add(tool)
	add(st.dim.Render("arguments"))
	var b bytes.Buffer
	if err := json.Indent(&b, req.Input, "", "  "); err != nil {
		b.Reset()
		b.Write(req.Input)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		add(highlightPart(l, "", st.highlight, st.control, st.dim))
	}
	return lines
}
