package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/safefile"
)

// TestSavedProjectRuleDoesNotTrustTheWorkspace: a repository that allows every command, turns the jail off
// and starts an MCP server from .mcp.json; the person declines to trust it, then saves one rule with p in
// the approval modal (config.AddProjectAllow, as the modal's save does). At the next start the saved rule
// lets its command run, while the repository's settings and its server stay ignored. The real binary is run.
func TestSavedProjectRuleDoesNotTrustTheWorkspace(t *testing.T) {
	r := newRun(t)
	marker := filepath.Join(t.TempDir(), "server-ran")
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(r.workspace, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".warden/settings.json", `{"permissions":{"allow":["Bash"]},"sandbox":{"jail":false}}`)
	write(".mcp.json", `{"mcpServers":{"builder":{"command":"sh","args":["-c","touch `+marker+`"]}}}`)
	getenv := func(k string) string {
		for _, kv := range r.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	if err := config.AddProjectAllow(safefile.NewOpener([]string{r.workspace}, nil, 0), getenv, r.workspace, "Bash(touch:*)"); err != nil {
		t.Fatal(err)
	}

	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("c1", "bash", `{"command":"touch by-rule"}`),
		fakeapi.ToolCall("c2", "bash", `{"command":"mkdir by-project"}`),
		fakeapi.Text("done"),
	)
	out, stderr, code := r.exec("-p", "build", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "by-rule")); err != nil {
		t.Errorf("the saved rule Bash(touch:*) did not let touch run: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "by-project")); err == nil {
		t.Error("the untrusted project's allow rule Bash let mkdir run")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the untrusted project's MCP server was started")
	}
	for _, want := range []string{"allow rule Bash", "sandbox.jail false", `MCP server "builder"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q is ignored: %s", want, stderr)
		}
	}
	if strings.Contains(stderr, "touch") && strings.Contains(stderr, "Bash(touch:*)") {
		t.Errorf("the person's own rule is reported as the repository's: %s", stderr)
	}
}
