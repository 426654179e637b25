package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/safefile"
)

// outside is a folder beside the workspace, and a key under .ssh, both planted with a marker.
func (f *fixture) outside(t *testing.T) (dir, key string) {
	t.Helper()
	root := filepath.Dir(f.ws)
	dir, key = filepath.Join(root, "outside"), filepath.Join(root, ".ssh", "settings.json")
	for _, d := range []string{dir, filepath.Dir(key)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	f.write(t, key, `{"PLANTED-KEY-7f3a": 1}`)
	return dir, key
}

func (f *fixture) link(t *testing.T, target, name string) {
	t.Helper()
	os.Remove(name)
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// A repository's shared settings that lead out of the workspace are not read and not applied, and the
// person is told; the rest of the settings load.
func TestAProjectSettingsFileThatLeadsOutIsNotApplied(t *testing.T) {
	f := newFixture(t)
	dir, _ := f.outside(t)
	f.write(t, filepath.Join(dir, "settings.json"), `{"model": "from-outside", "permissions": {"allow": ["Bash"]}}`)
	f.link(t, filepath.Join(dir, "settings.json"), filepath.Join(f.ws, ".warden", "settings.json"))
	f.write(t, f.user, `{"model": "mine"}`)
	cfg, err := f.load(t, Overrides{Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model != "mine" || len(cfg.Allow) != 0 {
		t.Errorf("model %q, allow %q: the linked file was applied", cfg.Model, cfg.Allow)
	}
	want := filepath.Join(f.ws, ".warden", "settings.json") + " was not read: it is a link to " + filepath.Join(dir, "settings.json") + ", outside " + f.ws
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], want) || !strings.Contains(cfg.Warnings[0], "not applied") {
		t.Errorf("warnings %q, want one saying %q", cfg.Warnings, want)
	}
	if slices.Contains(cfg.Files, filepath.Join(f.ws, ".warden", "settings.json")) {
		t.Errorf("files %q list the refused one", cfg.Files)
	}
}

// The person's own settings (theirs, and the personal file of the project) may hold their deny rules:
// one that is refused stops the start, naming the file, rather than running without them. Nothing of a
// refused file is quoted.
func TestThePersonsOwnSettingsRefusedStopTheStart(t *testing.T) {
	for _, which := range []string{"user", "local"} {
		t.Run(which, func(t *testing.T) {
			f := newFixture(t)
			dir, key := f.outside(t)
			name := f.user
			target := key
			if which == "local" {
				name = filepath.Join(f.ws, ".warden", "settings.local.json")
				f.write(t, filepath.Join(dir, "local.json"), `{"PLANTED-KEY-7f3a": 2}`)
				target = filepath.Join(dir, "local.json")
			}
			f.link(t, target, name)
			_, err := f.load(t, Overrides{})
			if err == nil || !strings.HasPrefix(err.Error(), name+" was not read: it is a link to "+target) ||
				!strings.Contains(err.Error(), "does not start without the settings you keep there") {
				t.Fatalf("err = %v, want one naming %s and why", err, name)
			}
			if strings.Contains(err.Error(), "PLANTED") {
				t.Errorf("the error quotes the refused file: %v", err)
			}
		})
	}
}

// A .mcp.json that is a link to a key starts no server, and no error or warning quotes it.
func TestAnMCPJSONThatLeadsToASecretStartsNothing(t *testing.T) {
	f := newFixture(t)
	_, key := f.outside(t)
	f.link(t, key, filepath.Join(f.ws, ".mcp.json"))
	cfg, err := f.load(t, Overrides{Trust: true})
	if err != nil {
		t.Fatalf("err = %v, want the file reported and the start to go on", err)
	}
	joined := strings.Join(cfg.Warnings, "\n")
	if len(cfg.MCPServers)+len(cfg.UntrustedMCPServers) != 0 || !strings.Contains(joined, ".mcp.json was not read: it is a link to "+key) ||
		!strings.Contains(joined, "servers are not started") {
		t.Errorf("servers %v, warnings %q", cfg.MCPServers, cfg.Warnings)
	}
	if strings.Contains(joined, "PLANTED") {
		t.Errorf("a warning quotes the refused file: %q", joined)
	}
}

// "Always allow for this project" in a repository that committed .warden as a link to a folder outside
// the workspace writes nothing there, records nothing, and says why.
func TestSavingARuleThroughACommittedLinkWritesNothingOutside(t *testing.T) {
	f := newFixture(t)
	dir, _ := f.outside(t)
	if err := os.RemoveAll(filepath.Join(f.ws, ".warden")); err != nil {
		t.Fatal(err)
	}
	f.link(t, dir, filepath.Join(f.ws, ".warden"))
	getenv := func(k string) string { return f.env[k] }
	err := AddProjectAllow(f.o, getenv, f.ws, "Bash(make test:*)")
	var r *safefile.Refused
	if !errors.As(err, &r) || !strings.Contains(err.Error(), ".warden is a link to "+dir) {
		t.Fatalf("err = %v, want a refusal naming the link", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %v, want nothing written outside the workspace", dir, entries)
	}
	if _, err := os.Stat(savedRulesFile(getenv)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rule was recorded as saved: %v", err)
	}
}

// A .gitignore committed as a link to a file outside (not there yet) is neither followed nor replaced
// when a rule is saved.
func TestSavingARuleDoesNotWriteThroughALinkedGitignore(t *testing.T) {
	f := newFixture(t)
	dir, _ := f.outside(t)
	f.link(t, filepath.Join(dir, "profile"), filepath.Join(f.ws, ".warden", ".gitignore"))
	if err := AddProjectAllow(f.o, func(k string) string { return f.env[k] }, f.ws, "Bash(make test:*)"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "profile")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written through the link: %v", err)
	}
	if s, err := ReadFile(f.o, filepath.Join(f.ws, ".warden", "settings.local.json")); err != nil || !slices.Contains(s.Permissions.Allow, "Bash(make test:*)") {
		t.Errorf("the rule was not saved: %+v, %v", s, err)
	}
}

// Warden's records in the state directory are not written through a link either.
func TestTheTrustRecordIsNotWrittenThroughALink(t *testing.T) {
	f := newFixture(t)
	dir, _ := f.outside(t)
	getenv := func(k string) string { return f.env[k] }
	target := filepath.Join(dir, "elsewhere.json")
	f.write(t, target, "{}\n")
	if err := os.MkdirAll(StateDir(getenv), 0o700); err != nil {
		t.Fatal(err)
	}
	f.link(t, target, trustFile(getenv))
	err := ApproveItems(f.o, getenv, f.ws, []TrustItem{newItem("allow:Bash", "", ".warden/settings.json", "allow rule Bash")})
	var r *safefile.Refused
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "{}\n" {
		t.Errorf("the link's target became %q", b)
	}
}
