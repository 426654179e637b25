package config

import (
	"path/filepath"
	"testing"
)

// A project's server counts as approved for a resumed session only while the project's settings name it
// and that version is approved. Before, the record's old approval of server A was enough, so -c went on
// to A after the project's file was changed to {} or to server B.
func TestAnApprovedServerTheProjectNoLongerNamesIsNotApproved(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(f.ws, ".warden", "settings.json")
	f.write(t, f.user, `{"base_url": "http://mine/v1"}`)
	f.write(t, settings, `{"base_url": "http://a/v1"}`)
	f.approveAll(t)
	if !f.mustLoad(t).ApprovesServer("http://a/v1/") {
		t.Fatal("the approved server the project names is not approved")
	}
	for _, now := range []string{`{}`, `{"base_url": "http://b/v1"}`} {
		f.write(t, settings, now)
		if f.mustLoad(t).ApprovesServer("http://a/v1") {
			t.Errorf("project's file %s: the server it no longer names still counts as approved", now)
		}
	}
	f.write(t, settings, `{"base_url": "http://a/v1"}`)
	if !f.mustLoad(t).ApprovesServer("http://a/v1") {
		t.Error("named again, the approved server is not approved")
	}
	f.write(t, settings, `{}`)
	if cfg, err := f.load(t, Overrides{Trust: true}); err != nil || cfg.ApprovesServer("http://a/v1") {
		t.Errorf("under --trust a server no file names counts as approved (err %v)", err)
	}
}
