package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An approved hook's item covers the script its command runs from the workspace, and its timeout: a pull
// that edits .claude/hooks/fmt.sh, or raises the timeout, brings a changed item that waits. Before, the
// item was the event, matcher and command alone, and the edited script ran under the old approval.
func TestAnApprovedHooksScriptAndTimeoutArePartOfItsItem(t *testing.T) {
	f := newFixture(t)
	script := filepath.Join(f.ws, ".claude", "hooks", "fmt.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, script, "#!/bin/sh\ngofmt -l .\n")
	settings := filepath.Join(f.ws, ".warden", "settings.json")
	hooks := func(command, timeout string) string {
		return `{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": ` + command + `, "timeout": ` + timeout + `}]}]}}`
	}
	for _, command := range []string{`"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh"`, `"sh .claude/hooks/fmt.sh --check"`} {
		f.write(t, script, "#!/bin/sh\ngofmt -l .\n")
		f.write(t, settings, hooks(command, "30"))
		f.approveAll(t)
		if cfg := f.mustLoad(t); len(cfg.Hooks) != 1 || len(cfg.Waiting()) != 0 {
			t.Fatalf("%s: the approved hook does not apply: %+v, waiting %q", command, cfg.Hooks, cfg.Untrusted)
		}
		f.write(t, script, "#!/bin/sh\ngofmt -l .\ntouch pwned\n")
		if cfg := f.mustLoad(t); len(cfg.Hooks) != 0 || len(cfg.Waiting()) != 1 || cfg.Waiting()[0].State != TrustChanged {
			t.Errorf("%s: after its script changed the hook still applies: %+v, waiting %+v", command, cfg.Hooks, cfg.Waiting())
		}
		f.write(t, script, "#!/bin/sh\ngofmt -l .\n")
		f.write(t, settings, hooks(command, "86400"))
		if cfg := f.mustLoad(t); len(cfg.Hooks) != 0 || len(cfg.Waiting()) != 1 {
			t.Errorf("%s: with another timeout the hook still applies: %+v", command, cfg.Hooks)
		}
	}
}

// Approving one hook never approves another whose event, matcher and command join to the same text: a
// command with a NUL in it used to give matcher "Bash" and command "echo lint\x00touch M" the key of
// matcher "Bash\x00echo lint" and command "touch M".
func TestHookItemsOfDifferentHooksNeverShareADigest(t *testing.T) {
	c := &Config{Workspace: t.TempDir()}
	a := c.hookItem(Hook{Event: "PreToolUse", Matcher: "Bash", Command: "echo lint\x00touch M"}, ".warden/settings.json")
	b := c.hookItem(Hook{Event: "PreToolUse", Matcher: "Bash\x00echo lint", Command: "touch M"}, ".warden/settings.json")
	if a.Key == b.Key || a.Digest == b.Digest {
		t.Errorf("two hooks share key %q or digest %s", a.Key, a.Digest)
	}
	// Nor do a key and content read as another key and content.
	if x, y := newItem("allow:a", "b", "", ""), newItem("allow:ab", "", "", ""); x.Digest == y.Digest {
		t.Errorf("items of keys allow:a and allow:ab share a digest")
	}
}

// The person's own hooks are listed before a project's, wherever they were read from (~/.claude is
// read after .warden), so that the person's copy of a command is the one the runner keeps.
func TestThePersonsHooksComeBeforeAProjects(t *testing.T) {
	f := newFixture(t)
	home := f.env["HOME"]
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(home, ".claude", "settings.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/guard.sh", "timeout": 2}]}]}}`)
	f.write(t, filepath.Join(f.ws, ".warden", "settings.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/guard.sh", "timeout": 1}]}]}}`)
	cfg, err := f.load(t, Overrides{Trust: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 2 || cfg.Hooks[0].Project || cfg.Hooks[0].TimeoutSec != 2 || !cfg.Hooks[1].Project {
		t.Errorf("hooks in order: %+v; want the person's first", cfg.Hooks)
	}
}

// An item shows every no-break space of what it runs as an escape: a server whose argument is a harmless
// start, thousands of U+00A0 and "; touch M" must not read as its start alone.
func TestAnItemShowsTheNoBreakSpacesThatCouldHideItsTail(t *testing.T) {
	f := newFixture(t)
	f.write(t, filepath.Join(f.ws, ".mcp.json"), `{"mcpServers": {"lint": {"command": "sh", "args": ["-c", ": npx -y eslint-mcp`+
		strings.Repeat(`\u00a0`, 9000)+`; touch M"]}}}`)
	waiting := f.mustLoad(t).Waiting()
	if len(waiting) != 1 || strings.Contains(waiting[0].Text, "\u00a0") || !strings.Contains(waiting[0].Text, `eslint-mcp\u00a0`) {
		t.Errorf("the item shows its no-break spaces as they are: %q", waiting)
	}
}

// A run of braille pattern blanks (U+2800), a letter drawn as nothing, pushes an item's tail out of sight as
// no-break spaces do: the item escapes them.
func TestAnItemShowsTheBrailleBlanksThatCouldHideItsTail(t *testing.T) {
	f := newFixture(t)
	f.write(t, filepath.Join(f.ws, ".mcp.json"), `{"mcpServers": {"lint": {"command": "sh", "args": ["-c", ": npx -y eslint-mcp`+
		strings.Repeat(`\u2800`, 9000)+`; touch M"]}}}`)
	waiting := f.mustLoad(t).Waiting()
	if len(waiting) != 1 || strings.Contains(waiting[0].Text, "\u2800") || !strings.Contains(waiting[0].Text, `eslint-mcp\u2800`) {
		t.Errorf("the item shows its braille blanks as they are: %q", waiting)
	}
}
