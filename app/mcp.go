package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/mcp"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// Wiring of the MCP servers: their manager, the programs it starts through the session's supervisor, and
// the warnings about rules naming servers or tools that are not there.

// mcpRuleWarnings names the MCP rules whose server is a configured one spelt in another case: names are
// case-sensitive, so a deny rule mcp__GitHub for the server github would deny nothing, without a word.
func mcpRuleWarnings(cfg *config.Config) []string {
	var names []string
	for _, e := range append(slices.Clone(cfg.MCPServers), cfg.UntrustedMCPServers...) {
		names = append(names, e.Name)
	}
	var out []string
	for _, l := range []struct {
		name  string
		rules []string
	}{{"deny", cfg.Deny}, {"ask", cfg.Ask}, {"allow", cfg.Allow}} {
		for _, r := range l.rules {
			rest, ok := strings.CutPrefix(r, "mcp__")
			if !ok {
				continue
			}
			server, _, _ := strings.Cut(rest, "__")
			for _, n := range names {
				if n != server && strings.EqualFold(n, server) && !slices.Contains(names, server) {
					out = append(out, fmt.Sprintf("the %s rule %s names no MCP server; server names are case-sensitive: did you mean mcp__%s?", l.name, r, n))
					break
				}
			}
		}
	}
	return out
}

// newMCP starts the configured MCP servers in the background; it returns at once. Servers get the
// environment commands get (the allow-list, without the API key) plus their own `env`.
func newMCP(version string, cfg *config.Config, env *tools.Env, tasks *bash.Tasks, dir string) *mcp.Manager {
	settings := env.Bash
	m := mcp.New(mcp.Options{
		Workspace: cfg.Workspace,
		LogDir:    filepath.Join(dir, "mcp"),
		ChildEnv:  func(d string) []string { return tasks.ChildEnv(settings, d) },
		Start:     startProgram(tasks),
		Version:   version,
		Hold:      true, // released by the runner: at once headless, after the first frame in the TUI
	})
	m.Add(cfg.MCPServers)
	m.AddUntrusted(cfg.UntrustedMCPServers)
	return m
}

// mcpOffer is what a new conversation is offered of the MCP tools: each loads deferred tools for itself,
// and a resumed one goes on with those it called before.
func (s *session) mcpOffer() *mcp.Offer {
	o := s.mcp.Offer(s.cfg.ContextWindow, s.cfg.DeferPercent())
	var called []string
	for _, m := range s.history {
		for _, c := range m.ToolCalls {
			if strings.HasPrefix(c.Function.Name, "mcp__") {
				called = append(called, c.Function.Name)
			}
		}
	}
	o.Load(called...)
	return o
}

// startProgram starts MCP servers the way commands are started, through the session's supervisor, so that
// they and what they start are stopped when Warden goes, even when it is killed.
func startProgram(tasks *bash.Tasks) mcp.StartFunc {
	return func(name string, args, env []string, dir string, files []*os.File) (mcp.Proc, error) {
		p, err := tasks.StartProgram(name, args, env, dir, files)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}
