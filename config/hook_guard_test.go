package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The files a hook runs are what its command names as files, however the command spells them: the
// person's script by its path, under ~ or $HOME, the project's under $CLAUDE_PROJECT_DIR or relative to
// the workspace, and a project's hook still waiting for approval; a word that is no file is left out.
func TestHookFilesAreTheScriptsTheHooksRun(t *testing.T) {
	f := newFixture(t)
	home := filepath.Dir(f.ws)
	for _, p := range []string{filepath.Join(home, "bin", "guard.sh"), filepath.Join(home, "lib", "fmt.py"),
		filepath.Join(f.ws, ".claude", "hooks", "lint.sh"), filepath.Join(f.ws, "scripts", "check.sh")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f.write(t, p, "#!/bin/sh\n")
	}
	f.write(t, f.user, `{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "`+filepath.Join(home, "bin", "guard.sh")+` --strict"},
  {"type": "command", "command": "python3 ~/lib/fmt.py \"$HOME/missing.py\" $UNKNOWN/x.sh"}]}]}}`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/lint.sh && sh scripts/check.sh"}]}]}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.HookFiles(home)
	want := []string{filepath.Join(home, "bin", "guard.sh"), filepath.Join(home, "lib", "fmt.py"),
		filepath.Join(f.ws, ".claude", "hooks", "lint.sh"), filepath.Join(f.ws, "scripts", "check.sh")}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("HookFiles = %q, want %q", got, want)
	}
}
