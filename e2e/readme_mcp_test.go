package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/config"
)

// The README's .mcp.json example must load as written (starting it needs npx and the network; the mcp
// package's tests start the same servers from their installed binaries).
func TestREADMEMCPExampleLoads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## MCP servers")
	if !ok {
		t.Fatal("the README has no MCP section")
	}
	_, block, ok := strings.Cut(section, "```json\n")
	if !ok {
		t.Fatal("the MCP section has no JSON example")
	}
	block, _, _ = strings.Cut(block, "```")
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Sources{Workspace: ws, UserFile: filepath.Join(ws, "none.json"),
		Getenv: func(k string) string { return map[string]string{"HOME": ws, "XDG_STATE_HOME": ws}[k] }}, config.Overrides{Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.MCPServers {
		names = append(names, s.Name+": "+s.Target())
	}
	want := "everything: npx -y @modelcontextprotocol/server-everything@2026.8.31\nfiles: npx -y @modelcontextprotocol/server-filesystem@2026.8.31 ."
	if got := strings.Join(names, "\n"); got != want {
		t.Errorf("servers:\n%s\nwant:\n%s", got, want)
	}
}
