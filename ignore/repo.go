package ignore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// Repo is a git work tree as far as ignore rules are concerned. It is found by reading files; git is
// never run, so nothing in a repository's configuration can run a program through it.
type Repo struct {
	// Top is the work tree's top directory, where the top-level .gitignore lives.
	Top string
	// GitDir is the repository's git directory: Top/.git, or where a .git file points (a linked work
	// tree or a submodule).
	GitDir string
	// CommonDir holds what linked work trees share: config and info/exclude. It is GitDir unless GitDir
	// names a commondir file.
	CommonDir string
}

// FindRepo finds the git work tree that contains dir, looking upwards from it for a .git directory or
// file the way git does. It reports false outside any work tree.
func FindRepo(dir string) (Repo, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Repo{}, false
	}
	for {
		if r, ok := repoAt(dir); ok {
			return r, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Repo{}, false
		}
		dir = parent
	}
}

// repoAt reports the work tree whose top is dir, if dir/.git is a git directory or a file naming one.
func repoAt(dir string) (Repo, bool) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return Repo{}, false
	}
	gitDir := dotgit
	if !fi.IsDir() {
		gitDir = ReadGitFile(dotgit)
		if gitDir == "" {
			return Repo{}, false
		}
	}
	if !isGitDir(gitDir) {
		return Repo{}, false
	}
	r := Repo{Top: dir, GitDir: gitDir, CommonDir: gitDir}
	if data, err := readLimited(filepath.Join(gitDir, "commondir"), false); err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		r.CommonDir = filepath.Clean(common)
	}
	return r, true
}

// ReadGitFile reads a .git file ("gitdir: PATH"), only if it is a regular file, and returns the directory it
// names, or "".
func ReadGitFile(path string) string {
	data, err := readLimited(path, false)
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("gitdir: "))
	if !ok || len(rest) == 0 {
		return ""
	}
	dir := string(rest)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	return filepath.Clean(dir)
}

// isGitDir is git's own test for a git directory: HEAD, objects and refs are there (objects and refs
// may be in the common directory of a linked work tree).
func isGitDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return false
	}
	common := dir
	if data, err := readLimited(filepath.Join(dir, "commondir"), false); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// branch is the branch HEAD names ("main" for ref: refs/heads/main), or "" when HEAD is detached.
func (r Repo) branch() string {
	data, err := readLimited(filepath.Join(r.GitDir, "HEAD"), false)
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}
