package hostexec

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/safefile"
)

// A repository controls more than the directory Warden was started in: the whole work tree that holds
// it, and, when that tree is one checkout among several, the others too. A submodule's superproject was
// cloned with it (super/tools/rg beside super/sub), a linked work tree shares its repository with the
// main checkout (the main checkout's .venv/bin/rg), and a repository checked out inside another is the
// outer one's to change. So every work tree around the workspace is untrusted, and so are the work trees
// its repository's .git files and directories name: the main work tree of a linked one, the superproject
// of a submodule, and the linked work trees of the repository.
//
// Two limits keep the person's own programs usable: a work tree that is the home directory, or lies above
// it, counts only when it is the nearest one (a dotfiles repository made of the whole home holds
// ~/.local/bin and ~/.cargo/bin, which the person installed; but a workspace that is the home, or in it
// outside any other repository, is that repository's), and the search is bounded.

// Bounds of the search: the directories looked at on the way up from one place, the .git files read, and
// the linked work trees of one repository.
const (
	maxLevels    = 128
	maxGitReads  = 256
	maxWorktrees = 64
	// maxGitFile bounds a .git file, a gitdir or a commondir file: one short line each.
	maxGitFile = 4096
)

// workTrees finds the work trees that the repositories around dir control (see above), home being the
// person's home directory ("" for none).
type workTrees struct {
	home  string
	reads int
	seen  map[string]bool
	out   []string
}

// repositoryTrees returns the work trees around dir and those its repositories name, each once.
func repositoryTrees(dir, home string) []string {
	w := &workTrees{seen: map[string]bool{}}
	if filepath.IsAbs(home) {
		w.home = filepath.Clean(home)
	}
	w.around(dir, true)
	return w.out
}

// around adds every work tree at or above dir that is not the home or above it (with nearest, the first
// one found wherever it is), and what each one's repository names.
func (w *workTrees) around(dir string, nearest bool) {
	for d, level := filepath.Clean(dir), 0; d != "/" && d != "." && level < maxLevels; d, level = filepath.Dir(d), level+1 {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err != nil {
			continue
		}
		if nearest || !w.homeOrAbove(d) {
			w.add(d)
		}
		nearest = false
	}
}

// homeOrAbove reports whether d is the home directory or one that holds it.
func (w *workTrees) homeOrAbove(d string) bool {
	return w.home != "" && (d == w.home || strings.HasPrefix(w.home, d+"/"))
}

// add marks the work tree top, then the work trees its repository names.
func (w *workTrees) add(top string) {
	if top == "/" || w.seen[top] {
		return
	}
	w.seen[top] = true
	w.out = append(w.out, top)
	gitDir := filepath.Join(top, ".git")
	fi, err := os.Lstat(gitDir)
	switch {
	case err != nil:
		return
	case fi.Mode().IsRegular():
		// A linked work tree's or a submodule's .git file names its git directory.
		named := w.readLine(gitDir)
		rest, ok := strings.CutPrefix(named, "gitdir:")
		if !ok {
			return
		}
		gitDir = strings.TrimSpace(rest)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
	case !fi.IsDir():
		return
	}
	gitDir = filepath.Clean(gitDir)
	common := gitDir
	if c := w.readLine(filepath.Join(gitDir, "commondir")); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	// The superproject of a submodule (SUPER/.git/modules/NAME), the main work tree of a linked one
	// (MAIN/.git), each with what is around it.
	if i := strings.Index(common+"/", "/.git/modules/"); i > 0 {
		w.addAround(common[:i])
	}
	if filepath.Base(common) == ".git" {
		w.addAround(filepath.Dir(common))
	}
	// The linked work trees of the repository: each worktrees/NAME/gitdir names the .git file of one.
	entries, err := os.ReadDir(filepath.Join(common, "worktrees"))
	if err != nil {
		return
	}
	for i, e := range entries {
		if i >= maxWorktrees {
			break
		}
		if p := w.readLine(filepath.Join(common, "worktrees", e.Name(), "gitdir")); filepath.IsAbs(p) {
			w.addAround(filepath.Dir(filepath.Clean(p)))
		}
	}
}

// addAround adds top and the work trees around it.
func (w *workTrees) addAround(top string) {
	if top == "" || w.seen[top] {
		return
	}
	w.add(top)
	w.around(filepath.Dir(top), false)
}

// readLine returns the first line of a small regular file, trimmed, or "" when it is missing, not a
// regular file, or the search has read enough. A repository chose what stands there: a FIFO is never
// waited on.
func (w *workTrees) readLine(path string) string {
	if w.reads >= maxGitReads {
		return ""
	}
	w.reads++
	f, err := safefile.OpenRegular(path, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile))
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return strings.TrimSpace(string(line))
}
