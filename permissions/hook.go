package permissions

import (
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
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
// hold secrets read, as no Bash rule covers a secret a command reads, or written, or a place whose
// content later programs run or obey written (guarded.go: git's directory and configuration, Warden's and
// Claude Code's settings and hooks, editors' tasks, direnv's scripts, start-up files, services, a directory
// on PATH). Such a call is decided as if the hook had not answered: a person's rule naming the file, or
// yolo, still allows it.

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
	if secret {
		return "a write to a file that may hold secrets"
	}
	if why := e.guarded(abs); why != "" {
		return "a write to " + why
	}
	return ""
}
