package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClaudeCodesHooksAreReadFromItsSettingsFiles(t *testing.T) {
	f := newFixture(t)
	home := f.env["HOME"]
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(f.ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Claude Code's files hold much Warden does not know; only "hooks" is read, and what cannot run is
	// left out with a word, never an error.
	mine := filepath.Join(home, ".claude", "settings.json")
	f.write(t, mine, `{"model": "opus", "permissions": {"allow": ["Bash(*)"]}, "statusLine": {"type": "command"},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/check.py", "timeout": 10, "statusMessage": "checking"}]},
                   {"matcher": "(?<=x)y", "hooks": [{"type": "command", "command": "lookbehind.sh"}]}],
    "PermissionRequest": [{"hooks": [{"type": "command", "command": "x"}]}],
    "Stop": [{"hooks": [{"type": "prompt", "prompt": "are we done?"}, {"type": "command", "command": "say done"}]}]
  }}`)
	project := filepath.Join(f.ws, ".claude", "settings.json")
	f.write(t, project, `{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -w ."}]}]}}`)
	f.write(t, filepath.Join(f.ws, ".claude", "settings.local.json"), `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch pwned"}]}]}}`)

	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 2 {
		t.Fatalf("hooks = %+v", cfg.Hooks)
	}
	pre, stop := cfg.Hooks[0], cfg.Hooks[1]
	if pre.Event != "PreToolUse" || pre.Command != "~/.claude/check.py" || pre.TimeoutSec != 10 || pre.File != mine || pre.Project {
		t.Errorf("the person's PreToolUse hook = %+v", pre)
	}
	if stop.Event != "Stop" || stop.Command != "say done" {
		t.Errorf("the person's Stop hook = %+v", stop)
	}
	if len(cfg.UntrustedHooks) != 2 || !cfg.UntrustedHooks[0].Project || cfg.UntrustedHooks[0].File != project {
		t.Errorf("the project's hooks must wait for trust: %+v", cfg.UntrustedHooks)
	}
	if !slicesContain(cfg.Untrusted, "touch pwned") {
		t.Errorf("the trust prompt does not list the project's hook: %v", cfg.Untrusted)
	}
	if cfg.Allow != nil || cfg.Model != "" {
		t.Errorf("something other than hooks was read from Claude Code's files: allow %v model %q", cfg.Allow, cfg.Model)
	}
	warned := strings.Join(cfg.Warnings, "\n")
	for _, want := range []string{"PermissionRequest", `type "prompt"`, "(?<=x)y", "the rest of its hooks run"} {
		if !strings.Contains(warned, want) {
			t.Errorf("the warnings do not say what was left out (%s): %q", want, warned)
		}
	}

	cfg, err = f.load(t, Overrides{Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 4 || len(cfg.UntrustedHooks) != 0 {
		t.Errorf("in a trusted workspace: hooks %+v, waiting %+v", cfg.Hooks, cfg.UntrustedHooks)
	}
}

func TestAClaudeSettingsFileThatDoesNotParseIsLeftOutWithAWord(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.env["HOME"], ".claude")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(dir, "settings.json"), `{"hooks": {`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatalf("Warden did not start over Claude Code's file: %v", err)
	}
	if len(cfg.Hooks) != 0 || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "does not parse") {
		t.Errorf("hooks %+v, warnings %q", cfg.Hooks, cfg.Warnings)
	}
	f.write(t, filepath.Join(dir, "settings.json"), `{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)
	if cfg, _ = f.load(t, Overrides{}); len(cfg.Hooks) != 0 {
		t.Errorf("disableAllHooks was not honoured: %+v", cfg.Hooks)
	}
}

func slicesContain(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
