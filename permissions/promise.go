package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/warden-cli/warden/ignore"
	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// The one place where the engine keeps the promise of deny and ask rules (shell/unseen.go): while any is in
// force, a command with a part Warden cannot see asks, whatever the mode and the allow rules. A part is
// unseen when the walker marked it; when it does more than read and Warden's model of it ends somewhere
// (package models: a program, an option, a place that takes code or a path Warden does not follow); when
// words only known at run time may decide whether a rule matches (a program or subcommand a Bash rule
// names, a path a path rule could govern); or when it gives a program whose reads and writes Warden does
// not model a path a path rule governs.

// guardRules are the deny and ask rules a command is checked against: Bash rules and path rules.
func guardRules(s snapshot) (bash, paths []Rule) {
	for _, list := range [][]Rule{s.deny, s.ask} {
		for _, r := range list {
			switch r.Tool {
			case "Bash":
				bash = append(bash, r)
			case "Read", "Edit", "Write":
				paths = append(paths, r)
			}
		}
	}
	return bash, paths
}

// unseenVerdict returns the question to ask when deny or ask rules are in force and some part of the
// command is unseen.
func (e *Engine) unseenVerdict(s snapshot, cls Classification) (Verdict, bool) {
	bash, paths := guardRules(s)
	if len(bash) == 0 && len(paths) == 0 {
		return Verdict{}, false
	}
	for i := range cls.Parts {
		p := &cls.Parts[i]
		if why := e.unseenWhy(p, bash, paths); why != "" {
			return Verdict{Decision: Ask, By: "policy", Part: p.Text, ReadOnly: cls.ReadOnly, Dangerous: cls.Dangerous,
				Unseen: true, Reason: why + "; Warden cannot check your deny and ask rules against it"}, true
		}
	}
	return Verdict{}, false
}

// unseenWhy says why a part is unseen under these rules, or "".
func (e *Engine) unseenWhy(p *shell.Part, bash, paths []Rule) string {
	if p.Unseen != 0 {
		return p.UnseenWhy
	}
	if p.ReadOnly {
		// A read-only part's words only known at run time are only printed (echo $X).
		return ""
	}
	if p.Unmodelled != "" {
		return p.Unmodelled
	}
	if !p.Static && mayMatchOnceKnown(bash, p) {
		return fmt.Sprintf("`%s` has words only known at run time", partName(p))
	}
	if len(paths) == 0 {
		return ""
	}
	if why := e.looseWhy(p, paths); why != "" {
		return why
	}
	for _, list := range [][]string{p.Reads, p.Writes} {
		for _, path := range list {
			if !filepath.IsAbs(path) && path != "-" && path != "" && !isLoose(p, path) {
				return fmt.Sprintf("`%s` uses `%s`, only known at run time", partName(p), path)
			}
		}
	}
	for _, list := range [][]string{p.HandedReads, p.HandedWrites} {
		for _, path := range list {
			if !filepath.IsAbs(path) {
				return fmt.Sprintf("`%s` is given `%s` in a directory Warden lost track of", partName(p), path)
			}
		}
	}
	if r, path, ok := e.handedMatch(paths, p.HandedReads, Read); ok {
		return fmt.Sprintf("`%s` is given `%s` and may read anything there, including what `%s` governs", partName(p), e.shown(path), r.Raw)
	}
	if r, path, ok := e.handedMatch(paths, p.HandedWrites, Write); ok {
		return fmt.Sprintf("`%s` is given `%s` and may write anything there, including what `%s` governs", partName(p), e.shown(path), r.Raw)
	}
	if r, path, ok := e.gitTakesMatch(paths, p.GitTakes); ok {
		return fmt.Sprintf("`%s` takes `%s` into the repository, including what `%s` governs", partName(p), e.shown(path), r.Raw)
	}
	return ""
}

// isLoose reports whether a path as the part recorded it is one of its loose paths, which looseWhy
// judges.
func isLoose(p *shell.Part, path string) bool {
	for _, lp := range p.Loose {
		if lp.Shown == path {
			return true
		}
	}
	return false
}

// looseWhy says why a path of the part only known at run time may be one a path rule governs, or "".
func (e *Engine) looseWhy(p *shell.Part, paths []Rule) string {
	for _, lp := range p.Loose {
		k := Read
		if lp.Access == shell.Writing {
			k = Write
		}
		rules := pathRules(paths, k)
		if len(rules) == 0 {
			continue
		}
		if lp.Dir == "" {
			return fmt.Sprintf("`%s` uses `%s`, a path only known at run time, which `%s` may govern", partName(p), lp.Shown, rules[0].Raw)
		}
		real := e.absFor(lp.Dir)
		for _, r := range rules {
			for _, d := range []string{lp.Dir, real} {
				if mayMatch(lp, r, d) {
					return fmt.Sprintf("`%s` uses `%s`, a path below `%s` only known at run time, which `%s` may govern",
						partName(p), lp.Shown, e.shown(lp.Dir), r.Raw)
				}
			}
		}
	}
	return ""
}

// gitTakesMatch returns a Read rule naming a file git would take in below one of trees: one that exists
// and git does not ignore. A rule whose pattern has a wildcard before its last component is taken to
// name one.
func (e *Engine) gitTakesMatch(rules []Rule, trees []string) (Rule, string, bool) {
	rules = pathRules(rules, Read)
	if len(rules) == 0 {
		return Rule{}, "", false
	}
	for _, tree := range trees {
		var m *ignore.Matcher
		takes := func(path string, isDir bool) bool {
			if m == nil {
				var err error
				if m, err = ignore.ForDirWith(tree, nil, e.mem.Git); err != nil {
					return true
				}
			}
			rel, err := filepath.Rel(tree, path)
			return err != nil || !m.Match(filepath.ToSlash(rel), isDir)
		}
		for _, r := range rules {
			if r.matchPath(tree) {
				return r, tree, true
			}
			for _, glob := range r.globs() {
				if gitMayTake(glob, tree, takes) {
					return r, tree, true
				}
			}
		}
	}
	return Rule{}, "", false
}

// gitMayTake reports whether git, taking in what is below tree, may take a file the pattern glob names:
// one that exists and git does not ignore. Only a wildcard in the last component is looked into.
func gitMayTake(glob, tree string, takes func(path string, isDir bool) bool) bool {
	lit, rest := literalStart(glob)
	lastOnly := rest != "" && !strings.Contains(rest, "/") && !strings.Contains(rest, "**")
	anyTaken := func(dir string) bool {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return false
		}
		for _, en := range entries {
			if ok, _ := doublestar.Match(rest, en.Name()); ok && takes(filepath.Join(dir, en.Name()), en.IsDir()) {
				return true
			}
		}
		return false
	}
	switch {
	case lit == tree:
		return !lastOnly || anyTaken(lit)
	case shell.Within(lit, tree):
		return true // a wildcard above tree may match anything below it
	case !shell.Within(tree, lit):
		return false
	}
	fi, err := os.Lstat(lit)
	if err != nil || !takes(lit, fi.IsDir()) {
		return false // nothing there, or git leaves it out
	}
	return rest == "" || !lastOnly || anyTaken(lit)
}

// literalStart splits a rule's pattern at the directory holding its first wildcard: that directory (or,
// without a wildcard, the whole path) and the pattern below it.
func literalStart(glob string) (string, string) {
	var b strings.Builder
	slashB, slashG := -1, -1
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		if c == '\\' && i+1 < len(glob) {
			i++
			b.WriteByte(glob[i])
			continue
		}
		if strings.IndexByte("*?[{", c) >= 0 {
			if slashB <= 0 {
				return "/", strings.TrimPrefix(glob, "/")
			}
			return filepath.Clean(b.String()[:slashB]), glob[slashG+1:]
		}
		if c == '/' {
			slashB, slashG = b.Len(), i
		}
		b.WriteByte(c)
	}
	return filepath.Clean(b.String()), ""
}

// handedMatch returns a rule governing requests of kind k on one of the handed paths or below it.
func (e *Engine) handedMatch(rules []Rule, handed []string, k Kind) (Rule, string, bool) {
	rules = pathRules(rules, k)
	if len(rules) == 0 {
		return Rule{}, "", false
	}
	for _, path := range handed {
		real := e.absFor(path)
		dir := false
		if fi, err := os.Stat(real); err == nil && fi.IsDir() {
			dir = true
		}
		for _, r := range rules {
			if r.matchPath(path) || r.matchPath(real) {
				return r, path, true
			}
			if dir && (r.mayMatchUnder(treewalk.Tree{Dir: real, Hidden: true, Follow: true, Home: e.home, Lister: e.mem.Lister}) ||
				real != path && r.mayMatchUnder(treewalk.Tree{Dir: path, Hidden: true, Follow: true, Home: e.home, Lister: e.mem.Lister})) {
				return r, path, true
			}
		}
	}
	return Rule{}, "", false
}

// mayMatchOnceKnown reports whether one of the Bash rules may match the part once its words only known
// at run time are known. Only a rule for the part's program (or one of its wrappers) may; for git, only
// one for its subcommand when that is known, since git's grammar says where the subcommand is.
func mayMatchOnceKnown(rules []Rule, p *shell.Part) bool {
	for _, r := range rules {
		if r.any || r.shape == nil || !r.shape.ok {
			return true
		}
		for li, layer := range p.Layers {
			if li >= len(p.LayerStatic) || len(layer) == 0 || len(p.LayerStatic[li]) != len(layer) {
				return true
			}
			if layerMayMatch(r, layer, p.LayerStatic[li]) {
				return true
			}
		}
	}
	return false
}

func layerMayMatch(r Rule, layer []string, static []bool) bool {
	if !static[0] {
		return true
	}
	prog, rest, st := filepath.Base(layer[0]), layer[1:], static[1:]
	if sub, ok := strings.CutPrefix(prog, "git-"); ok && sub != "" {
		prog, rest, st = "git", append([]string{sub}, rest...), append([]bool{true}, st...)
	}
	if prog != r.shape.prog {
		return false
	}
	if len(r.shape.words) == 0 || prog != "git" {
		return true
	}
	i := 0
	for i < len(rest) && strings.HasPrefix(rest[i], "-") {
		if !st[i] {
			return true
		}
		name, _, has := strings.Cut(rest[i], "=")
		if gitGlobalValues[name] && !has {
			i++
			if i < len(rest) && !st[i] {
				return true
			}
		}
		i++
	}
	if i >= len(rest) {
		return false
	}
	if !st[i] {
		return true
	}
	sub := gitPushSpelling(rest[i])
	// A name that is not git's own may be an alias of anything.
	return wildcard(r.shape.words[0], sub) || !gitargs.Builtins[sub]
}

// shown is how a reason names an absolute path: relative to the workspace or the home directory where
// it lies there.
func (e *Engine) shown(path string) string {
	switch {
	case e.workspace != "" && shell.Within(e.workspace, path):
		rel, _ := filepath.Rel(e.workspace, path)
		if rel == "." {
			return "."
		}
		return "./" + rel
	case e.home != "" && shell.Within(e.home, path):
		rel, _ := filepath.Rel(e.home, path)
		return "~/" + rel
	}
	return path
}
