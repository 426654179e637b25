package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// BenchmarkStartupFirstFrameWithMCP: the first frame with three MCP servers configured that never answer,
// against the first frame with none, in the same run: servers start in the background, so the ratio
// should stay near 1. Both runs trust their workspace: without it the servers Warden would start there wait
// behind the trust prompt, and the figure would time the prompt instead of the servers' start.
func BenchmarkStartupFirstFrameWithMCP(b *testing.B) {
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	plainDir, plainEnv := benchEnv(b)
	settings := `{"mcpServers": {"a": {"command": "sleep", "args": ["30"]}, "b": {"command": "sleep", "args": ["30"]},
		"c": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "XDG_CONFIG_HOME="); ok {
			if err := os.MkdirAll(filepath.Join(v, "warden"), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(v, "warden", "settings.json"), []byte(settings), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	var with, without time.Duration
	for b.Loop() {
		with += firstFrame(b, dir, env, "Ask Warden", binary, "--trust", "--base-url", server.URL(), "--model", "m")
		without += firstFrame(b, plainDir, plainEnv, "Ask Warden", binary, "--trust", "--base-url", server.URL(), "--model", "m")
	}
	reportAgainst(b, with, without, "no-mcp-ms")
}
