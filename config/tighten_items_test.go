package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A project's permission mode applies at once only when it lets no more run unasked than the person's:
// "default" over the person's "plan" is an item that waits, "plan" over the person's "default" is not.
// Before, only modes other than default and plan were items, and a project's "default" silently undid the
// person's plan mode.
func TestAProjectsModeWaitsWhenItLoosensThePersons(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(f.ws, ".warden", "settings.json")
	f.write(t, f.user, `{"permissions": {"mode": "plan"}}`)
	f.write(t, settings, `{"permissions": {"mode": "default"}}`)
	cfg := f.mustLoad(t)
	if cfg.Mode != "plan" || !slices.Equal(cfg.Untrusted, []string{`.warden/settings.json: permission mode "default"`}) {
		t.Errorf("mode %q, waiting %q; want plan, with the project's default waiting", cfg.Mode, cfg.Untrusted)
	}
	f.write(t, f.user, `{"permissions": {"mode": "accept-edits"}}`)
	if cfg := f.mustLoad(t); cfg.Mode != "default" || len(cfg.TrustItems) != 0 {
		t.Errorf("a project's default under the person's accept-edits: mode %q, waiting %q", cfg.Mode, cfg.Untrusted)
	}
}

// A project's max_steps, bash.max_timeout_ms and resource limits are items when they raise what the
// person's settings (or Warden's defaults) allow, or remove a limit; lowering them applies at once.
// Before, none of them was an item: file_size_mb -1 lifted the limit in a workspace never approved.
func TestAProjectsLimitsWaitWhenTheyLoosen(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(f.ws, ".warden", "settings.json")
	f.write(t, f.user, `{"bash": {"limits": {"memory_mb": 2048, "processes": 100}}}`)
	f.write(t, settings, `{"max_steps": 500, "bash": {"max_timeout_ms": 86400000, "timeout_ms": 3600000,
		"limits": {"file_size_mb": -1, "memory_mb": 65536, "processes": 50}}}`)
	cfg := f.mustLoad(t)
	want := []string{"max_steps 500", "bash.max_timeout_ms 86400000", "bash.limits.memory_mb 65536", "bash.limits.file_size_mb none (no limit)"}
	for i := range want {
		want[i] = ".warden/settings.json: " + want[i]
	}
	if !slices.Equal(cfg.Untrusted, want) {
		t.Fatalf("items:\n%s\nwant:\n%s", strings.Join(cfg.Untrusted, "\n"), strings.Join(want, "\n"))
	}
	if cfg.MaxSteps != DefaultMaxSteps || cfg.BashMaxTimeoutMS != DefaultMaxTimeoutMS || cfg.BashTimeoutMS != DefaultTimeoutMS ||
		cfg.Limits != (LimitValues{MemoryMB: 2048, Processes: 50}) {
		t.Errorf("unapproved limits applied: steps %d, max %d, timeout %d, limits %+v", cfg.MaxSteps, cfg.BashMaxTimeoutMS, cfg.BashTimeoutMS, cfg.Limits)
	}
	f.approveAll(t)
	if cfg := f.mustLoad(t); cfg.MaxSteps != 500 || cfg.Limits.FileSizeMB != -1 || cfg.BashMaxTimeoutMS != 86400000 {
		t.Errorf("approved limits do not apply: %+v", cfg)
	}
	f.write(t, settings, `{"max_steps": 10, "bash": {"max_timeout_ms": 1000, "timeout_ms": 500, "limits": {"memory_mb": 1024}}}`)
	if cfg := f.mustLoad(t); len(cfg.TrustItems) != 0 || cfg.MaxSteps != 10 || cfg.Limits.MemoryMB != 1024 {
		t.Errorf("lower limits wait or do not apply: %q, %+v", cfg.Untrusted, cfg)
	}
}

// A project's bash.timeout_ms above the longest command allowed is left out with a warning rather than
// stopping the start, which it did (the check that the timeout fits under the maximum is across files).
func TestAProjectsTimeoutAboveTheMaximumIsAWarning(t *testing.T) {
	f := newFixture(t)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"bash": {"timeout_ms": 700000}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil || cfg.BashTimeoutMS != DefaultTimeoutMS || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "bash.timeout_ms (700000) is above bash.max_timeout_ms (600000)") {
		t.Errorf("err %v, timeout %d, warnings %q", err, cfg.BashTimeoutMS, cfg.Warnings)
	}
}
