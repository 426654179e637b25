package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A record of thousands of approvals, larger than the 1 MB Warden reads of a settings file, stops
// nothing: the workspace's approved items apply, more are approved, and --revoke works. Before, a
// trust.json over 1 MB (about 4,000 approvals, never pruned) stopped every warden command everywhere,
// --revoke included.
func TestALargeTrustRecordStopsNothing(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(f.ws, ".warden", "settings.json")
	f.write(t, settings, `{"permissions": {"allow": ["Bash(make:*)"]}}`)
	f.approveAll(t)
	// Thousands of approvals in this workspace, of settings it no longer holds.
	var many []TrustItem
	for i := range 6000 {
		many = append(many, newItem(fmt.Sprintf("allow:Bash(tool-%04d-%s:*)", i, strings.Repeat("x", 100)), "", ".warden/settings.json", "allow rule"))
	}
	if err := ApproveItems(f.o, f.getenv, f.ws, many); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(trustFile(f.getenv)); err != nil || fi.Size() <= 1<<20 {
		t.Fatalf("the record is not over 1 MB: %v %v", fi, err)
	}
	cfg := f.mustLoad(t)
	if !cfg.Trusted || len(cfg.Warnings) != 0 || len(cfg.Allow) != 1 {
		t.Fatalf("with a large record: trusted %v, allow %q, warnings %q", cfg.Trusted, cfg.Allow, cfg.Warnings)
	}
	if n, _, err := RevokeTrust(f.o, f.getenv, f.ws); err != nil || n != 6001 {
		t.Fatalf("revoke: %d, %v", n, err)
	}
	if cfg := f.mustLoad(t); cfg.Trusted || len(cfg.Allow) != 0 {
		t.Errorf("after --revoke the rule applies: %q", cfg.Allow)
	}
}

// A record Warden cannot read is a warning, not a refusal to start: nothing counts as approved.
func TestAnUnreadableTrustRecordIsAWarning(t *testing.T) {
	f := newFixture(t)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), `{"permissions": {"allow": ["Bash(make:*)"]}}`)
	if err := os.MkdirAll(StateDir(f.getenv), 0o700); err != nil {
		t.Fatal(err)
	}
	f.write(t, trustFile(f.getenv), "{not json")
	cfg, err := f.load(t, Overrides{})
	if err != nil || cfg.Trusted || len(cfg.Allow) != 0 || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "nothing in this workspace counts as approved") {
		t.Errorf("err %v, allow %q, warnings %q", err, cfg.Allow, cfg.Warnings)
	}
	// --revoke still works: the record is set aside, and the next answers start afresh.
	if _, note, err := RevokeTrust(f.o, f.getenv, f.ws); err != nil || !strings.Contains(note, "set aside as") {
		t.Fatalf("revoke on an unreadable record: note %q, err %v", note, err)
	}
	f.approveAll(t)
	if cfg := f.mustLoad(t); !cfg.Trusted || len(cfg.Warnings) != 0 {
		t.Errorf("after setting the record aside and approving: trusted %v, warnings %q", cfg.Trusted, cfg.Warnings)
	}
}

// Each write prunes: of one setting only the latest versions answered are kept, and the workspaces whose
// folder is gone are forgotten.
func TestTheTrustRecordIsPrunedOnEachWrite(t *testing.T) {
	f := newFixture(t)
	gone := filepath.Join(filepath.Dir(f.ws), "gone")
	if err := os.MkdirAll(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ApproveItems(f.o, f.getenv, gone, []TrustItem{newItem("mode", "yolo", "", "")}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	for i := range maxAnswersPerKey + 5 {
		if err := ApproveItems(f.o, f.getenv, f.ws, []TrustItem{newItem("base_url", fmt.Sprintf("http://server-%d/v1", i), "", "")}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(trustFile(f.getenv))
	if err != nil {
		t.Fatal(err)
	}
	var rec trustRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.Workspaces[gone]; ok || len(rec.Workspaces) != 1 {
		t.Errorf("workspaces kept: %d, the removed one among them: %v", len(rec.Workspaces), ok)
	}
	w := rec.Workspaces[f.ws]
	if w == nil || len(w.Approved) != maxAnswersPerKey || w.Approved[len(w.Approved)-1].Digest != newItem("base_url", fmt.Sprintf("http://server-%d/v1", maxAnswersPerKey+4), "", "").Digest {
		t.Errorf("versions kept: %+v", w)
	}
}
