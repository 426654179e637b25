package permissions

import (
	"slices"
	"strings"
)

// A hook's "allow" (a PreToolUse hook of the person's, in Claude Code's protocol) is an allow rule that
// names the call, and no more: it is weighed where allow rules are, after deny and ask rules, plan mode,
// a dangerous command's question, a run outside the sandbox and what Warden cannot see into, and it covers
// what a rule naming the call would cover. For a command that is the command's programs, as a `Bash` rule
// covers them: not a secret it reads nor a file a redirection writes, which need rules of their own, nor
// a program the repository supplies, which no rule covers. For a file tool it is the one path the call
// names (not its other names, hard links); for an MCP tool, the tool. A command it lets run is not
// read-only: it runs as one an allow rule lets run does, outside the read-only jail (By "hook", never
// "readonly"), while one that only reads is judged so as ever, and jailed.

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
		r.Tool, r.pathGlob = "Read", escapeGlob(ResolvePath(cwd, req.Path, e.home))
		if req.Kind != Read {
			r.Tool = "Edit"
		}
	case MCP:
		r.Tool = req.MCP.Name()
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
