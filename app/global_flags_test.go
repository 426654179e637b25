package app

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// globalFlags are every flag commonFlags registers, with a value where one is needed.
var globalFlags = []string{"--trust", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--permission-mode", "plan",
	"--allow", "Bash(ls)", "--deny", "Bash(rm:*)", "--continue", "--resume=20261125-101010-abcdef", "--sandbox=off", "--version"}

// Every subcommand reads the global flags, before its name or after it: `warden --trust undo` was refused
// with "flag provided but not defined". --help ends each line so that nothing runs once the flags are read.
func TestEveryCommandTakesTheGlobalFlagsBeforeOrAfterIt(t *testing.T) {
	// The words a command takes before its flags (mcp list).
	words := map[string][]string{"mcp": {"list"}}
	for name, c := range subcommands("test") {
		w := words[name]
		if len(w) != c.words {
			t.Fatalf("%s takes %d words: add them to this test", name, c.words)
		}
		for _, flag := range globalFlags {
			if !strings.HasPrefix(flag, "-") {
				continue // a value, given with its flag
			}
			for _, args := range [][]string{
				append(append(flagWithValue(flag), name), append(w, "--help")...),
				append(append(append([]string{name}, w...), flagWithValue(flag)...), "--help"),
				slices.Concat([]string{name}, flagWithValue(flag), w, []string{"--help"}),
			} {
				var out, errb bytes.Buffer
				code := Run("test", args, strings.NewReader(""), &out, &errb)
				if code != exitOK || !strings.Contains(out.String(), "Usage:") {
					t.Errorf("warden %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
				}
			}
		}
		// All of them at once, on both sides.
		args := slices.Concat(globalFlags[:4], []string{name}, w, globalFlags[4:], []string{"--help"})
		var out, errb bytes.Buffer
		if code := Run("test", args, strings.NewReader(""), &out, &errb); code != exitOK {
			t.Errorf("warden %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// flagWithValue is flag followed by its value from globalFlags when it takes one.
func flagWithValue(flag string) []string {
	i := slices.Index(globalFlags, flag)
	if i < 0 {
		panic(fmt.Sprintf("%s is not in globalFlags", flag))
	}
	if valueFlags[strings.TrimLeft(flag, "-")] {
		return slices.Clone(globalFlags[i : i+2])
	}
	return slices.Clone(globalFlags[i : i+1])
}
