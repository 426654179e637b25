package files

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The programs Warden runs for itself are found outside the workspace and get the environment commands
// get. These tests set PATH as a person's shell would and leave Env.Programs to its default.

func TestGrepRunsRgWithTheEnvironmentCommandsGet(t *testing.T) {
	needRg(t)
	real, _ := exec.LookPath(rgProgram)
	h := newFileHarness(t)
	h.write("a.txt", "one needle-9f\n")
	spy := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nenv >> %s/rg.env\nexec %s \"$@\"\n", spy, real)
	if err := os.WriteFile(filepath.Join(spy, "rg"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", spy+":"+os.Getenv("PATH"))
	const key, token = "sk-planted-key-0c7e55", "planted-token-41aa"
	t.Setenv("WARDEN_TEST_API_KEY", key)
	t.Setenv("RELEASE_TOKEN", token)
	h.env.Bash.Secrets = []string{key}
	if got := h.ok("grep", map[string]any{"pattern": "needle-9f"}); got != "a.txt:1:one needle-9f\n(1 match in 1 file)" {
		t.Errorf("grep = %q", got)
	}
	b, err := os.ReadFile(filepath.Join(spy, "rg.env"))
	if err != nil {
		t.Fatalf("the spy rg did not run: %v", err)
	}
	for _, secret := range []string{key, token} {
		if strings.Contains(string(b), secret) {
			t.Errorf("rg's environment holds %q", secret)
		}
	}
}
