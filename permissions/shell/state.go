package shell

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"mvdan.cc/sh/v3/syntax"
)

// State is what one classification of a command line knows beyond the simple command being judged:
// where the command runs, the parts found so far, the functions it defines, what it exports, why
// arithmetic may run code, the repositories and directories looked up, and how far recursive reads
// have walked. Programs' judgements read and extend it through the Exec they are given.
type State struct {
	Ctx Context
	// Judge is the walker, which judges the commands programs run (Judge).
	Judge Judge
	Parts []Part
	// Defined names every function declared anywhere in the command, whether or not it ran.
	Defined map[string]bool
	// roots are the resolved workspace and additional directories, computed on first use.
	roots []string
	// Tainted says why some variable may hold an array subscript, which arithmetic runs (arith.go).
	Tainted string
	// walked counts the entries looked at below recursively read directories.
	walked int
	// followed are the directories walks reached through links; dirs caches resolved directories of
	// names git lists.
	followed map[string]bool
	dirs     map[string]string
	// SubstParts are, per command substitution, the parts its commands were judged as.
	SubstParts map[*syntax.CmdSubst][2]int
	// repos remembers the repositories found for directories during this classification.
	repos map[string]foundRepo
	// Exports is set once the command exports a variable (export, declare -x): programs after it get
	// it in their environment.
	Exports bool
}

// Judge judges commands found inside another one, for the programs' knowledge that finds them: the
// command find -exec runs (Run), a shell body (Script), a body Warden reads only for deny and ask rules
// (Untrusted). The engine's walker implements it; a program's judgement calls back through it rather
// than up into the engine.
type Judge interface {
	// Run judges words as the command e's program runs, in e's part.
	Run(e *Exec, words []Word)
	// Script judges body as a script a new shell runs (posix: /bin/sh reads it), in parts of its own.
	Script(e *Exec, body string, posix bool)
	// Untrusted reads body as bash for deny and ask rules only: every part found is not read-only, and
	// unseen.
	Untrusted(e *Exec, body, reason string)
}

// Abs makes a path operand absolute against the scope's directory. A relative path in an unknown
// directory stays relative, which no workspace check and no absolute rule will match.
//
// A `..` is applied the way the kernel does, after the symlinks before it: `lnk/../x` with `lnk -> deep/a`
// is deep/x. Cleaning it as text would name another file than the one read.
func (c *State) Abs(p string, sc *Scope) string {
	if p == "" {
		return p
	}
	if !filepath.IsAbs(p) && sc.Cwd == "" {
		return filepath.Clean(p)
	}
	if hasDotDot(p) {
		return c.resolvedFrom(sc.Cwd, p)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(sc.Cwd, p)
}

// Shown shortens the absolute paths in s for a person: the workspace's prefix goes, home is `~`.
func (c *State) Shown(s string) string {
	if ws := c.Ctx.Workspace; ws != "" {
		if !c.Ctx.RootsResolved {
			ws = ResolvePath("/", ws, c.Ctx.Home)
		}
		s = strings.ReplaceAll(s, strings.TrimSuffix(ws, "/")+"/", "")
	}
	if h := c.Ctx.Home; h != "" {
		s = strings.ReplaceAll(s, strings.TrimSuffix(h, "/")+"/", "~/")
	}
	return s
}

// FindRepo is gitrepo.Find, remembered for the rest of the classification.
func (c *State) FindRepo(dir string) (gitrepo.Repo, bool) {
	if r, ok := c.repos[dir]; ok {
		return r.repo, r.ok
	}
	r, ok := c.Git().Find(dir, c.LookupEnv, nil)
	if c.repos == nil {
		c.repos = map[string]foundRepo{}
	}
	c.repos[dir] = foundRepo{r, ok}
	return r, ok
}

type foundRepo struct {
	repo gitrepo.Repo
	ok   bool
}

// LookupEnv looks a variable up in the environment commands inherit.
func (c *State) LookupEnv(name string) (string, bool) {
	if c.Ctx.Env != nil {
		return c.Ctx.Env(name)
	}
	return os.LookupEnv(name)
}

// Resolved resolves an absolute path the way the kernel walks it, from the workspace when it lies below
// it and the workspace is known resolved.
func (c *State) Resolved(path string) string {
	if c.Ctx.RootsResolved && c.Ctx.Workspace != "" && filepath.IsAbs(path) {
		return ResolveBelow(c.Ctx.Workspace, path)
	}
	return ResolvePath("/", path, c.Ctx.Home)
}

// resolvedFrom is ResolvePath(cwd, path, home), walked from the workspace where it can be.
func (c *State) resolvedFrom(cwd, path string) string {
	if path == "~" || strings.HasPrefix(path, "~/") || !filepath.IsAbs(cwd) && !filepath.IsAbs(path) {
		return ResolvePath(cwd, path, c.Ctx.Home)
	}
	if !filepath.IsAbs(path) {
		path = cwd + "/" + path
	}
	return c.Resolved(path)
}

// Inside reports whether an absolute path lies in the workspace or an additional directory.
func (c *State) Inside(path string) bool {
	if c.roots == nil {
		c.roots = []string{}
		if c.Ctx.RootsResolved {
			// The engine resolved them when it was built.
			if c.Ctx.Workspace != "" {
				c.roots = append(append(c.roots, c.Ctx.Workspace), c.Ctx.AdditionalDirectories...)
			}
		} else if c.Ctx.Workspace != "" {
			c.roots = append(c.roots, ResolvePath("/", c.Ctx.Workspace, c.Ctx.Home))
			for _, d := range c.Ctx.AdditionalDirectories {
				c.roots = append(c.roots, ResolvePath(c.roots[0], d, c.Ctx.Home))
			}
		}
	}
	for _, r := range c.roots {
		if Within(r, path) {
			return true
		}
	}
	return false
}

// Roots returns the resolved workspace and additional directories.
func (c *State) Roots() []string {
	c.Inside("/")
	return c.roots
}

// Git is the reader of repositories the classification's memory holds.
func (c *State) Git() *gitrepo.Reader { return c.Ctx.Memory.Git }

// IsSecret reports whether path names credentials the command reads (Memory.IsSecret), from the home
// directory of the context.
func (c *State) IsSecret(path string) bool { return c.Ctx.Memory.IsSecret(path, c.Ctx.Home) }
