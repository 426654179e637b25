package secrets

import (
	"path/filepath"
	"slices"
	"strings"
)

// guards are the places a write to which changes what later programs run or whom they trust: what
// git, Warden, Claude Code, an editor, direnv, a package manager, curl, the session manager or cron obey
// the next time they start, without asking anyone. A write there is code run later, by someone else:
// neither accept-edits nor a PreToolUse hook's allow covers it (GuardedWrite). Each kind says why, in
// the words that follow "a write to".
//
// names are file names matched in any directory; files and dirs are component sequences matched
// anywhere in a path (so under any home, and under XDG_CONFIG_HOME as `.config`), files naming one
// file, dirs a directory and everything below it. Ordinary project files stay out: package.json,
// Makefile, a VS Code settings.json, CI workflows are edited all day, and what runs them asks itself.
var guards = []struct {
	names, files, dirs []string
	reason             string
}{
	{dirs: []string{".git"},
		reason: "git's directory, whose hooks and configuration later git commands run"},
	{dirs: []string{".warden", ".config/warden"},
		reason: "Warden's settings, which say what runs unasked"},
	{dirs: []string{".claude/hooks"}, files: []string{".claude/settings.json", ".claude/settings.local.json"},
		reason: "Claude Code's settings or hook scripts, which Warden and Claude Code run as the person's hooks"},
	{names: []string{".mcp.json"},
		reason: "the MCP servers Warden and Claude Code start"},
	{names: []string{".devcontainer.json"}, files: []string{".vscode/tasks.json", ".vscode/launch.json"},
		dirs:   []string{".devcontainer", ".idea/runconfigurations", ".run"},
		reason: "what an editor or a dev container runs (tasks, launch and run configurations, a container's commands)"},
	{names: []string{".envrc"}, dirs: []string{".config/direnv"},
		reason: "direnv's scripts, which the shell runs on entering a directory"},
	{names: []string{".npmrc", ".yarnrc", ".yarnrc.yml"},
		reason: "a package manager's configuration, which names programs and scripts it runs"},
	{names: []string{".curlrc", ".wgetrc"}, files: []string{".config/wgetrc"},
		reason: "curl's or wget's defaults, which every later call obeys"},
	{dirs: []string{".config/systemd/user", ".local/share/systemd/user", ".config/autostart"},
		reason: "the services and programs started at login"},
	{dirs: []string{".config/git"},
		reason: "git's configuration, which later git commands obey"},
	{names: []string{"sitecustomize.py", "usercustomize.py"},
		reason: "Python's start-up code, which every later python runs"},
	{names: []string{".p10k.zsh", ".fzf.bash", ".fzf.zsh", "oh-my-zsh.sh", "nvm.sh", "sdkman-init.sh", ".zcompdump"},
		files: []string{".cargo/env", ".ghcup/env"}, dirs: []string{".oh-my-zsh/custom", ".config/fish"},
		reason: "a file shells read as they start (sourced by a start-up file, or fish's own)"},
	{names: []string{".xprofile", ".xsessionrc", ".xinitrc", ".xsession"},
		reason: "a file the login session runs"},
	{dirs: []string{".local/share/direnv"},
		reason: "direnv's record of the .envrc files it may run"},
	{names: []string{".vimrc", ".exrc", ".tmux.conf", ".screenrc", ".psqlrc", ".gdbinit", ".bunfig.toml", ".lesskey"},
		files:  []string{".config/go/env", ".config/lesskey"},
		dirs:   []string{".config/nvim", ".vim/plugin", ".config/tmux", ".ipython/profile_default/startup"},
		reason: "a program's start-up file, which names programs or code it runs"},
}

// systemGuards are the system's places of the same kinds, for a Warden run as root: cron's tables, the
// system's services and autostart entries, what every program loads (ld.so.preload) or obeys (git's
// system configuration, the profile), and who may do what (sudoers, PAM, accounts, sshd).
var systemGuards = []string{"/etc/crontab", "/etc/anacrontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily",
	"/etc/cron.weekly", "/etc/cron.monthly", "/var/spool/cron", "/etc/systemd", "/etc/xdg/autostart",
	"/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/sudoers", "/etc/sudoers.d", "/etc/gitconfig",
	"/etc/profile", "/etc/profile.d", "/etc/environment", "/etc/security", "/etc/pam.d", "/etc/ssh", "/etc/init.d",
	"/etc/rc.local", "/etc/udev", "/etc/apt/apt.conf.d", "/etc/passwd", "/etc/shadow", "/etc/group"}

// GuardedWrite returns why a write to path (absolute, cleaned) changes what later programs run or whom
// they trust, or "": a place of guards; a shell start-up file (StartupFile); in the home directory home,
// Claude Code's whole directory (~/.claude: settings, hooks, commands, agents) and ~/.gitconfig; under
// configHome ($XDG_CONFIG_HOME, "" when unset) what guards names under `.config`; a .pth file in Python's
// site-packages; cron's tables and the system's services. Names are compared without case, as a
// case-insensitive file system opens them. It reads nothing. A file that may hold secrets, a directory
// on PATH and the files git's variables name are the caller's to add: they depend on the environment.
func GuardedWrite(path, home, configHome string) string {
	if path == "" {
		return ""
	}
	clean := filepath.ToSlash(filepath.Clean(path))
	if StartupFile(clean) {
		return "a file shells run when they start"
	}
	lower := strings.ToLower(clean)
	comps := strings.Split(strings.Trim(lower, "/"), "/")
	if why := guardedComps(comps); why != "" {
		return why
	}
	if home != "" {
		if rel, ok := below(strings.ToLower(filepath.ToSlash(filepath.Clean(home))), lower); ok {
			switch {
			case rel == ".claude" || strings.HasPrefix(rel, ".claude/"):
				return "Claude Code's own directory (its settings, hooks and commands), which Warden and Claude Code obey"
			case rel == ".gitconfig":
				return "git's configuration, which later git commands obey"
			}
		}
	}
	if configHome != "" {
		if rel, ok := below(strings.ToLower(filepath.ToSlash(filepath.Clean(configHome))), lower); ok && rel != "" {
			if why := guardedComps(append([]string{".config"}, strings.Split(rel, "/")...)); why != "" {
				return why
			}
			if rel == ".curlrc" {
				return "curl's or wget's defaults, which every later call obeys"
			}
		}
	}
	if strings.HasSuffix(lower, ".pth") && len(comps) > 1 {
		if parent := comps[len(comps)-2]; parent == "site-packages" || parent == "dist-packages" {
			return "Python's start-up code, which every later python runs"
		}
	}
	for _, s := range systemGuards {
		if _, ok := below(s, lower); ok {
			return "cron's tables or the system's services, which run on their own"
		}
	}
	return ""
}

// guardedComps returns the reason of the first guard whose names, files or dirs match comps, a path's
// components in lower case.
func guardedComps(comps []string) string {
	base := comps[len(comps)-1]
	for _, g := range guards {
		for _, n := range g.names {
			if base == n {
				return g.reason
			}
		}
		for _, f := range g.files {
			if fc := strings.Split(f, "/"); len(fc) <= len(comps) && sameComps(comps[len(comps)-len(fc):], fc) {
				return g.reason
			}
		}
		for _, d := range g.dirs {
			dc := strings.Split(d, "/")
			for i := 0; i+len(dc) <= len(comps); i++ {
				if sameComps(comps[i:i+len(dc)], dc) {
					return g.reason
				}
			}
		}
	}
	return ""
}

func sameComps(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// below returns path relative to dir ("" for dir itself) when path is dir or lies below it.
func below(dir, path string) (string, bool) {
	if path == dir {
		return "", true
	}
	if dir == "/" {
		return strings.TrimPrefix(path, "/"), true
	}
	rest, ok := strings.CutPrefix(path, dir+"/")
	return rest, ok
}

// ProjectEntries lists the guarded places a project's top directory may hold, as paths relative to it:
// the directories and files of guards that are not under a home's `.config` or `.local`, and the file
// names guards matches anywhere. The first wall (tools/sandbox) keeps those that exist read-only for a
// command it lets run unasked; a place that does not exist yet cannot be bound there.
func ProjectEntries() []string {
	var out []string
	for _, g := range guards {
		for _, list := range [][]string{g.dirs, g.files, g.names} {
			for _, p := range list {
				if strings.HasPrefix(p, ".config/") || strings.HasPrefix(p, ".local/") || slices.Contains(out, p) {
					continue
				}
				out = append(out, p)
			}
		}
	}
	return out
}
