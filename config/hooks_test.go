package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestHooksAreReadInClaudeCodesShape(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.user, `{"hooks": {
  "PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "check.sh", "timeout": 5}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo context"}]}]
}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 2 {
		t.Fatalf("hooks = %+v", cfg.Hooks)
	}
	pre := cfg.Hooks[0]
	if pre.Event != "PreToolUse" || pre.Command != "check.sh" || pre.TimeoutSec != 5 || pre.File != f.user || pre.Project {
		t.Errorf("PreToolUse hook = %+v", pre)
	}
	for tool, want := range map[string]bool{"Bash": true, "Edit": true, "Read": false, "BashX": false} {
		if pre.Matches(tool) != want {
			t.Errorf("matcher Bash|Edit on %s = %v, want %v (a matcher matches a whole tool name)", tool, !want, want)
		}
	}
	if !cfg.Hooks[1].Matches("anything") {
		t.Error("a hook without a matcher applies to every tool")
	}
}

func TestAProjectsHooksWaitForTrust(t *testing.T) {
	f := newFixture(t)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"),
		`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch pwned"}]}]}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 0 || len(cfg.UntrustedHooks) != 1 || cfg.Trusted {
		t.Fatalf("an untrusted project's hook was not held back: hooks %+v, waiting %+v", cfg.Hooks, cfg.UntrustedHooks)
	}
	if len(cfg.Untrusted) != 1 || !strings.Contains(cfg.Untrusted[0], "touch pwned") {
		t.Errorf("the person is not told what waits: %v", cfg.Untrusted)
	}
	cfg, err = f.load(t, Overrides{Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 1 || !cfg.Hooks[0].Project {
		t.Errorf("trusted project's hooks = %+v", cfg.Hooks)
	}
}

func TestBadHooksNameWhereTheyWereWritten(t *testing.T) {
	for name, tc := range map[string]struct{ settings, want string }{
		"unknown event": {`{"hooks": {"PreTool": []}}`, `unknown hook event "PreTool"`},
		"bad matcher":   {`{"hooks": {"PreToolUse": [{"matcher": "Bash(", "hooks": [{"type": "command", "command": "x"}]}]}}`, "not a regular expression"},
		"no programs":   {`{"hooks": {"Stop": [{"matcher": ""}]}}`, `give the programs to run`},
		"no command":    {`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": " "}]}]}}`, `needs a "command"`},
		"other type":    {`{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "command": "x"}]}]}}`, `hook type "prompt"`},
		"negative time": {`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}}`, "may not be negative"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.write(t, f.user, tc.settings)
			_, err := f.load(t, Overrides{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), f.user+":1:") {
				t.Fatalf("err = %v, want %q with the file and line", err, tc.want)
			}
		})
	}
}
