package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// A server's "defer" and the share mcp_defer_percent are read, and a share that is not one is an error
// where it was written.
func TestTheDeferSettingsAreReadAndChecked(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.user, `{"mcp_defer_percent": 25, "mcpServers": {"big": {"type": "http", "url": "https://big/mcp", "defer": true},
		"small": {"type": "http", "url": "https://small/mcp", "defer": false}, "auto": {"type": "http", "url": "https://auto/mcp"}}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*bool{}
	for _, e := range cfg.MCPServers {
		got[e.Name] = e.Defer
	}
	if got["big"] == nil || !*got["big"] || got["small"] == nil || *got["small"] || got["auto"] != nil || cfg.DeferPercent() != 25 {
		t.Errorf("defer %v, percent %d", got, cfg.DeferPercent())
	}

	f.write(t, f.user, `{}`)
	if cfg, err := f.load(t, Overrides{}); err != nil || cfg.DeferPercent() != DefaultMCPDeferPercent {
		t.Errorf("unset: %v %v", cfg.DeferPercent(), err)
	}
	// In the person's own file a bad value is an error where it was written; in a project's file, a warning
	// naming the same place, and that file is left out.
	f.write(t, f.user, "{\n  \"mcp_defer_percent\": 150\n}")
	if _, err := f.load(t, Overrides{}); err == nil || !strings.Contains(err.Error(), "user.json:2:3: mcp_defer_percent is a share") {
		t.Errorf("150%%: %v", err)
	}
	f.write(t, f.user, `{"mcpServers": {"x": {"type": "http", "url": "https://x/mcp", "Defer": true}}}`)
	if _, err := f.load(t, Overrides{}); err == nil || !strings.Contains(err.Error(), "defer") {
		t.Errorf("a key in the wrong case: %v", err)
	}
	f.write(t, f.user, `{}`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), "{\n  \"mcp_defer_percent\": 150\n}")
	cfg, err = f.load(t, Overrides{})
	if err != nil || cfg.DeferPercent() != DefaultMCPDeferPercent || !strings.Contains(strings.Join(cfg.Warnings, "\n"), "settings.json:2:3: mcp_defer_percent is a share") {
		t.Errorf("a project's 150%%: err %v, percent %d, warnings %q", err, cfg.DeferPercent(), cfg.Warnings)
	}
}
