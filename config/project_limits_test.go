package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// A project's bash.timeout_ms 0 inherits the person's timeout. Before, 0 put back Warden's default of
// 120000 ms over the person's 30000, above their maximum of 60000, and every start failed validate.
func TestAProjectsZeroTimeoutInheritsThePersons(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.user, `{"bash": {"timeout_ms": 30000, "max_timeout_ms": 60000, "max_output_chars": 500}}`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"bash": {"timeout_ms": 0, "max_timeout_ms": 0, "max_output_chars": 0}}`)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatalf("a project's zero timeout stops Warden: %v", err)
	}
	if cfg.BashTimeoutMS != 30000 || cfg.BashMaxTimeoutMS != 60000 || cfg.BashMaxOutputChars != 500 {
		t.Errorf("timeout %d, maximum %d, output %d; want the person's 30000, 60000 and 500", cfg.BashTimeoutMS, cfg.BashMaxTimeoutMS, cfg.BashMaxOutputChars)
	}
}

// A project's bash.max_timeout_ms below the timeout set before it (the person's, or Warden's default)
// tightens: it applies, the timeout is brought under it, and a warning names where the maximum was
// written. Before, validate failed and Warden did not start in that repository.
func TestAProjectsLowerMaximumBringsTheTimeoutUnderItWithAWarning(t *testing.T) {
	for _, user := range []string{`{"bash": {"timeout_ms": 30000}}`, `{}`} {
		f := newFixture(t)
		f.write(t, f.user, user)
		f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"bash": {"max_timeout_ms": 10000}}`)
		cfg, err := f.load(t, Overrides{})
		if err != nil {
			t.Fatalf("person's %s: a project's lower maximum stops Warden: %v", user, err)
		}
		if cfg.BashTimeoutMS != 10000 || cfg.BashMaxTimeoutMS != 10000 {
			t.Errorf("person's %s: timeout %d, maximum %d; want both 10000", user, cfg.BashTimeoutMS, cfg.BashMaxTimeoutMS)
		}
		if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], filepath.Join(".warden", "settings.json")+":1:") ||
			!strings.Contains(cfg.Warnings[0], "bash.max_timeout_ms (10000)") {
			t.Errorf("person's %s: warnings %q; want one naming the project file and its maximum", user, cfg.Warnings)
		}
	}
}
