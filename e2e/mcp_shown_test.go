package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A repository commits .mcp.json as a link to .cursor/mcp.json, the person's own git-ignored file with
// their tokens in it: the notices about servers that wait for approval (a headless run's warning, warden
// trust --list, warden mcp list) say what each server runs and where it connects, and none of its secret
// values (environment, Authorization header, a URL's api_key).
func TestWaitingServersAreShownWithoutTheirSecrets(t *testing.T) {
	r := newRun(t)
	planted := []string{"PLANTED-ENV-TOKEN-0123456789", "PLANTED-HEADER-TOKEN-0123456789", "PLANTED-QUERY-KEY-0123456789"}
	must(t, os.MkdirAll(filepath.Join(r.workspace, ".cursor"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, ".cursor", "mcp.json"), []byte(`{"mcpServers": {
		"gh": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "`+planted[0]+`", "LOG": "info"}},
		"api": {"type": "http", "url": "https://mcp.example/v1?api_key=`+planted[2]+`", "headers": {"Authorization": "Bearer `+planted[1]+`"}}
	}}`), 0o600))
	must(t, os.Symlink(".cursor/mcp.json", filepath.Join(r.workspace, ".mcp.json")))

	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("hello"))
	_, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	list, _, _ := r.exec("trust", "--list")
	mcp, _, _ := r.exec("mcp", "list")
	shown := stderr + list + mcp
	for _, p := range planted {
		if strings.Contains(shown, p) {
			t.Errorf("%s is shown:\n%s", p, shown)
		}
	}
	noneReached(t, server.Requests(), planted...)
	for _, want := range []string{"npx -y @modelcontextprotocol/server-github", "GITHUB_PERSONAL_ACCESS_TOKEN=***", "LOG=info",
		"https://mcp.example/v1?api_key=***", "Authorization='Bearer ***'"} {
		if !strings.Contains(stderr, want) || !strings.Contains(list, want) {
			t.Errorf("%q is not in the warning or warden trust --list:\n%s\n%s", want, stderr, list)
		}
	}
	if !strings.Contains(mcp, "https://mcp.example/v1?api_key=***") {
		t.Errorf("warden mcp list does not show where the server connects:\n%s", mcp)
	}
}
