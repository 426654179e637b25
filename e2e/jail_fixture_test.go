package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/tools/bash"
)

// jailFixture skips the test when no backend can build the read-only jail here, and returns a new
// directory outside /tmp, which bubblewrap's jail replaces (what is there would be out of reach for that
// reason alone), removed when the test ends, and the folder in it the test's fake programs go in: a
// version manager's shims folder (pyenv's), where a program is judged by its name with the jail or without it.
// Elsewhere, a file that stands in front of the system's program of its name without being it asks when
// the jail is off or a deny rule is set (permissions' TestAFileThatShadowsASystemProgramWithoutBeingIt…),
// and these tests are about what the jail keeps from a program judged read-only by its name.
func jailFixture(t *testing.T, prefix string) (outside, fakes string) {
	t.Helper()
	if _, err := bash.ProbeWall(binary, hostPrograms); err != nil {
		t.Skipf("no backend for the read-only jail here: %v", err)
	}
	outside, err := os.MkdirTemp("/var/tmp", prefix)
	if err != nil {
		t.Skipf("no directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	return outside, filepath.Join(outside, ".pyenv", "shims")
}

// wcReadme has the model call `wc -l README` in a headless run of r, checks that it ran unasked as
// read-only, and returns what the call printed.
func wcReadme(t *testing.T, r *invocation) string {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"wc -l README"}`), fakeapi.Text("counted"))
	out, stderr, code := r.exec("-p", "count the lines", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var result string
	for _, ev := range events(t, out) {
		switch ev["type"] {
		case "permission":
			if ev["decision"] != "allow" || ev["by"] != "readonly" {
				t.Errorf("wc was not run unasked as read-only: %v", ev)
			}
		case "tool_result":
			result, _ = ev["output"].(string)
		}
	}
	return result
}
