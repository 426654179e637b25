package ignore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/safefile"
)

// Git's rules for a tree: which files hold them, in git's order, and where the tree's repository is. The
// repository and its configuration are read by package gitrepo, the configuration as git reads it
// (gitrepo.AsGit: an includeIf only when its condition holds), for the two keys that decide what is
// ignored: core.excludesFile and core.ignoreCase.

// noGitEnv is the environment the discovery of a tree's repository reads: none. A tree's rules are the
// tree's own, whatever GIT_DIR Warden itself was started with.
func noGitEnv(string) (string, bool) { return "", false }

// FindRepo finds the git work tree that contains dir, looking upwards from it for a .git directory or
// file the way git does, and reading .git files through o (nil: with links kept in their directory). It
// reports false outside any work tree (inside a git directory, for one). git is the Reader that
// remembers what was found (nil: one for this call alone).
func FindRepo(dir string, o *safefile.Opener, git *gitrepo.Reader) (gitrepo.Repo, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return gitrepo.Repo{}, false
	}
	r, ok := reader(git).Find(dir, noGitEnv, o)
	if !ok || r.Top == "" {
		return gitrepo.Repo{}, false
	}
	return r, true
}

// GitSources returns the sources git reads in repo, highest precedence first: .gitignore in every
// directory, info/exclude, and core.excludesFile (by default $XDG_CONFIG_HOME/git/ignore). foldCase is
// the repository's core.ignoreCase. The configuration is read through o (see gitrepo.LoadOptions.Open)
// by git (nil: a Reader for this call alone).
func GitSources(repo gitrepo.Repo, o *safefile.Opener, git *gitrepo.Reader) (sources []Source, foldCase bool) {
	cfg := gitConfig(reader(git), repo, o)
	sources = []Source{{Name: ".gitignore"}, {Path: filepath.Join(repo.CommonDir, "info", "exclude")}}
	if p := excludesPath(cfg, repo.Top); p != "" {
		sources = append(sources, Source{Path: p})
	}
	if e, ok := cfg.Last("core.ignorecase"); ok {
		foldCase, _ = e.Bool()
	}
	return sources, foldCase
}

// ForDir returns a Matcher that ignores what git would below root, reading every file with links kept
// inside the work tree, and the repository with a Reader of its own (see ForDirWith).
func ForDir(root string) (*Matcher, error) { return ForDirWith(root, nil, nil) }

// ForDirWith returns a Matcher that ignores what git would below root. Inside a git work tree the rules
// are read from its top down (a .gitignore above root applies too), with the repository's info/exclude
// and core.excludesFile. Outside one, root's own .gitignore files and the person's core.excludesFile
// apply, as they would once the directory became a repository. Every file is read through o; nil reads
// them with links kept inside the repository's directories (or root). The repository (where it is, its
// configuration) is read by git, which remembers it for the next call; nil reads it afresh.
func ForDirWith(root string, o *safefile.Opener, git *gitrepo.Reader) (*Matcher, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("ignore: %w", err)
	}
	git = reader(git)
	if repo, ok := FindRepo(root, o, git); ok {
		if o == nil {
			o = git.Opener(repo)
		}
		sources, fold := GitSources(repo, o, git)
		return New(root, Options{Top: repo.Top, Sources: sources, FoldCase: fold, Open: o})
	}
	o = opener(o, root)
	sources := []Source{{Name: ".gitignore"}}
	if p := excludesPath(gitConfig(git, gitrepo.Repo{}, o), root); p != "" {
		sources = append(sources, Source{Path: p})
	}
	return New(root, Options{Sources: sources, Open: o})
}

// opener is o, or the one that keeps links inside top.
func opener(o *safefile.Opener, top string) *safefile.Opener {
	if o != nil {
		return o
	}
	return safefile.NewOpener([]string{top}, nil, 0)
}

// reader is git, or a Reader for one call when the caller holds none.
func reader(git *gitrepo.Reader) *gitrepo.Reader {
	if git != nil {
		return git
	}
	return gitrepo.NewReader()
}

func gitConfig(git *gitrepo.Reader, repo gitrepo.Repo, o *safefile.Opener) gitrepo.Config {
	return git.Load(repo, gitrepo.LoadOptions{Env: treeEnv, Home: os.Getenv("HOME"), Policy: gitrepo.AsGit, Open: o})
}

// treeEnv is the environment the configuration of a tree's rules is read with: Warden's own, but for
// git's variables (GIT_CONFIG_COUNT, GIT_CONFIG_GLOBAL...), which, like the GIT_DIR discovery never reads,
// are not the tree's and never reach the commands, whose environment is an allow-list without them.
func treeEnv(name string) (string, bool) {
	if strings.HasPrefix(name, "GIT_") {
		return "", false
	}
	return os.LookupEnv(name)
}

// excludesPath is the file core.excludesFile names, with git's default when it is unset: a relative
// path is relative to the work tree's top, where git runs.
func excludesPath(cfg gitrepo.Config, top string) string {
	e, ok := cfg.Last("core.excludesfile")
	if !ok {
		if x := xdgConfigHome(); x != "" {
			return filepath.Join(x, "git", "ignore")
		}
		return ""
	}
	if e.NoValue {
		return "" // git refuses a path without a value
	}
	p := gitrepo.ExpandPath(e.Value, os.Getenv("HOME"))
	if p != "" && !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	return p
}

func xdgConfigHome() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x
	}
	if home := os.Getenv("HOME"); home != "" {
		return filepath.Join(home, ".config")
	}
	return ""
}
