package app

import (
	"strings"
	"testing"
)

func TestSplitCommandMovesGlobalFlagsAfterIt(t *testing.T) {
	cmds := map[string]subcommand{"check": {}, "mcp": {words: 1}, "sessions": {}}
	for _, tc := range []struct {
		in, cmd, rest string
	}{
		{"--permission-mode plan check -- touch x", "check", "--permission-mode plan -- touch x"},
		{"check --permission-mode plan -- touch x", "check", "--permission-mode plan -- touch x"},
		{"--trust mcp list --json", "mcp", "list --trust --json"},
		{"mcp --model m list --json", "mcp", "list --model m --json"},
		{"mcp --json", "mcp", "--json"},
		{"--model m --allow Bash(ls) sessions", "sessions", "--model m --allow Bash(ls)"},
		{"fix the bug", "", "fix the bug"},
		{"--model check fix", "", "--model check fix"},
		{"-p -- check", "", "-p -- check"},
	} {
		cmd, rest := splitCommand(strings.Fields(tc.in), cmds)
		if cmd != tc.cmd || strings.Join(rest, " ") != tc.rest {
			t.Errorf("%q: %q %q", tc.in, cmd, rest)
		}
	}
}

func TestResumeArgsTakesAnIDButNotAPrompt(t *testing.T) {
	for in, want := range map[string][]string{
		"--resume 20261125-101010-abcdef": {"--resume=20261125-101010-abcdef"},
		"--resume":                        {"--resume"},
		"--resume --model m":              {"--resume", "--model", "m"},
	} {
		if got := resumeArgs(strings.Fields(in)); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: %q", in, got)
		}
	}
	if got := resumeArgs([]string{"--resume", "fix the bug"}); len(got) != 2 {
		t.Errorf("a prompt was taken for an id: %q", got)
	}
}

func TestOneEditApart(t *testing.T) {
	for _, w := range []string{"sesions", "sessons", "histroy", "chek", "checks", "mpc"} {
		near := false
		for _, c := range []string{"sessions", "history", "check", "mcp"} {
			near = near || oneEditApart(w, c)
		}
		if !near {
			t.Errorf("%s is not taken for a typo", w)
		}
	}
	for _, w := range []string{"refactor", "check", "hi", "test"} {
		for _, c := range []string{"sessions", "history", "check", "mcp", "help"} {
			if oneEditApart(w, c) {
				t.Errorf("%s is taken for a typo of %s", w, c)
			}
		}
	}
}
