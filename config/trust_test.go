package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Pressing p in the approval modal saves one rule. In a workspace the person did not trust, that must not
// trust the workspace: the repository's own settings (allow everything, the jail off) and its MCP servers
// stay ignored at the next start, while the saved rule applies as the person meant it.
func TestSavingAProjectRuleDoesNotTrustTheWorkspace(t *testing.T) {
	f := newFixture(t)
	getenv := func(k string) string { return f.env[k] }
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"permissions":{"allow":["Bash"]},"sandbox":{"jail":false}}`)
	f.write(t, filepath.Join(f.ws, ".mcp.json"), `{"mcpServers":{"marker":{"command":"touch","args":["/tmp/marker"]}}}`)

	if err := AddProjectAllow(f.o, getenv, f.ws, "Bash(npm test:*)"); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Trusted || !slices.Equal(cfg.Allow, []string{"Bash(npm test:*)"}) || !cfg.SandboxJail {
		t.Errorf("after p: trusted %v, allow %q, jail %v; want untrusted, only the saved rule, the jail on", cfg.Trusted, cfg.Allow, cfg.SandboxJail)
	}
	if len(cfg.MCPServers) != 0 || len(cfg.UntrustedMCPServers) != 1 {
		t.Errorf("the project's MCP server would start: %+v", cfg.MCPServers)
	}
	joined := strings.Join(cfg.Untrusted, "\n")
	if strings.Contains(joined, "npm test") || !strings.Contains(joined, "allow rule Bash") || !strings.Contains(joined, "sandbox.jail false") {
		t.Errorf("the trust prompt should list the repository's settings and not the person's own rule: %q", cfg.Untrusted)
	}
}

// Only rules the person saved count as theirs: the same file may hold rules the repository wrote (a
// settings.local.json committed with git add -f), and those wait for trust like the rest.
func TestOnlyTheRulesThePersonSavedApplyUntrusted(t *testing.T) {
	f := newFixture(t)
	getenv := func(k string) string { return f.env[k] }
	local := filepath.Join(f.ws, ".warden", "settings.local.json")
	f.write(t, local, `{"permissions":{"allow":["Bash(curl:*)"]},"sandbox":{"jail":false}}`)
	if err := AddProjectAllow(f.o, getenv, f.ws, "Bash(make test:*)"); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Allow, []string{"Bash(make test:*)"}) || !cfg.SandboxJail {
		t.Errorf("allow %q, jail %v; want only the saved rule and the jail on", cfg.Allow, cfg.SandboxJail)
	}
	if joined := strings.Join(cfg.Untrusted, "\n"); !strings.Contains(joined, "allow rule Bash(curl:*)") || strings.Contains(joined, "make test") {
		t.Errorf("untrusted report %q", cfg.Untrusted)
	}

	// Another workspace's saved rules are not this one's.
	other := newFixture(t)
	other.env = f.env
	other.write(t, filepath.Join(other.ws, ".warden", "settings.local.json"), `{"permissions":{"allow":["Bash(make test:*)"]}}`)
	if cfg, err = other.load(t, Overrides{}); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Allow) != 0 {
		t.Errorf("a rule saved in %s applied in %s: %q", f.ws, other.ws, cfg.Allow)
	}

	// A rule the person took out of the file by hand is gone, whatever the record says.
	f.write(t, local, `{}`)
	if cfg, err = f.load(t, Overrides{}); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Allow) != 0 {
		t.Errorf("a rule removed from the file still applies: %q", cfg.Allow)
	}
}

// The record of saved rules is the person's; a broken one is an error saying what to do, not a silent
// loss of every rule they saved.
func TestBrokenSavedRulesRecordIsAClearError(t *testing.T) {
	f := newFixture(t)
	getenv := func(k string) string { return f.env[k] }
	if err := os.MkdirAll(StateDir(getenv), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, savedRulesFile(getenv), `[`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.local.json"), `{"permissions":{"allow":["Bash(make:*)"]}}`)
	_, err := f.load(t, Overrides{})
	if err == nil || !strings.Contains(err.Error(), "fix or delete it") {
		t.Errorf("err %v", err)
	}
}
