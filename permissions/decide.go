package permissions

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The decision for one request, in the order of DESIGN.md §5, for commands (decideExec) and for the file
// tools' paths (decidePath).

// Decide returns the verdict for one request, in the order of DESIGN.md §5: a deny rule matching any part
// denies; an ask rule asks; plan mode denies what is not read-only; what is read-only or allowed by rules
// is allowed; yolo allows the rest (but asks for dangerous commands); accept-edits allows file edits inside
// the workspace; everything else asks.
func (e *Engine) Decide(req Request) Verdict {
	s := e.snapshot()
	if req.HookAllowed {
		return e.decideHookAllowed(s, req)
	}
	return e.decide(s, req)
}

func (e *Engine) decide(s snapshot, req Request) Verdict {
	switch req.Kind {
	case None:
		return Verdict{Decision: Allow, By: "policy", Reason: "changes nothing", ReadOnly: true}
	case Read, Edit, Write:
		return e.decidePath(s, req)
	case Exec:
		return e.decideExec(s, req)
	case MCP:
		return e.decideMCP(s, req)
	case Fetch:
		return e.decideFetch(s, req)
	}
	return Verdict{Decision: Ask, By: "policy", Reason: fmt.Sprintf("unknown kind of request %d", req.Kind)}
}

// inside reports whether abs is in the workspace or an additional directory.
func (e *Engine) inside(abs string) bool {
	if shell.Within(e.workspace, abs) {
		return true
	}
	for _, d := range e.dirs {
		if shell.Within(d, abs) {
			return true
		}
	}
	return false
}

// pathRules returns the rules of list that govern requests of kind k: Read rules govern reads; Edit and
// Write rules both govern any change to a file.
func pathRules(list []Rule, k Kind) []Rule {
	var out []Rule
	for _, r := range list {
		switch {
		case k == Read && r.Tool == "Read", (k == Edit || k == Write) && (r.Tool == "Edit" || r.Tool == "Write"):
			out = append(out, r)
		}
	}
	return out
}

func firstPathMatch(rules []Rule, abs string) (Rule, bool) {
	for _, r := range rules {
		if r.matchPath(abs) {
			return r, true
		}
	}
	return Rule{}, false
}

func (e *Engine) decidePath(s snapshot, req Request) Verdict {
	cwd := req.Cwd
	if cwd == "" {
		cwd = e.workspace
	}
	abs := shell.ResolvePath(cwd, req.Path, e.home)
	secret := e.mem.IsSecret(abs, e.home) || e.mem.IsSecret(req.Path, e.home)
	v := e.decideName(s, req.Kind, abs, req.Path, "`"+req.Path+"`", secret)
	if v.Decision == Deny {
		return v
	}
	return e.throughLinks(s, req, abs, v)
}

// decideName decides a request of kind k for the file at abs under that name alone. what is how the
// reason names it, part the verdict's Part.
func (e *Engine) decideName(s snapshot, k Kind, abs, part, what string, secret bool) Verdict {
	verb := map[Kind]string{Read: "reads", Edit: "edits", Write: "writes"}[k]
	v := Verdict{Part: part}
	if r, ok := firstPathMatch(pathRules(s.deny, k), abs); ok {
		v.Decision, v.By, v.Rule = Deny, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s %s, denied by `%s`", verb, what, r.Raw)
		return v
	}
	if r, ok := firstPathMatch(pathRules(s.ask, k), abs); ok {
		v.Decision, v.By, v.Rule = Ask, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s %s, which `%s` asks about", verb, what, r.Raw)
		return v
	}
	inside := e.inside(abs)
	allowRule, allowed := firstPathMatch(pathRules(s.allow, k), abs)
	guarded := ""
	if k != Read {
		guarded = e.guarded(abs)
	}
	if k == Read {
		v.ReadOnly = true
		switch {
		case allowed:
			v.Decision, v.By, v.Rule = Allow, "rule", allowRule.Raw
			v.Reason = fmt.Sprintf("reads %s, allowed by `%s`", what, allowRule.Raw)
			return v
		case secret:
			v.Reason = fmt.Sprintf("reads %s, which may hold secrets", what)
		case inside:
			v.Decision, v.By, v.Part = Allow, "readonly", ""
			v.Reason = fmt.Sprintf("reads %s inside the workspace", what)
			return v
		default:
			v.Reason = fmt.Sprintf("reads %s, outside the workspace", what)
		}
		if s.mode == ModeYolo {
			v.Decision, v.By = Allow, "mode"
			v.Reason = fmt.Sprintf("reads %s; yolo mode allows it", what)
			return v
		}
		v.Decision, v.By = Ask, "policy"
		v.SuggestedRule = suggestPathRule(k, abs, e.workspace, e.home)
		return v
	}
	switch {
	case s.mode == ModePlan:
		v.Decision, v.By = Deny, "mode"
		v.Reason = fmt.Sprintf("%s %s; plan mode only reads", verb, what)
		return v
	case allowed:
		v.Decision, v.By, v.Rule = Allow, "rule", allowRule.Raw
		v.Reason = fmt.Sprintf("%s %s, allowed by `%s`", verb, what, allowRule.Raw)
		return v
	case s.mode == ModeYolo:
		v.Decision, v.By = Allow, "mode"
		v.Reason = fmt.Sprintf("%s %s; yolo mode allows it", verb, what)
		return v
	case s.mode == ModeAcceptEdits && inside && guarded == "":
		v.Decision, v.By = Allow, "mode"
		v.Reason = fmt.Sprintf("%s %s; accept-edits allows edits in the workspace", verb, what)
		return v
	}
	v.Decision, v.By = Ask, "policy"
	v.Reason = fmt.Sprintf("%s %s", verb, what)
	if !inside {
		v.Reason += ", outside the workspace"
	}
	if guarded != "" {
		v.Reason += ": a write to " + guarded
	}
	v.SuggestedRule = suggestPathRule(k, abs, e.workspace, e.home)
	return v
}

// bashMatch finds the first Bash rule matching a part. For deny and ask every wrapper layer is tried, with
// the program's directory dropped too (`/bin/rm` is `rm`); for allow only the innermost command (unless a
// wrapper acts itself) or the whole command as written may match, and the words the rule names must be
// known before running.
func bashMatch(rules []Rule, p *shell.Part, allow bool) (Rule, bool) {
	for _, r := range rules {
		if r.Tool != "Bash" {
			continue
		}
		if !allow {
			for _, layer := range p.Layers {
				if r.matchArgs(layer) || r.matchShape(layer) {
					return r, true
				}
				if len(layer) > 0 && strings.Contains(layer[0], "/") {
					alt := append([]string{filepath.Base(layer[0])}, layer[1:]...)
					if r.matchArgs(alt) {
						return r, true
					}
				}
			}
			if r.any && len(p.Layers) == 0 && len(p.Args) == 0 {
				return r, true
			}
			continue
		}
		if len(p.Args) == 0 {
			continue
		}
		need := len(p.ArgStatic)
		if r.prefix {
			need = min(r.literalWords(), need)
		} else if p.OpenTail {
			continue
		}
		known := true
		for _, st := range p.ArgStatic[:need] {
			known = known && st
		}
		if !known && !r.any {
			continue
		}
		if p.RunsAs != "" {
			// A link on PATH to another program: a rule for the name (or a wrapper of it) allows the
			// program the person knows by that name, not the one that runs.
			if r.matchArgs(append([]string{p.RunsAs}, p.Args[1:]...)) {
				return r, true
			}
			continue
		}
		if !p.ActsItself && r.matchArgs(p.Args) {
			return r, true
		}
		if len(p.Layers) > 1 && p.Static && r.matchArgs(p.Layers[0]) {
			return r, true
		}
	}
	return Rule{}, false
}

// partPaths returns the rule matching any of the part's reads (for Read rules) or writes (Edit/Write).
func (e *Engine) partPaths(rules []Rule, p *shell.Part) (Rule, string, bool) {
	if r, path, ok := e.namedPaths(rules, p); ok {
		return r, path, true
	}
	return treePaths(rules, p)
}

// namedPaths returns the rule matching a file the part names: a read or a write of that very path.
func (e *Engine) namedPaths(rules []Rule, p *shell.Part) (Rule, string, bool) {
	for _, path := range p.Reads {
		abs := e.absFor(path)
		if r, ok := firstPathMatch(pathRules(rules, Read), abs); ok {
			return r, path, true
		}
	}
	for _, path := range p.Writes {
		abs := e.absFor(path)
		if r, ok := firstPathMatch(pathRules(rules, Write), abs); ok {
			return r, path, true
		}
	}
	return Rule{}, "", false
}

// rootedIn returns the Read rule that denies the directory a recursive read starts from, or a file
// right below it.
func rootedIn(rules []Rule, p *shell.Part) (Rule, string, bool) {
	for _, t := range p.Trees {
		for _, r := range pathRules(rules, Read) {
			if r.matchPath(t.Dir) || r.matchPath(filepath.Join(t.Dir, "x")) {
				return r, t.Dir, true
			}
		}
	}
	return Rule{}, "", false
}

// treePaths returns the Read rule naming something below a directory the part reads recursively (grep -r,
// rg, git log -p with no pathspec).
func treePaths(rules []Rule, p *shell.Part) (Rule, string, bool) {
	for _, t := range p.Trees {
		for _, r := range pathRules(rules, Read) {
			if r.mayMatchUnder(t) {
				return r, t.Dir, true
			}
		}
	}
	return Rule{}, "", false
}

func (e *Engine) absFor(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	return shell.ResolveBelow(e.workspace, path)
}

func (e *Engine) decideExec(s snapshot, req Request) Verdict {
	cwd := req.Cwd
	if cwd == "" {
		cwd = e.workspace
	}
	cls := Classify(req.Command, e.Context(cwd))
	v := Verdict{ReadOnly: cls.ReadOnly, Dangerous: cls.Dangerous}
	for i := range cls.Parts {
		p := &cls.Parts[i]
		if r, ok := bashMatch(s.deny, p, false); ok {
			v.Decision, v.By, v.Rule, v.Part = Deny, "rule", r.Raw, p.Text
			v.Reason = fmt.Sprintf("`%s` is denied by `%s`", partName(p), r.Raw)
			return v
		}
		r, path, ok := e.namedPaths(s.deny, p)
		if !ok {
			// A recursive read rooted inside what a rule denies (git log -p -- secrets/) names it too.
			r, path, ok = rootedIn(s.deny, p)
		}
		if !ok {
			if r, path, ok = e.historyDenied(s.deny, p); ok {
				v.Decision, v.By, v.Rule, v.Part = Deny, "rule", r.Raw, p.Text
				v.Reason = fmt.Sprintf("`%s` reads git's object store, whose history holds `%s`, denied by `%s`", partName(p), path, r.Raw)
				return v
			}
		}
		if ok {
			v.Decision, v.By, v.Rule, v.Part = Deny, "rule", r.Raw, p.Text
			v.Reason = fmt.Sprintf("`%s` touches `%s`, denied by `%s`", partName(p), path, r.Raw)
			return v
		}
	}
	// A recursive read that merely covers a denied path may well skip it (grep -r TODO . over a tree
	// with secrets/ in it): the person decides, and the reason names what is denied.
	for i := range cls.Parts {
		p := &cls.Parts[i]
		if r, dir, ok := treePaths(s.deny, p); ok {
			v.Decision, v.By, v.Rule, v.Part = Ask, "rule", r.Raw, p.Text
			v.Reason = fmt.Sprintf("`%s` reads everything below `%s`, which includes paths denied by `%s`", partName(p), dir, r.Raw)
			return v
		}
	}
	for i := range cls.Parts {
		p := &cls.Parts[i]
		r, ok := bashMatch(s.ask, p, false)
		if !ok {
			var path string
			r, path, ok = e.partPaths(s.ask, p)
			_ = path
		}
		if ok {
			v.Decision, v.By, v.Rule, v.Part = Ask, "rule", r.Raw, p.Text
			v.Reason = fmt.Sprintf("`%s` matches `%s`, which asks", partName(p), r.Raw)
			v.SuggestedRule = suggestFor(cls, e.Context(cwd))
			return v
		}
	}
	if s.mode == ModePlan && !cls.ReadOnly {
		v.Decision, v.By, v.Part = Deny, "mode", cls.Part
		v.Reason = cls.Reason + "; plan mode only reads"
		return v
	}
	if req.Unsandboxed {
		// Leaving the sandbox is the person's call every time: no mode, rule or grant answers for them.
		v.Decision, v.By, v.Part = Ask, "policy", req.Command
		v.Reason = "runs OUTSIDE the sandbox, as the model asked"
		if cls.Dangerous {
			v.Reason += "; " + cls.Reason
		}
		return v
	}
	if cls.Dangerous {
		v.Decision, v.By = Ask, "policy"
		for _, p := range cls.Parts {
			if p.Dangerous {
				v.Part, v.Reason = p.Text, p.Reason
				break
			}
		}
		return v
	}
	// A deny or ask rule is a promise in every mode: what it cannot be checked against asks, and no mode
	// or rule allows it, so none is offered.
	if uv, ok := e.unseenVerdict(s, cls); ok {
		return uv
	}
	// Coverage: every part read-only (and not a secret) or allowed by rules. A rule allows a program as
	// the person knows it, not a program the working tree makes it run (git diff running the
	// repository's diff.external): such a part stays uncovered, and passed names the rule it got past.
	var uncovered []*shell.Part
	var used, passed string
	allReadOnly := true
	for i := range cls.Parts {
		p := &cls.Parts[i]
		if p.ReadOnly && !p.Secret {
			continue
		}
		allReadOnly = false
		if r, ok := e.coveredByRules(s.allow, p); ok {
			if p.Supplied == "" {
				if used == "" {
					used = r
				}
				continue
			}
			if passed == "" {
				passed = r
			}
		}
		uncovered = append(uncovered, p)
	}
	if len(uncovered) == 0 {
		v.Decision = Allow
		if allReadOnly {
			v.By, v.Reason = "readonly", "read-only"
			if len(cls.Parts) > 0 {
				v.Reason = fmt.Sprintf("`%s` only reads", partName(&cls.Parts[0]))
			}
			return v
		}
		v.By, v.Rule = "rule", used
		v.Reason = fmt.Sprintf("allowed by `%s`", used)
		return v
	}
	first := uncovered[0]
	v.Part, v.Reason = first.Text, first.Reason
	if s.mode == ModeYolo {
		v.Decision, v.By = Allow, "mode"
		shown := first.Text
		if len(shown) > 60 || strings.Contains(shown, "\n") {
			shown = partName(first)
		}
		v.Reason = fmt.Sprintf("yolo mode allows `%s`", shown)
		return v
	}
	// The sandbox bounds writes and the network, not reading: a secret read still goes to the model.
	if s.sandboxAuto && !slices.ContainsFunc(uncovered, func(p *shell.Part) bool { return p.Secret }) {
		v.Decision, v.By = Allow, "sandbox"
		v.Reason = fmt.Sprintf("%s, but the sandbox bounds it (writes only in the workspace, no network)", first.Reason)
		return v
	}
	if s.mode == ModeAcceptEdits {
		ok := true
		for _, p := range uncovered {
			if !p.EditOnly || p.Secret {
				ok = false
				break
			}
			for _, w := range p.Writes {
				abs := e.absFor(w)
				if !e.inside(abs) || e.guarded(abs) != "" {
					ok = false
				}
			}
		}
		if ok {
			v.Decision, v.By = Allow, "mode"
			v.Reason = "accept-edits allows edits in the workspace"
			return v
		}
	}
	v.Decision, v.By = Ask, "policy"
	v.SuggestedRule = suggestFor(cls, e.Context(cwd))
	if i := slices.IndexFunc(uncovered, func(p *shell.Part) bool { return p.Supplied != "" }); i >= 0 {
		// No rule would cover it, so none is offered: the person approves it once, each time.
		v.SuggestedRule, v.RuleCannotAllow = "", true
		if i == 0 {
			v.Reason = first.Supplied
			if passed != "" {
				v.Reason += fmt.Sprintf("; `%s` allows `%s`, not what the repository makes it run", passed, partName(first))
			}
		}
	}
	return v
}

// coveredByRules reports whether allow rules cover everything a part does that is not read-only.
func (e *Engine) coveredByRules(allow []Rule, p *shell.Part) (string, bool) {
	used := ""
	// Secrets need a Read rule naming them.
	if p.Secret {
		// A secret read no rule can name (through /proc/self or /dev/fd) is never covered.
		used = "-"
		for _, path := range p.Reads {
			if !e.mem.IsSecret(path, e.home) {
				continue
			}
			r, ok := firstPathMatch(pathRules(allow, Read), e.absFor(path))
			if !ok {
				return "", false
			}
			used = r.Raw
		}
		if used == "-" {
			return "", false
		}
		if p.ReadOnly {
			return used, true
		}
	}
	if r, ok := bashMatch(allow, p, true); ok {
		// The program is allowed; files its redirections write still need their own rule.
		for _, w := range p.RedirWrites {
			if _, ok := firstPathMatch(pathRules(allow, Write), e.absFor(w)); !ok {
				return "", false
			}
		}
		return r.Raw, true
	}
	if p.EditOnly && len(p.Writes) > 0 {
		for _, w := range p.Writes {
			r, ok := firstPathMatch(pathRules(allow, Write), e.absFor(w))
			if !ok {
				return "", false
			}
			used = r.Raw
		}
		return used, true
	}
	return "", false
}

// partName is how reasons name a part: its program and subcommand, or its text.
func partName(p *shell.Part) string {
	if len(p.Args) > 0 {
		ws := make([]shell.Word, len(p.Args))
		for i, a := range p.Args {
			ws[i] = shell.Word{Value: a}
		}
		return shell.Display(ws)
	}
	return p.Text
}
