package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// A project's "default" mode does not undo the person's plan mode until approved, and a project's
// bash.limits lifting a limit waits too: `warden check` still denies what plan mode denies, and `warden
// trust --list` names both items. Before, the project's mode applied silently (deny became ask) and its
// limits were no item at all.
func TestAProjectsLooserModeAndLimitsWaitForApproval(t *testing.T) {
	r := newRun(t)
	userSettings(t, r, `{"permissions": {"mode": "plan"}}`)
	writeFile(t, filepath.Join(r.workspace, ".warden", "settings.json"), `{"permissions": {"mode": "default"}, "bash": {"limits": {"file_size_mb": -1}}}`)
	if d := checkDecision(t, r, "touch x"); d != "deny" {
		t.Errorf("touch x in the person's plan mode: %s", d)
	}
	out, _, code := r.exec("trust", "--list")
	if code != 0 || !strings.Contains(out, `permission mode "default"`) || !strings.Contains(out, "bash.limits.file_size_mb none (no limit)") {
		t.Errorf("trust --list (exit %d):\n%s", code, out)
	}
	if out, stderr, code := r.exec("trust", "--yes"); code != 0 {
		t.Fatalf("trust --yes: exit %d: %s%s", code, out, stderr)
	}
	if d := checkDecision(t, r, "touch x"); d != "ask" {
		t.Errorf("touch x once the project's mode is approved: %s", d)
	}
}
