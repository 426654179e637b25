package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The git behind glob and the rg behind grep get the allow-list, not Warden's whole environment: git
// configuration given through GIT_CONFIG_* and an rg configuration file named by RIPGREP_CONFIG_PATH
// would otherwise change what they list (and could carry a credential); with them, glob found no Go
// file and grep no match.
func TestHelperProgramsGetTheAllowList(t *testing.T) {
	for _, p := range []string{"git", "rg"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write("main.go", "package main // needle\n")
	excludes := filepath.Join(t.TempDir(), "excludes")
	rgrc := filepath.Join(t.TempDir(), "rgrc")
	for path, content := range map[string]string{excludes: "*.go\n", rgrc: "--glob=!*.go\n"} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "core.excludesFile")
	t.Setenv("GIT_CONFIG_VALUE_0", excludes)
	t.Setenv("RIPGREP_CONFIG_PATH", rgrc)
	mustContain(t, h.ok("glob", map[string]any{"pattern": "*.go"}), "main.go")
	mustContain(t, h.ok("grep", map[string]any{"pattern": "needle"}), "main.go")
}
