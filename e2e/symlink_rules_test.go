package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project's Read deny rule naming a directory through a symbolic link (cfg -> real inside the
// workspace, ext -> a directory outside it) stops read_file, the grep tool and the shell's reads of what
// the link leads to under either name, as the jail already hides it: the three agree.
func TestDenyRuleNamingALinkStopsEveryReader(t *testing.T) {
	r := newRun(t)
	ws := r.workspace
	outside := filepath.Join(filepath.Dir(ws), "outside")
	must(t, os.MkdirAll(filepath.Join(ws, ".warden"), 0o755))
	must(t, os.MkdirAll(filepath.Join(ws, "real"), 0o755))
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "real", "prod.yml"), []byte("LINKED-MARKER-IN\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "key.txt"), []byte("LINKED-MARKER-OUT\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "notes.md"), []byte("LINKED-MARKER is a word\n"), 0o644))
	must(t, os.Symlink("real", filepath.Join(ws, "cfg")))
	must(t, os.Symlink(outside, filepath.Join(ws, "ext")))
	must(t, os.WriteFile(filepath.Join(ws, ".warden", "settings.json"),
		[]byte(`{"permissions":{"deny":["Read(./cfg/**)","Read(./ext/**)"]}}`), 0o644))

	for _, tc := range []struct{ path, rule string }{
		{"cfg/prod.yml", "Read(./cfg/**)"},
		{"real/prod.yml", "Read(./cfg/**)"},
		{"ext/key.txt", "Read(./ext/**)"},
		{filepath.Join(outside, "key.txt"), "Read(./ext/**)"},
	} {
		out, decision, reason := fileCall(t, r, "read_file", fmt.Sprintf(`{"path":%q}`, tc.path))
		if decision != "deny" || !strings.Contains(reason, "denied by `"+tc.rule+"`") {
			t.Errorf("read_file %s: %s (%s), want denied by %s", tc.path, decision, reason, tc.rule)
		}
		if strings.Contains(out, "LINKED-MARKER-") {
			t.Errorf("read_file %s printed the file:\n%s", tc.path, out)
		}
	}
	for _, args := range []string{`{"pattern":"LINKED-MARKER"}`, `{"pattern":"LINKED-MARKER","path":"cfg"}`, `{"pattern":"LINKED-MARKER","path":"ext"}`} {
		out, decision := searchOutput(t, r, args)
		if strings.Contains(out, "LINKED-MARKER-") {
			t.Errorf("grep %s (%s) printed a denied file:\n%s", args, decision, out)
		}
		if decision == "allow" && !strings.Contains(out, "denies reading") {
			t.Errorf("grep %s: the result does not say what was left out:\n%s", args, out)
		}
	}

	r.stdin = "cat cfg/prod.yml\ncat real/prod.yml\ncat ext/key.txt\ncat " + filepath.Join(outside, "key.txt") + "\ngrep -r LINKED real\ncat notes.md\n"
	out, stderr, code := r.exec("check", "--stdin")
	if code != 0 {
		t.Fatalf("warden check: exit %d: %s", code, stderr)
	}
	want := []string{"deny", "deny", "deny", "deny", "deny", "allow"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d results, want %d: %s", len(lines), len(want), out)
	}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if m["decision"] != want[i] {
			t.Errorf("warden check %s: %s (%s), want %s", m["command"], m["decision"], m["reason"], want[i])
		}
	}
}
