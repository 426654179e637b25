package supplied

// What git's configuration makes a subcommand that reaches a remote run. Such a subcommand is never
// read-only, and a rule of the person's may allow it (`Bash(git fetch:*)`); what the repository's own
// configuration names for the transport is then a program the repository makes it run, which the rule
// does not cover. The survey, from git's Documentation/config (v2.39):
//   - core.sshCommand and core.gitProxy run a program to reach the remote (GIT_SSH_COMMAND and GIT_SSH
//     are the environment's, the person's);
//   - remote.<name>.uploadpack and .receivepack run a program on the remote's side, which for a local
//     or ext:: remote is this machine, and remote.<name>.vcs picks a remote helper, a program;
//   - a remote's URL, or the url.<base>.insteadOf or pushInsteadOf that rewrites one, in the ext::
//     transport runs the command it holds;
//   - credential.helper and credential.<url>.helper run a program (or a shell command after `!`), and
//     core.askPass asks for a password through one;
//   - protocol.allow and protocol.<name>.allow open the ext:: transport.
// The person's own files (~/.gitconfig, the system's) and ~/.ssh/config, whose ProxyCommand and Match
// exec ssh runs, are theirs: their rule allows what those run.

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/shell"
)

// gitRemoteSubs are the subcommands the read-only table does not have that reach a remote through the
// repository's transport settings (clone reads none of the repository it runs in).
var gitRemoteSubs = map[string]bool{"fetch": true, "pull": true, "push": true, "ls-remote": true, "archive": true,
	"send-pack": true, "fetch-pack": true}

// GitTransport records on the part that the repository git uses in dir makes git's subcommand sub run a
// program to reach a remote, when its own configuration sets one (Supplies), and returns why, or "".
func GitTransport(e *shell.Exec, sub, dir string) string {
	if !gitRemoteSubs[sub] || dir == "" {
		return ""
	}
	r, ok := e.S.FindRepo(dir)
	if !ok {
		return ""
	}
	cfg := e.S.Git().Load(r, gitrepo.LoadOptions{Env: e.LookupEnv, Home: e.S.Ctx.Home})
	if cfg.Problem != "" {
		return Supplies(e, fmt.Sprintf("git's configuration cannot be read as git reads it (%s), so what `git %s` runs to reach a remote is unknown", cfg.Problem, sub), "")
	}
	for _, en := range cfg.Entries {
		if en.File == "" || !transportRuns(en) {
			continue
		}
		reason := fmt.Sprintf("`%s` sets `%s`, which `git %s` runs to reach a remote", e.S.Shown(en.File), en.Key, sub)
		if Supplies(e, reason, en.File, r.GitDir, r.CommonDir, r.Top); e.P.Supplied != "" {
			return reason
		}
	}
	return ""
}

// transportRuns reports whether a configuration entry names a program git runs to reach a remote.
func transportRuns(en gitrepo.Entry) bool {
	switch en.Key {
	case "core.sshcommand", "core.gitproxy", "core.askpass", "credential.helper", "protocol.allow":
		return true
	}
	switch section, name := en.Section(), en.Name(); {
	case section == "remote" && (name == "uploadpack" || name == "receivepack" || name == "vcs"):
		return true
	case section == "remote" && (name == "url" || name == "pushurl"):
		return strings.HasPrefix(strings.TrimSpace(en.Value), "ext::")
	case section == "url" && (name == "insteadof" || name == "pushinsteadof"):
		return strings.Contains(en.Key, "ext::")
	case section == "credential" && name == "helper":
		return true
	case section == "protocol" && name == "allow":
		return true
	}
	return false
}
