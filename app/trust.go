package app

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/permissions"
)

// The workspace's trust while a session runs (DESIGN.md §6): the TUI asks about the items the settings
// found waiting; what the person approves is recorded, exactly as it was shown, and applied at once where
// it can change while Warden runs (allow rules, the mode, MCP servers; the TUI reads the project's
// commands again), the rest from the next start. A headless run asks nothing: it names what waits once.

// sessionTrust is the TUI's view of the workspace's trust (ui.Trust).
type sessionTrust struct {
	s *session
	c *commonFlags
}

func (t sessionTrust) Items() []config.TrustItem { return t.s.cfg.TrustItems }

// Approve records items as approved and applies what they let in.
func (t sessionTrust) Approve(items []config.TrustItem) error {
	if err := config.ApproveItems(t.s.opener, os.Getenv, t.s.cfg.Workspace, items); err != nil {
		return err
	}
	return t.s.applyApproved(t.c)
}

// Decline records items as declined: they stay off, and /trust lists them as declined.
func (t sessionTrust) Decline(items []config.TrustItem) error {
	if err := config.DeclineItems(t.s.opener, os.Getenv, t.s.cfg.Workspace, items); err != nil {
		return err
	}
	for i, it := range t.s.cfg.TrustItems {
		if slices.ContainsFunc(items, func(d config.TrustItem) bool { return d.Digest == it.Digest }) {
			t.s.cfg.TrustItems[i].State = config.TrustDeclined
		}
	}
	return nil
}

// applyApproved reads the settings again, now that the record holds more, and applies what they let in
// that can change while Warden runs: the MCP servers that waited and now start (each exactly as it was
// approved: one changed since is another item, and still waits), allow rules, and the permission mode
// unless a flag chose it. The session's items become the new reading's, so that what changed meanwhile
// is what waits.
func (s *session) applyApproved(c *commonFlags) error {
	now, err := loadConfig(c)
	if err != nil {
		return err
	}
	held := map[string]bool{}
	for _, e := range s.cfg.UntrustedMCPServers {
		held[e.Name] = true
	}
	var start []config.MCPServerEntry
	for _, e := range now.MCPServers {
		if held[e.Name] {
			start = append(start, e)
		}
	}
	s.mcp.Add(start)
	s.hooks.SetHooks(now.Hooks, now.UntrustedHooks)
	if now.ProjectCommands && !s.cfg.ProjectCommands {
		s.trustSkills()
	}
	for _, r := range now.Allow {
		if !slices.Contains(s.cfg.Allow, r) {
			if err := s.engine.AddAllow(r); err != nil {
				return err
			}
			s.cfg.Allow = append(s.cfg.Allow, r)
		}
	}
	if c.mode == "" && now.Mode != s.cfg.Mode {
		mode, err := permissions.ParseMode(now.Mode)
		if err != nil {
			return err
		}
		s.engine.SetMode(mode)
		s.cfg.Mode = now.Mode
	}
	s.cfg.TrustItems, s.cfg.Untrusted, s.cfg.Trusted = now.TrustItems, now.Untrusted, now.Trusted
	s.cfg.ProjectCommands, s.cfg.UntrustedMCPServers = now.ProjectCommands, now.UntrustedMCPServers
	return nil
}

// waitingWarning is the one warning a run that asks nothing gives about what waits for approval, naming
// each item; "" when nothing waits.
func waitingWarning(cfg *config.Config) string {
	if len(cfg.Untrusted) == 0 {
		return ""
	}
	return fmt.Sprintf("ignoring what this workspace's files loosen that you have not approved (run warden trust to approve it, or pass --trust for this run alone): %s",
		strings.Join(cfg.Untrusted, "; "))
}
