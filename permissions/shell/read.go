package shell

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-cli/warden/gitrepo"
)

// Read records a file the part reads and whether it is a secret. A file in a git object store is a read
// of the repository's history, and a file with other names (hard links) is read under each of them.
func (c *State) Read(p *Part, operand string, sc *Scope) {
	c.ReadOne(p, operand, c.Abs(operand, sc), sc, true)
}

func (c *State) ReadOne(p *Part, operand, path string, sc *Scope, links bool) {
	c.ReadJudged(p, operand, path, sc, links, c.Ctx.Memory.IsSecret)
}

// ReadJudged is ReadOne judging secrets with secret: a program that prints only some of a file (git
// config of one name) judges the file by its name and what it prints by itself.
func (c *State) ReadJudged(p *Part, operand, path string, sc *Scope, links bool, secret func(path, home string) bool) {
	if !filepath.IsAbs(path) && operand != "-" && operand != "" {
		// Read rules could not be matched against it (after popd, or a cd in a branch that may not run).
		p.NotRO(fmt.Sprintf("reads `%s` in a directory Warden lost track of", operand))
	}
	p.Reads = append(p.Reads, path)
	isSecret := secret(path, c.Ctx.Home) || secret(operand, c.Ctx.Home)
	if !isSecret && filepath.IsAbs(path) {
		// A link is read where it leads: `notes.txt -> ~/.ssh/id_rsa` is the key.
		if real := c.Resolved(path); real != path && secret(real, c.Ctx.Home) {
			p.Reads = append(p.Reads, real)
			isSecret = true
			if !p.Secret && p.ReadOnly {
				p.Secret = true
				p.Reason = fmt.Sprintf("reads `%s`, a link to `%s`, which may hold secrets", c.Shown(operand), c.Shown(real))
			}
		}
	}
	if isSecret {
		if !p.Secret {
			p.Secret = true
			if p.ReadOnly {
				p.Reason = fmt.Sprintf("reads `%s`, which may hold secrets", c.Shown(operand))
			}
		}
	}
	if !filepath.IsAbs(path) {
		return
	}
	if strings.Contains(path, "/objects") || strings.Contains(path, "/.git") {
		if r, ok := c.objectStore(ResolvePath("/", path, "")); ok {
			c.objectRead(p, r, operand)
		}
	}
	if links {
		c.hardLinks(p, path, sc)
	}
}

// objectStore returns the repository whose object store holds path (resolved): a path below a
// directory named objects whose parent is a git directory.
func (c *State) objectStore(path string) (gitrepo.Repo, bool) {
	if !strings.Contains(path, "/objects") {
		return gitrepo.Repo{}, false
	}
	for d := filepath.Dir(path); d != "/" && d != "."; d = filepath.Dir(d) {
		if filepath.Base(d) != "objects" {
			continue
		}
		gitDir := filepath.Dir(d)
		if !c.Git().IsGitDir(gitDir, nil) {
			continue
		}
		r := gitrepo.Repo{GitDir: gitDir, CommonDir: gitDir}
		if filepath.Base(gitDir) == ".git" {
			r.Top = filepath.Dir(gitDir)
		}
		return r, true
	}
	// The objects directory itself.
	if filepath.Base(path) == "objects" && c.Git().IsGitDir(filepath.Dir(path), nil) {
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
	p.Objects = append(p.Objects, r)
	if !p.Secret {
		p.Secret = true
		if p.ReadOnly {
			p.Reason = fmt.Sprintf("reads `%s` in git's object store, which holds every version of every file the repository ever tracked", operand)
		}
	}
}

// hardLinks adds to the part's reads the other names of the file at path, when it has more than one:
// a hard link to .env is read as .env, for secrets and deny rules alike.
func (c *State) hardLinks(p *Part, path string, sc *Scope) {
	target, ok := LinkTarget(path)
	if !ok {
		return
	}
	path = ResolvePath("/", path, "")
	found, complete := c.Ctx.Memory.OtherNames(map[Inode]bool{target: true}, c.Roots(), c.Ctx.Home)
	if !complete {
		p.NotRO(fmt.Sprintf("`%s` has other names (hard links) that Warden could not all look for", c.Shown(path)))
	}
	for _, other := range found[target] {
		if other != path {
			c.ReadOne(p, other, other, sc, false)
		}
	}
}

// hardLinksOf is hardLinks for the files a walk found with other names, in one search.
func (c *State) hardLinksOf(p *Part, paths []string, sc *Scope) {
	if len(paths) == 0 || p.Secret {
		return
	}
	targets := map[Inode]bool{}
	for _, path := range paths {
		if k, ok := LinkTarget(path); ok {
			targets[k] = true
		}
	}
	if len(targets) == 0 {
		return
	}
	found, complete := c.Ctx.Memory.OtherNames(targets, c.Roots(), c.Ctx.Home)
	if !complete {
		p.NotRO("files read have other names (hard links) that Warden could not all look for")
	}
	for _, names := range found {
		for _, other := range names {
			c.ReadOne(p, other, other, sc, false)
			if p.Secret {
				return
			}
		}
	}
}

// HistoryBudget is how long one decision may spend reading a repository's history; a longer walk goes
// on in the background and the decision asks meanwhile.
const HistoryBudget = 250 * time.Millisecond
