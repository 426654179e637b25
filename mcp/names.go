package mcp

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// maxNameLen is the longest function name the OpenAI-compatible APIs accept.
const maxNameLen = 64

// toolName is the name the model calls a server's tool by: mcp__SERVER__TOOL, with the characters the APIs
// refuse replaced by _, shortened with a hash of the original when too long, and made unique among the
// server's tools (taken).
func toolName(server, tool string, taken map[string]bool) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, tool)
	if clean == "" {
		clean = "_"
	}
	name := "mcp__" + server + "__" + clean
	if len(name) > maxNameLen {
		h := fnv.New32a()
		h.Write([]byte(tool))
		name = fmt.Sprintf("%s_%08x", name[:maxNameLen-9], h.Sum32())
	}
	for i := 2; taken[name]; i++ {
		suffix := fmt.Sprintf("_%d", i)
		base := name
		if len(base)+len(suffix) > maxNameLen {
			base = base[:maxNameLen-len(suffix)]
		}
		name = base + suffix
	}
	taken[name] = true
	return name
}
