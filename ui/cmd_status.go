package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

func init() {
	registerBuiltin(Command{Name: "status", Desc: "model, server, context, tokens, session, sandbox, wall and rules",
		Run: func(m *Model, _ string) tea.Cmd {
			m.push(newTextPager(m.overlayCtx(), "Status", m.statusText(), "", ""))
			return nil
		}})
}

// statusText is the session's state, one fact a line.
func (m *Model) statusText() string {
	o := m.opts
	var b strings.Builder
	row := func(label, value string) { fmt.Fprintf(&b, "%-13s %s\n", label, value) }
	row("Model", or(o.Model, "none"))
	row("Server", or(o.BaseURL, "not set"))
	row("Session", or(o.SessionID, "not saved"))
	row("Context", m.contextStatus())
	u := m.usage.Total
	row("Tokens", fmt.Sprintf("%s prompt, %s completion in this session's requests%s", commas(u.PromptTokens), commas(u.CompletionTokens), estimated(m.usage.Estimated)))
	if e := o.Engine; e != nil {
		row("Mode", string(e.Mode())+" ("+hintKeys(m.keys.Mode)+" or /mode changes it)")
	}
	switch {
	case o.Sandbox != "":
		row("Sandbox", strings.TrimPrefix(o.Sandbox, "sandbox: "))
	case o.SandboxProblem != "":
		row("Sandbox", "asked for but cannot be had: "+o.SandboxProblem)
	default:
		row("Sandbox", "off: commands run with your access, limited by the permission rules")
	}
	switch {
	case o.Wall != "":
		row("Wall", strings.TrimPrefix(o.Wall, "wall: "))
	case o.Settle != nil:
		row("Wall", "being found out (a moment after start)")
	default:
		row("Wall", "not reported by this build")
	}
	trust := "not trusted"
	if n := m.waitingCount(); n > 0 {
		trust = fmt.Sprintf("not trusted: %s %s for your approval, /trust", plural(n, "item", "items"), pluralWord(n, "waits", "wait"))
	} else if m.trusted() {
		trust = "trusted"
	}
	row("Workspace", o.Workspace+" ("+trust+")")
	if len(o.Instructions) > 0 {
		row("Instructions", strings.Join(o.Instructions, ", "))
	}
	if len(o.SettingsFiles) > 0 {
		row("Settings", strings.Join(mapStrings(o.SettingsFiles, shortPath), ", "))
	} else {
		row("Settings", "no settings file")
	}
	if o.MCP != nil {
		ready, total := o.MCP.Counts()
		row("MCP", fmt.Sprintf("%d of %s ready (/mcp)", ready, plural(total, "server", "servers")))
	}
	if o.Tasks != nil {
		row("Tasks", plural(o.Tasks.Running(), "background task running", "background tasks running")+" (/tasks)")
	}
	if o.Engine != nil {
		rows, none := m.ruleRows()
		b.WriteString("\nRules in force (/permissions removes one):\n")
		if len(rows) == 0 {
			b.WriteString("  " + none + "\n")
		}
		for _, r := range rows {
			fmt.Fprintf(&b, "  %-5s  %s  from %s\n", r.cells[0], r.cells[1], r.cells[2])
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// contextStatus says how full the model's context is and how much is left.
func (m *Model) contextStatus() string {
	used, window := m.usage.Context, m.usage.Window
	if used == 0 {
		used = m.usage.Last.PromptTokens + m.usage.Last.CompletionTokens
	}
	if window == 0 {
		window = m.opts.ContextWindow
	}
	if used == 0 {
		return "not measured yet (after the first answer)"
	}
	s := commas(used) + " tokens used" + estimated(m.usage.Estimated)
	if window > 0 {
		s += fmt.Sprintf(" of %s (%d%%), %s left", commas(window), used*100/window, commas(max(window-used, 0)))
	}
	return s
}

func estimated(e bool) string {
	if e {
		return " (estimated: the server reports no usage)"
	}
	return ""
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
