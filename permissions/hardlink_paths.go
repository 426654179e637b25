package permissions

// The file tools' paths through hard links. read_file, edit_file and write_file name one path, but a
// file with other names is read or changed under all of them: hl, a hard link to .env, is .env. A
// request is therefore decided under each other name too (the search is shell/hardlinks.go's), and the
// strictest answer stands; the grep tool asks HardLinks about the files it is about to search.

import (
	"fmt"
	"path/filepath"

	"github.com/warden-cli/warden/permissions/shell"
)

// throughLinks decides the request again under each other name of the file at abs and returns the
// strictest of those verdicts and v, the verdict under its own name. One name may deny or ask where the
// other would not; an edit of a secret under another name asks even in accept-edits, which allows
// edits only as they show, and a file whose names could not all be looked for asks.
func (e *Engine) throughLinks(s snapshot, req Request, abs string, v Verdict) Verdict {
	others, complete := e.linkedNames(abs)
	if len(others) == 0 && complete {
		return v
	}
	verb := map[Kind]string{Read: "reads", Edit: "edits", Write: "writes"}[req.Kind]
	shown := e.shownName(abs)
	for _, o := range others {
		what := fmt.Sprintf("`%s` (a hard link to `%s`)", shown, e.shownName(o))
		secret := e.mem.IsSecret(o, e.home)
		ov := e.decideName(s, req.Kind, o, req.Path, what, secret)
		if req.Kind != Read && secret && ov.Decision == Allow && ov.By == "mode" && s.mode == ModeAcceptEdits {
			ov.Decision, ov.By = Ask, "policy"
			ov.Reason = fmt.Sprintf("%s %s, which may hold secrets; accept-edits allows only edits that show what they change", verb, what)
			ov.SuggestedRule = suggestPathRule(req.Kind, o, e.workspace, e.home)
		}
		switch {
		case ov.Decision == Deny:
			return ov
		case ov.Decision == Ask && (v.Decision == Allow || ov.By == "rule" && v.By != "rule"):
			v = ov
		}
	}
	if !complete && v.Decision == Allow && v.By != "rule" && s.mode != ModeYolo {
		v.Decision, v.By, v.Part = Ask, "policy", req.Path
		v.Reason = fmt.Sprintf("%s `%s`, which has other names (hard links) that Warden could not all look for", verb, shown)
		v.SuggestedRule = suggestPathRule(req.Kind, abs, e.workspace, e.home)
	}
	return v
}

// linkedNames returns the other names of the file at abs (resolved) when it has more than one.
// complete is false when they could not all be looked for.
func (e *Engine) linkedNames(abs string) (others []string, complete bool) {
	target, ok := shell.LinkTarget(abs)
	if !ok {
		return nil, true
	}
	found, complete := e.mem.OtherNames(map[shell.Inode]bool{target: true}, e.roots(), e.home)
	for _, n := range found[target] {
		if n != abs {
			others = append(others, n)
		}
	}
	return others, complete
}

// HardLinks returns the other names of those of paths (absolute, resolved) that have more than one, in
// one search: every such path has an entry, empty when no other name was found where Warden looks.
// complete is false when the names could not all be looked for; a search then leaves those files out.
func (e *Engine) HardLinks(paths []string) (others map[string][]string, complete bool) {
	of := map[string]shell.Inode{}
	targets := map[shell.Inode]bool{}
	for _, p := range paths {
		if k, ok := shell.LinkTarget(p); ok {
			of[p], targets[k] = k, true
		}
	}
	if len(targets) == 0 {
		return nil, true
	}
	found, complete := e.mem.OtherNames(targets, e.roots(), e.home)
	others = make(map[string][]string, len(of))
	for p, k := range of {
		names := []string{}
		for _, n := range found[k] {
			if n != p {
				names = append(names, n)
			}
		}
		others[p] = names
	}
	return others, complete
}

// roots returns the resolved workspace and additional directories.
func (e *Engine) roots() []string {
	if e.workspace == "" {
		return e.dirs
	}
	return append([]string{e.workspace}, e.dirs...)
}

// shownName is how a reason names a file: relative to the workspace inside it, from ~ in the home
// directory.
func (e *Engine) shownName(abs string) string {
	if e.workspace != "" && shell.Within(e.workspace, abs) {
		if rel, err := filepath.Rel(e.workspace, abs); err == nil {
			return rel
		}
	}
	if e.home != "" && shell.Within(e.home, abs) {
		if rel, err := filepath.Rel(e.home, abs); err == nil {
			return "~/" + rel
		}
	}
	return abs
}
