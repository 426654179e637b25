package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A repository's settings never stop Warden: with the person's bash.timeout_ms 30000 under their
// max_timeout_ms 60000, a project's timeout_ms 0 inherits the person's timeout, and a project's lower
// max_timeout_ms brings it under with a warning. Before, both made `warden check` and every -p run exit 1
// ("bash.timeout_ms (120000) is above bash.max_timeout_ms (60000)"), in every clone of the repository.
func TestAProjectsSettingsThatConflictWithThePersonsLimitsDoNotStopWarden(t *testing.T) {
	for _, project := range []string{`{"bash": {"timeout_ms": 0}}`, `{"bash": {"max_timeout_ms": 10000}}`} {
		r := newRun(t)
		userSettings(t, r, `{"bash": {"timeout_ms": 30000, "max_timeout_ms": 60000}}`)
		writeFile(t, filepath.Join(r.workspace, ".warden", "settings.json"), project)
		if out, stderr, code := r.exec("check", "--", "ls"); code != 0 || !strings.Contains(out, `"allow"`) {
			t.Errorf("%s: warden check: exit %d out %s stderr %s", project, code, out, stderr)
		}
		server := fakeapi.New()
		server.Reply(fakeapi.ToolCall("e", "bash", `{"command":"echo ran"}`), fakeapi.Text("done"))
		out, stderr, code := r.exec("-p", "go", "--base-url", server.URL(), "--model", "m")
		server.Close()
		if code != 0 || out != "done\n" {
			t.Errorf("%s: -p: exit %d out %q stderr %s", project, code, out, stderr)
		}
	}
}
