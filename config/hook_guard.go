package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HookFiles returns the files the hooks' commands name (the script a hook runs, and what its command
// gives it), absolute, the person's hooks and the project's, approved or waiting: what a hook runs runs
// outside the jail at its next event, so the permission engine guards these files from writes that
// accept-edits or a PreToolUse hook's allow would otherwise let through. Words are read as namedFiles
// reads them, with $CLAUDE_PROJECT_DIR, $HOME and ~ put in; a word still holding an expansion, and a
// name that is no regular file now, are left out. home is the person's home directory, "" if unknown.
func (c *Config) HookFiles(home string) []string {
	var out []string
	for _, h := range slices.Concat(c.Hooks, c.UntrustedHooks) {
		for _, w := range commandWords(h.Command) {
			w = strings.NewReplacer("${CLAUDE_PROJECT_DIR}", c.Workspace, "$CLAUDE_PROJECT_DIR", c.Workspace).Replace(w)
			if home != "" {
				w = strings.NewReplacer("${HOME}", home, "$HOME", home).Replace(w)
				if rest, ok := strings.CutPrefix(w, "~/"); ok {
					w = filepath.Join(home, rest)
				}
			}
			if w == "" || strings.ContainsAny(w, "$`*?[~") {
				continue
			}
			if !filepath.IsAbs(w) {
				w = filepath.Join(c.Workspace, w) // hooks run in the workspace
			}
			w = filepath.Clean(w)
			if fi, err := os.Stat(w); err != nil || !fi.Mode().IsRegular() || slices.Contains(out, w) {
				continue
			}
			out = append(out, w)
		}
	}
	return out
}
