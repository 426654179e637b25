package permissions

import (
	"fmt"
	"strings"
)

// Calls to the tools of MCP servers are decided here: rules `mcp__SERVER` (every tool of a server, also
// written `mcp__SERVER__*`) and `mcp__SERVER__TOOL` in allow, ask and deny, in the order of DESIGN.md §5.
// A server's readOnlyHint stands in for the classifier's judgement only when the person said to trust that
// server's marks; otherwise it is shown, lets the tool past plan mode, and the call still asks.

// MCPCall is what an MCP request calls.
type MCPCall struct {
	// Server and Tool are the names as the model sees them in mcp__SERVER__TOOL.
	Server, Tool string
	// ReadOnlyHint is the server's claim that the tool changes nothing.
	ReadOnlyHint bool
	// HintTrusted says the person trusts this server's read-only marks.
	HintTrusted bool
}

// Name is the tool's name as the model calls it, and the narrowest rule that covers it.
func (c MCPCall) Name() string { return "mcp__" + c.Server + "__" + c.Tool }

const mcpPrefix = "mcp__"

// isMCPRuleName reports whether a rule's tool part names MCP tools.
func isMCPRuleName(tool string) bool { return strings.HasPrefix(tool, mcpPrefix) }

// parseMCPRule checks an MCP rule: mcp__SERVER, mcp__SERVER__* or mcp__SERVER__TOOL, with no pattern in
// parentheses (an MCP tool's arguments are not matched).
func parseMCPRule(raw, s string) (Rule, error) {
	if strings.ContainsAny(s, "()") {
		return Rule{}, fmt.Errorf("rule %q: MCP rules name a server or a tool, without parentheses: mcp__SERVER or mcp__SERVER__TOOL", raw)
	}
	server, tool, hasTool := strings.Cut(strings.TrimPrefix(s, mcpPrefix), "__")
	if server == "" || !mcpNameOK(server) || hasTool && tool != "*" && (tool == "" || !mcpNameOK(tool)) {
		return Rule{}, fmt.Errorf("rule %q: write mcp__SERVER or mcp__SERVER__TOOL with letters, digits, - and _", raw)
	}
	if tool == "*" {
		s = mcpPrefix + server
	}
	return Rule{Raw: raw, Tool: s}, nil
}

func mcpNameOK(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0
}

// matchMCP reports whether the rule covers the call: the whole server, or this one tool.
func (r *Rule) matchMCP(c MCPCall) bool {
	return r.Tool == mcpPrefix+c.Server || r.Tool == c.Name()
}

func firstMCPMatch(rules []Rule, c MCPCall) (Rule, bool) {
	for _, r := range rules {
		if r.matchMCP(c) {
			return r, true
		}
	}
	return Rule{}, false
}

func (e *Engine) decideMCP(s snapshot, req Request) Verdict {
	c := req.MCP
	what := fmt.Sprintf("calls `%s` of MCP server `%s`", c.Tool, c.Server)
	v := Verdict{Part: c.Name(), ReadOnly: c.ReadOnlyHint && c.HintTrusted}
	if r, ok := firstMCPMatch(s.deny, c); ok {
		v.Decision, v.By, v.Rule = Deny, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, denied by `%s`", what, r.Raw)
		return v
	}
	if r, ok := firstMCPMatch(s.ask, c); ok {
		v.Decision, v.By, v.Rule = Ask, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, which `%s` asks about", what, r.Raw)
		v.SuggestedRule = c.Name()
		return v
	}
	if s.mode == ModePlan && !c.ReadOnlyHint {
		v.Decision, v.By = Deny, "mode"
		v.Reason = fmt.Sprintf("%s, which its server does not mark read-only; plan mode only reads", what)
		return v
	}
	if r, ok := firstMCPMatch(s.allow, c); ok {
		v.Decision, v.By, v.Rule = Allow, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, allowed by `%s`", what, r.Raw)
		return v
	}
	if v.ReadOnly {
		v.Decision, v.By = Allow, "readonly"
		v.Reason = fmt.Sprintf("%s, marked read-only by a server whose marks you trust", what)
		return v
	}
	if s.mode == ModeYolo {
		v.Decision, v.By = Allow, "mode"
		v.Reason = fmt.Sprintf("%s; yolo mode allows it", what)
		return v
	}
	v.Decision, v.By, v.SuggestedRule = Ask, "policy", c.Name()
	switch {
	case c.ReadOnlyHint:
		v.Reason = fmt.Sprintf("%s; the server marks it read-only, but its marks are not trusted (trust_read_only)", what)
	default:
		v.Reason = what
	}
	return v
}
