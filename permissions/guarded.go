package permissions

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/secrets"
)

// guarded returns why a write to abs must ask even in accept-edits and under a PreToolUse hook's allow,
// or "": a place whose content later programs run or obey, so that a write there is code run later
// without a question (secrets.GuardedWrite: git's directory and configuration, Warden's and Claude Code's
// settings and hooks, .mcp.json, an editor's tasks, direnv's scripts, start-up files, services...), a
// script a hook runs (Policy.HookFiles), a file git's variables name as its configuration, or a directory
// on PATH. The one catalogue both consult.
func (e *Engine) guarded(abs string) string {
	configHome, _ := e.lookupEnv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(configHome) {
		configHome = ""
	}
	if why := secrets.GuardedWrite(abs, e.home, configHome); why != "" {
		return why
	}
	switch {
	case slices.Contains(e.hookFiles, abs):
		return "a script a hook runs, outside the jail, at its next event"
	case e.gitConfigFile(abs):
		return "git's configuration, which later git commands obey"
	case e.onPath(filepath.Dir(abs)):
		return "a directory where commands find their programs"
	}
	return ""
}

// gitConfigFile reports whether abs is a file git's variables name as its configuration
// (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG); the usual places are in secrets.GuardedWrite.
func (e *Engine) gitConfigFile(abs string) bool {
	for _, v := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"} {
		if f, ok := e.lookupEnv(v); ok && f != "" && shell.ResolvePath("/", f, e.home) == abs {
			return true
		}
	}
	return false
}

// onPath reports whether dir is one of the directories of the PATH commands inherit, as written or
// resolved.
func (e *Engine) onPath(dir string) bool {
	path, _ := e.lookupEnv("PATH")
	for _, d := range filepath.SplitList(path) {
		if filepath.IsAbs(d) && (filepath.Clean(d) == dir || shell.ResolvePath("/", d, "") == dir) {
			return true
		}
	}
	return false
}

// lookupEnv looks a variable up in the environment commands inherit (Policy.Env, or Warden's own).
func (e *Engine) lookupEnv(name string) (string, bool) {
	if e.policy.Env != nil {
		return e.policy.Env(name)
	}
	return os.LookupEnv(name)
}
