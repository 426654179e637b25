package permissions

// Reads of git's object store and of hard links: a file under .git/objects (a loose object, a pack) is
// every version of every file the repository ever tracked, compressed; a hard link is the very file it
// links to under another name. Both are judged as what they really are.

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
)

// objectStore returns the repository whose object store holds path (resolved): a path below a
// directory named objects whose parent is a git directory.
func objectStore(path string) (gitrepo.Repo, bool) {
	if !strings.Contains(path, "/objects") {
		return gitrepo.Repo{}, false
	}
	for d := filepath.Dir(path); d != "/" && d != "."; d = filepath.Dir(d) {
		if filepath.Base(d) != "objects" {
			continue
		}
		gitDir := filepath.Dir(d)
		if !gitrepo.IsGitDir(gitDir, nil) {
			continue
		}
		r := gitrepo.Repo{GitDir: gitDir, CommonDir: gitDir}
		if filepath.Base(gitDir) == ".git" {
			r.Top = filepath.Dir(gitDir)
		}
		return r, true
	}
	// The objects directory itself.
	if filepath.Base(path) == "objects" && gitrepo.IsGitDir(filepath.Dir(path), nil) {
		r := gitrepo.Repo{GitDir: filepath.Dir(path), CommonDir: filepath.Dir(path)}
		if filepath.Base(r.GitDir) == ".git" {
			r.Top = filepath.Dir(r.GitDir)
		}
		return r, true
	}
	return gitrepo.Repo{}, false
}

// objectRead records that the part reads a repository's object store: like a secret, it asks, and a
// deny rule naming any path the repository ever tracked denies it (historyDenied).
func (c *State) objectRead(p *Part, r gitrepo.Repo, operand string) {
	p.objects = append(p.objects, r)
	if !p.Secret {
		p.Secret = true
		if p.ReadOnly {
			p.Reason = fmt.Sprintf("reads `%s` in git's object store, which holds every version of every file the repository ever tracked", operand)
		}
	}
}

// historyDenied returns the deny rule naming a path that a repository whose object store the part reads
// ever tracked (in its history or its index), and that path.
func (e *Engine) historyDenied(rules []Rule, p *Part) (Rule, string, bool) {
	reads := pathRules(rules, Read)
	if len(reads) == 0 {
		return Rule{}, "", false
	}
	for _, r := range p.objects {
		if r.Top == "" {
			continue
		}
		var paths []string
		if h, err := gitrepo.ReadHistoryWithin(r, e.policy.Env, historyBudget); err == nil {
			paths = h.Paths
		}
		if idx, ok := gitrepo.ReadIndex(r); ok {
			paths = append(paths, idx.Paths...)
		}
		for _, path := range paths {
			if rule, ok := firstPathMatch(reads, filepath.Join(r.Top, path)); ok {
				return rule, path, true
			}
		}
	}
	return Rule{}, "", false
}

// hardLinks adds to the part's reads the other names of the file at path, when it has more than one:
// a hard link to .env is read as .env, for secrets and deny rules alike.
func (c *State) hardLinks(p *Part, path string, sc *scope) {
	target, ok := linkTarget(path)
	if !ok {
		return
	}
	path = ResolvePath("/", path, "")
	found, complete := otherNames(map[inode]bool{target: true}, c.rootsList(), c.ctx.Home)
	if !complete {
		p.notRO(fmt.Sprintf("`%s` has other names (hard links) that Warden could not all look for", c.shownPath(path)))
	}
	for _, other := range found[target] {
		if other != path {
			c.readOne(p, other, other, sc, false)
		}
	}
}

// hardLinksOf is hardLinks for the files a walk found with other names, in one search.
func (c *State) hardLinksOf(p *Part, paths []string, sc *scope) {
	if len(paths) == 0 || p.Secret {
		return
	}
	targets := map[inode]bool{}
	for _, path := range paths {
		if k, ok := linkTarget(path); ok {
			targets[k] = true
		}
	}
	if len(targets) == 0 {
		return
	}
	found, complete := otherNames(targets, c.rootsList(), c.ctx.Home)
	if !complete {
		p.notRO("files read have other names (hard links) that Warden could not all look for")
	}
	for _, names := range found {
		for _, other := range names {
			c.readOne(p, other, other, sc, false)
			if p.Secret {
				return
			}
		}
	}
}
