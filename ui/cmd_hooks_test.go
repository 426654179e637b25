package ui

import (
	"strings"
	"testing"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/hooks"
)

type fakeHooks []hooks.Entry

func (f fakeHooks) List() []hooks.Entry { return f }

func TestHooksListsEachHookWithItsSourceAndTheWaitingOnes(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	m.opts.Hooks = fakeHooks{
		{Hook: config.Hook{Event: "PreToolUse", Matcher: "Bash", Command: "python3 ~/.claude/check.py", File: "/home/p/.claude/settings.json"},
			Runs: 3, Last: "exit 2 (blocks)", Output: "use rg instead"},
		{Hook: config.Hook{Event: "SessionStart", Command: "touch \x1b[2Jpwned", File: "/work/project/.claude/settings.json", Project: true},
			Waiting: true},
	}
	typeText(m, "/hooks")
	press(m, "enter")
	screen := plain(m)
	for _, want := range []string{"PreToolUse", "Bash", "python3 ~/.claude/check.py", "/home/p/.claude/settings.json",
		"ran 3×; last exit 2", "SessionStart", ".claude/settings.json          waits for trust", "touch ^[[2Jpwned"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/hooks lacks %q:\n%s", want, screen)
		}
	}
	m2, _ := newTestModel(t, 100, 30)
	typeText(m2, "/hooks")
	press(m2, "enter")
	if !strings.Contains(plain(m2), "No hooks are configured") {
		t.Errorf("without hooks:\n%s", plain(m2))
	}
}
