package permissions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Warden's own state (sessions, checkpoints, logs, the trust list) and its settings are secret places:
// a checkpoint holds a copy of every workspace's .env. Reading them asks, by bash (jailed or not) and by
// read_file, as ~/.ssh does, also where XDG_STATE_HOME and XDG_CONFIG_HOME put them; the custom commands
// and the skills beside the settings are not secret.
func TestWardenOwnFilesAreSecret(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	ws := filepath.Join(home, "proj")
	xdgState, xdgConfig := filepath.Join(root, "xdg", "state"), filepath.Join(root, "xdg", "config")
	object := filepath.Join(home, ".local", "state", "warden", "checkpoints", "proj-1a2b", "objects", "ab", "cdef01")
	for _, f := range []string{object, filepath.Join(ws, "main.go"), filepath.Join(xdgState, "warden", "sessions", "s1.jsonl"),
		filepath.Join(home, ".config", "warden", "settings.json"), filepath.Join(home, ".config", "warden", "commands", "review.md")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	for _, jail := range []bool{false, true} {
		e, err := NewEngine(Policy{Workspace: ws, Home: home, ReadOnlyJail: jail})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{
			"cat ~/.local/state/warden/checkpoints/proj-1a2b/objects/ab/cdef01",
			`for f in ~/.local/state/warden/checkpoints/*/objects/*/*; do (printf '\037\213\010\000\000\000\000\000\000\000'; tail -c +3 "$f") | gzip -dc 2>/dev/null; done`,
			"grep -r TOKEN ~/.local/state/warden",
			"cat ~/.config/warden/settings.json",
		} {
			v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
			if v.Decision != Ask {
				t.Errorf("jail %v: %q: %s (%s), want ask", jail, cmd, v.Decision, v.Reason)
			}
		}
		if v := e.Decide(Request{Kind: Exec, Command: "cat ~/.config/warden/commands/review.md main.go", Cwd: ws}); jail && v.Decision != Allow {
			t.Errorf("jail: reading a custom command: %s (%s)", v.Decision, v.Reason)
		}
	}
	// With the home as the workspace, read_file would read the state unasked as a file of the workspace.
	e, _ := NewEngine(Policy{Workspace: home, Home: home})
	for _, p := range []string{object, filepath.Join(home, ".config", "warden", "settings.json")} {
		if v := e.Decide(Request{Kind: Read, Path: p, Cwd: home}); v.Decision != Ask || !strings.Contains(v.Reason, "secrets") {
			t.Errorf("read_file %s: %s (%s)", p, v.Decision, v.Reason)
		}
	}
	if v := e.Decide(Request{Kind: Read, Path: filepath.Join(ws, "main.go"), Cwd: home}); v.Decision != Allow {
		t.Errorf("read_file of a source file: %s (%s)", v.Decision, v.Reason)
	}

	t.Setenv("XDG_STATE_HOME", xdgState)
	t.Setenv("XDG_CONFIG_HOME", xdgConfig)
	for p, want := range map[string]bool{
		filepath.Join(xdgState, "warden", "sessions", "s1.jsonl"):       true,
		filepath.Join(xdgState, "warden"):                               true,
		filepath.Join(xdgConfig, "warden", "settings.json"):             true,
		filepath.Join(xdgConfig, "warden", "commands", "review.md"):     false,
		filepath.Join(xdgConfig, "warden", "skills", "pdf", "SKILL.md"): false,
		filepath.Join(xdgConfig, "warden", "skillset.json"):             true,
		filepath.Join(xdgState, "other", "x"):                           false,
		filepath.Join(ws, "warden", "settings.json"):                    false,
		filepath.Join(ws, "main.go"):                                    false,
	} {
		if got := IsSecretPath(p, home); got != want {
			t.Errorf("IsSecretPath(%s) = %v, want %v", p, got, want)
		}
	}
}

// Browser and mail profiles hold saved passwords, their keys and cookies.
func TestBrowserProfilesAreSecret(t *testing.T) {
	for _, p := range []string{"/home/u/.mozilla/firefox/x.default/logins.json", "/home/u/.mozilla",
		"/home/u/.config/google-chrome/Default/Login Data", "/home/u/.thunderbird/p/key4.db"} {
		if !IsSecretPath(p, "/home/u") {
			t.Errorf("%s is not secret", p)
		}
	}
}

// XDG_STATE_HOME and XDG_CONFIG_HOME may be symbolic links (and ~/.config a dotfiles checkout's): the
// state and settings stay secret under every name, the link's and the target's, jailed or not; a cat of
// the target's marker ran unasked when the state directory was compared unresolved.
func TestWardenOwnFilesAreSecretThroughLinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	ws := filepath.Join(home, "proj")
	realState, realConfig, dotfiles := filepath.Join(root, "x-real"), filepath.Join(root, "c-real"), filepath.Join(root, "dotfiles")
	for _, f := range []string{filepath.Join(realState, "warden", "marker"), filepath.Join(realConfig, "warden", "settings.json"),
		filepath.Join(realConfig, "warden", "commands", "review.md"), filepath.Join(dotfiles, "config", "warden", "settings.json"),
		filepath.Join(ws, "main.go")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) string {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
		return name
	}
	stateLink, configLink := link(realState, filepath.Join(root, "x-link")), link(realConfig, filepath.Join(root, "c-link"))
	link(filepath.Join(dotfiles, "config"), filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", stateLink)
	t.Setenv("XDG_CONFIG_HOME", configLink)
	for _, jail := range []bool{false, true} {
		e, err := NewEngine(Policy{Workspace: ws, Home: home, ReadOnlyJail: jail})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{
			"cat " + filepath.Join(realState, "warden", "marker"),
			"cat " + filepath.Join(stateLink, "warden", "marker"),
			"grep -r x " + realState,
			"cat " + filepath.Join(realConfig, "warden", "settings.json"),
			"cat " + filepath.Join(configLink, "warden", "settings.json"),
			"cat " + filepath.Join(dotfiles, "config", "warden", "settings.json"),
		} {
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != Ask {
				t.Errorf("jail %v: %q: %s (%s), want ask", jail, cmd, v.Decision, v.Reason)
			}
		}
		if v := e.Decide(Request{Kind: Exec, Command: "cat " + filepath.Join(realConfig, "warden", "commands", "review.md"), Cwd: ws}); jail && v.Decision != Allow {
			t.Errorf("jail: reading a custom command through the resolved settings directory: %s (%s)", v.Decision, v.Reason)
		}
	}
	for p, want := range map[string]bool{
		filepath.Join(realState, "warden", "marker"):                 true,
		filepath.Join(realState, "warden"):                           true,
		filepath.Join(realConfig, "warden", "settings.json"):         true,
		filepath.Join(dotfiles, "config", "warden", "settings.json"): true,
		filepath.Join(realConfig, "warden", "commands", "review.md"): false,
		filepath.Join(realState, "other"):                            false,
	} {
		if got := IsSecretPath(p, home); got != want {
			t.Errorf("IsSecretPath(%s) = %v, want %v", p, got, want)
		}
	}
	// The directories are judged as they resolve when the environment says so, not as they once did.
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "elsewhere"))
	if IsSecretPath(filepath.Join(realState, "warden", "marker"), home) {
		t.Error("the old state directory is still secret after XDG_STATE_HOME moved")
	}
	if !IsSecretPath(filepath.Join(root, "elsewhere", "warden", "marker"), home) {
		t.Error("the new state directory is not secret")
	}
}
