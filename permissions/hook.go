package permissions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/secrets"
)

// A hook's "allow" (a PreToolUse hook of the person's, in Claude Code's protocol) is an allow rule that
// names the call, and no more: it is weighed where allow rules are, after deny and ask rules, plan mode,
// a dangerous command's question, a run outside the sandbox and what Warden cannot see into, and it covers
// what a rule naming the call would cover. For a command that is the command's programs, as a `Bash` rule
// covers them: not a secret it reads nor a file a redirection writes, which need rules of their own, nor
// a program the repository supplies, which no rule covers. For a file tool it is the one path the call
// names (not its other names, hard links); for an MCP tool, the tool; for web_fetch, the host, though never
// as naming it (NamesHost), so that it opens no loopback or private address. A command it lets run is not
// read-only: it runs as one an allow rule lets run does, outside the read-only jail (By "hook", never
// "readonly"), while one that only reads is judged so as ever, and jailed.
//
// Nor does it cover, for a file tool, what the engine guards for itself (hookUncovered): a file that may
// hold secrets read, as no Bash rule covers a secret a command reads, or a place whose content later
// programs obey written (git's directory and configuration, shell start-up files, Warden's settings, a
// file that may hold secrets such as ~/.ssh/authorized_keys, a directory on PATH). Such a call is decided
// as if the hook had not answered: a person's rule naming the file, or yolo, still allows it.

// hookRule is the raw text of the rule a hook's answer stands for; no rule a person writes reads so.
const hookRule = "(a PreToolUse hook's allow)"

func (e *Engine) decideHookAllowed(s snapshot, req Request) Verdict {
	r := Rule{Raw: hookRule}
	switch req.Kind {
	case Exec:
		r.Tool, r.any = "Bash", true
	case Read, Edit, Write:
		cwd := req.Cwd
		if cwd == "" {
			cwd = e.workspace
		}
		abs := shell.ResolvePath(cwd, req.Path, e.home)
		if what := e.hookUncovered(req.Kind, abs, req.Path); what != "" {
			v := e.decide(s, req)
			if v.Decision != Allow {
				v.Reason += "; a PreToolUse hook's allow does not cover " + what
			}
			return v
		}
		r.Tool, r.pathGlob = "Read", escapeGlob(abs)
		if req.Kind != Read {
			r.Tool = "Edit"
		}
	case MCP:
		r.Tool = req.MCP.Name()
	case Fetch:
		// The rule naming the host, as "always allow this domain" saves it; it stays out of the engine's
		// rules, so NamesHost never counts it and a fetch still reaches no restricted address by it.
		host, err := canonicalHost(req.Host)
		if err != nil {
			return e.decide(s, req)
		}
		r.Tool, r.host = webFetchTool, host
	default:
		return e.decide(s, req)
	}
	s.allow = append(slices.Clip(s.allow), r)
	v := e.decide(s, req)
	if v.Rule == hookRule {
		v.By, v.Rule = "hook", ""
		v.Reason = strings.ReplaceAll(v.Reason, "`"+hookRule+"`", "a PreToolUse hook")
	}
	return v
}

// hookUncovered names what a file tool's call of kind k on abs (path as given) does that a hook's allow
// does not cover, or returns "".
func (e *Engine) hookUncovered(k Kind, abs, path string) string {
	secret := e.mem.IsSecret(abs, e.home) || e.mem.IsSecret(path, e.home)
	if k == Read {
		if secret {
			return "a read of a file that may hold secrets"
		}
		return ""
	}
	switch {
	case secret:
		return "a write to a file that may hold secrets"
	case e.protected(abs):
		return "a write to the repository's or Warden's own settings"
	case secrets.StartupFile(abs):
		return "a write to a file shells run when they start"
	case e.gitConfigPlace(abs):
		return "a write to git's configuration, which later git commands obey"
	case e.onPath(filepath.Dir(abs)):
		return "a write to a directory where commands find their programs"
	}
	return ""
}

// gitConfigPlace reports whether abs is one of the person's git configuration files: ~/.gitconfig,
// git's directory under ~/.config or $XDG_CONFIG_HOME, or a file GIT_CONFIG_GLOBAL names.
func (e *Engine) gitConfigPlace(abs string) bool {
	if e.home != "" && (abs == filepath.Join(e.home, ".gitconfig") || shell.Within(filepath.Join(e.home, ".config", "git"), abs)) {
		return true
	}
	if x, ok := e.lookupEnv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(x) && shell.Within(filepath.Join(x, "git"), abs) {
		return true
	}
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
