package secrets

import "testing"

// The guarded places are matched by whole components, so a name that only resembles one (.gitignore,
// a package called git, .vscode/settings.json, a project's Claude Code commands) is an ordinary file.
func TestGuardedWriteMatchesWholeComponentsOnly(t *testing.T) {
	const home, xdg = "/home/u", "/home/u/cfg"
	for path, want := range map[string]bool{
		"/ws/.git":                                      true,
		"/ws/.git/hooks/pre-commit":                     true,
		"/ws/sub/.git/config":                           true,
		"/ws/.warden/settings.json":                     true,
		"/home/u/.config/warden/x.json":                 true,
		"/ws/.claude/settings.json":                     true,
		"/ws/.claude/settings.local.json":               true,
		"/ws/.claude/hooks/a/b.sh":                      true,
		"/home/u/.claude/commands/x.md":                 true,
		"/home/u/.claude":                               true,
		"/home/u/.gitconfig":                            true,
		"/home/u/cfg/git/config":                        true,
		"/home/u/cfg/autostart/x.desktop":               true,
		"/home/u/cfg/.curlrc":                           true,
		"/home/u/cfg/wgetrc":                            true,
		"/ws/.mcp.json":                                 true,
		"/ws/.vscode/tasks.json":                        true,
		"/ws/.IDEA/runConfigurations/a.xml":             true,
		"/ws/.run/App.run.xml":                          true,
		"/ws/.envrc":                                    true,
		"/home/u/.bashrc":                               true,
		"/var/spool/cron/crontabs/u":                    true,
		"/etc/cron.daily/x":                             true,
		"/etc/ld.so.preload":                            true,
		"/etc/sudoers.d/x":                              true,
		"/etc/gitconfig":                                true,
		"/home/u/.cargo/env":                            true,
		"/home/u/.nvm/nvm.sh":                           true,
		"/home/u/.p10k.zsh":                             true,
		"/home/u/cfg/fish/functions/ls.fish":            true,
		"/home/u/.xsessionrc":                           true,
		"/home/u/.local/share/direnv/allow/abc":         true,
		"/home/u/.vimrc":                                true,
		"/home/u/cfg/nvim/init.lua":                     true,
		"/home/u/.ipython/profile_default/startup/a.py": true,
		"/home/u/.gdbinit":                              true,
		"/home/u/cfg/go/env":                            true,
		"/ws/src/cargo/env.go":                          false,
		"/ws/docs/vimrc.md":                             false,
		"/ws/.gitignore":                                false,
		"/ws/.gitattributes":                            false,
		"/ws/src/git/config.go":                         false,
		"/ws/.vscode/settings.json":                     false,
		"/ws/.claude/commands/review.md":                false,
		"/ws/.claude/skills/x/SKILL.md":                 false,
		"/ws/docs/claude/settings.json":                 false,
		"/ws/package.json":                              false,
		"/ws/run/x.sh":                                  false,
		"/ws/.config/gitx/config":                       false,
		"/ws/lib/x.pth":                                 false,
		"/home/u/.claude.d/x":                           false,
		"/home/u/cfg2/git/config":                       false,
		"/etc/cronx":                                    false,
	} {
		if got := GuardedWrite(path, home, xdg) != ""; got != want {
			t.Errorf("GuardedWrite(%q) guarded = %v, want %v", path, got, want)
		}
	}
}
