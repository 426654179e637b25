package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools/bash"
)

// TestSessionWithTheJailRunsProjectCodeTools: once the jail is known to work, a session's engine judges
// tools whose only risk is running project code as read-only; without it they ask.
func TestSessionWithTheJailRunsProjectCodeTools(t *testing.T) {
	ws := t.TempDir()
	for _, jail := range []bool{false, true} {
		e, err := permissions.NewEngine(permissions.Policy{Workspace: ws, Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		s := &session{cfg: &config.Config{SandboxJail: true}, engine: e}
		var werr error
		if !jail {
			werr = errors.New("no backend")
		}
		s.setWall(bash.WallInfo{Backend: "bubblewrap"}, werr)
		want := permissions.Ask
		if jail {
			want = permissions.Allow
		}
		if v := e.Decide(permissions.Request{Kind: permissions.Exec, Command: "eslint src", Cwd: ws}); v.Decision != want {
			t.Errorf("jail %v: eslint src: %s (%s), want %s", jail, v.Decision, v.Reason, want)
		}
	}
}

// The status line says how read-only commands are jailed; without a backend Warden also says so once, at
// start, and why.
func TestWallLabelAndStartNote(t *testing.T) {
	s := &session{cfg: &config.Config{SandboxJail: true}}
	label, warnings := s.setWall(bash.WallInfo{}, errors.New("no backend for the read-only jail: bubblewrap is not installed"))
	if label != "wall: off — no backend (install bubblewrap)" {
		t.Errorf("label = %q", label)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "bubblewrap is not installed") {
		t.Errorf("warnings = %q", warnings)
	}
	s = &session{cfg: &config.Config{SandboxJail: true}}
	label, warnings = s.setWall(bash.WallInfo{Backend: "bubblewrap"}, nil)
	if label != "wall: bubblewrap" || len(warnings) != 0 {
		t.Errorf("label %q, warnings %q", label, warnings)
	}
	s = &session{cfg: &config.Config{SandboxJail: false}}
	label, warnings = s.setWall(bash.WallInfo{}, errors.New("whatever"))
	if label != "wall: off (sandbox.jail is false)" || len(warnings) != 0 {
		t.Errorf("jail off: label %q, warnings %q", label, warnings)
	}
}
