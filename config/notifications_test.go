package config

import (
	"path/filepath"
	"testing"
)

// ui.notifications is auto until a file sets it; a later file wins, as for every setting.
func TestNotificationsAreAutoUntilAFileSetsThem(t *testing.T) {
	f := newFixture(t)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Notifications != "auto" {
		t.Errorf("default %q", cfg.Notifications)
	}
	f.write(t, f.user, `{"ui": {"notifications": "osc777"}}`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.local.json"), `{"ui": {"notifications": "off"}}`)
	if cfg, err = f.load(t, Overrides{}); err != nil {
		t.Fatal(err)
	}
	if cfg.Notifications != "off" {
		t.Errorf("with the user's osc777 and the local off: %q", cfg.Notifications)
	}
}
