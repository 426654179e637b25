package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A repository whose .mcp.json and .warden/settings.json do not parse cannot stop Warden: the run goes
// on without both files, and the person is told once each, by file, line and column; the servers and
// rules in them do not apply.
func TestProjectFilesThatDoNotParseDoNotStopWarden(t *testing.T) {
	r := newRun(t)
	marker := filepath.Join(filepath.Dir(r.workspace), "server-started")
	must(t, os.WriteFile(filepath.Join(r.workspace, ".mcp.json"),
		[]byte("{\"mcpServers\": {\"x\": {\"command\": \"touch\", \"args\": [\""+marker+"\"]},}}\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(r.workspace, ".warden"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, ".warden", "settings.json"),
		[]byte("{\n  \"permissions\": {\"allow\": [\"Bash\"]},\n  \"modle\": \"x\"\n}\n"), 0o644))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"touch made.txt"}`), fakeapi.Text("went on"))
	out, stderr, code := r.exec("-p", "x", "--base-url", server.URL(), "--model", "m", "--trust")
	if code != 0 || !strings.Contains(out, "went on") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, want := range []string{filepath.Join(r.workspace, ".mcp.json") + ":1:", filepath.Join(r.workspace, ".warden", "settings.json") + ":3:3: unknown setting \"modle\""} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr does not say %q once:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the server of a .mcp.json that does not parse was started")
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err == nil {
		t.Error("the allow rule of a settings file that does not parse applied")
	}
}
