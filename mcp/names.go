package mcp

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// maxNameLen is the longest function name the OpenAI-compatible APIs accept.
const maxNameLen = 64

// toolNames names a server's tools (or prompts) as the model calls them: mcp__SERVER__TOOL, with the
// characters the APIs refuse replaced by _, shortened with a hash of the original when too long, and unique
// among the server's names. A tool whose own name needs no change always keeps it: a rule the person wrote
// for mcp__S__delete_all must reach the tool the server calls delete_all, never one called delete.all that
// happened to be listed first and took the name, pushing the real one to delete_all_2. Names that had to
// change are given out in the order of the tools' own names, so that a server listing the same tools in
// another order does not swap them.
func toolNames(server string, remote []string) []string {
	out := make([]string, len(remote))
	taken := map[string]bool{}
	var changed []int
	for i, r := range remote {
		if n := "mcp__" + server + "__" + r; cleanName(r) && len(n) <= maxNameLen && !taken[n] {
			out[i], taken[n] = n, true
			continue
		}
		changed = append(changed, i)
	}
	slices.SortStableFunc(changed, func(a, b int) int { return strings.Compare(remote[a], remote[b]) })
	for _, i := range changed {
		out[i] = toolName(server, remote[i], taken)
	}
	return out
}

// cleanName reports whether a tool's own name can be used as it is.
func cleanName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !nameRune(r) }) < 0
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// toolName makes one name safe and unique among taken, and takes it.
func toolName(server, tool string, taken map[string]bool) string {
	clean := strings.Map(func(r rune) rune {
		if nameRune(r) {
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
	for i, first := 2, name; taken[name]; i++ {
		suffix := fmt.Sprintf("_%d", i)
		name = first[:min(len(first), maxNameLen-len(suffix))] + suffix
	}
	taken[name] = true
	return name
}
