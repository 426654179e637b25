package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A repository chooses what stands at its settings paths: a FIFO there is reported at once and not
// applied, not a start that never ends; at the personal settings.local.json too, which a repository can
// commit.
func TestAFIFOForSettingsIsReportedNotAStall(t *testing.T) {
	f := newFixture(t)
	if err := unix.Mkfifo(filepath.Join(f.ws, ".warden", "settings.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		cfg *Config
		err error
	}
	done := make(chan loaded, 1)
	go func() { cfg, err := f.load(t, Overrides{}); done <- loaded{cfg, err} }()
	select {
	case l := <-done:
		if l.err != nil || len(l.cfg.Warnings) != 1 || !strings.Contains(l.cfg.Warnings[0], "settings.json was not read: it is not a regular file") {
			t.Errorf("err = %v, warnings %q; want one saying the settings file is not a regular file", l.err, l.cfg.Warnings)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("loading settings stalled on a FIFO")
	}
	if err := unix.Mkfifo(filepath.Join(f.ws, ".warden", "settings.local.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err := f.load(t, Overrides{}); err != nil || len(cfg.Warnings) != 2 || !strings.Contains(cfg.Warnings[1], "settings.local.json was not read: it is not a regular file") {
		t.Errorf("err = %v, want a warning saying the personal settings file is not a regular file", err)
	}
}
