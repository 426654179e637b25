// Package gitrepo is Warden's one home for git's on-disk formats: where a repository's directories are
// (discovery, .git files, linked work trees), its configuration chain (the syntax, git's order of files,
// includes read as git reads them or all of them, see Policy), its index, its objects and every path its
// history ever held, and git's wildmatch. Everything is read from the files themselves; git is never
// run: its configuration can name programs that run on the most harmless command (a fetch of a partial
// clone's missing objects, an fsmonitor hook), which is what a caller of this package wants to find out
// before anything runs, and what a reader of a work tree's files must never trigger.
//
// Whoever controls a repository chooses what stands at every path it reads: open.go says which reads go
// through a safefile.Opener and which through the lower safefile.OpenRegular.
//
// What takes more than a few system calls to learn is remembered by a Reader (reader.go), which whoever
// reads repositories for a session holds, with the identity of the files it came from (device, inode,
// size, change and modification times): asking the same Reader again about an unchanged repository
// costs a handful of system calls, and nothing one Reader learnt is seen by another. There are no
// package-level readers: a caller that holds no Reader makes one (NewReader).
//
// It imports nothing of Warden's but the leaves safefile, secrets (which configuration entries carry a
// credential, credentials.go) and cache, and must import nothing above them.
package gitrepo

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/safefile"
)

// Env looks a variable up in the environment the commands run with, like os.LookupEnv.
type Env func(name string) (string, bool)

// OSEnv is the process's own environment.
func OSEnv(name string) (string, bool) { return os.LookupEnv(name) }

// Repo is where a repository's parts are.
type Repo struct {
	// Top is the work tree's top directory; empty for a bare repository (or a command run inside the
	// git directory itself).
	Top string
	// GitDir holds what is this work tree's own: HEAD, the index, config.worktree. It is Top/.git, or
	// where a .git file points (a linked work tree, a submodule).
	GitDir string
	// CommonDir holds what linked work trees share: config, objects, refs, hooks.
	CommonDir string
	// FromEnv is set when GIT_DIR named the repository.
	FromEnv bool
}

// Find finds the repository git uses for a command run in dir: the one GIT_DIR (and GIT_WORK_TREE)
// name, or else the first directory upwards that holds a .git directory or file, or is itself a git
// directory (a bare repository, or the inside of a .git directory). Ceilings
// (GIT_CEILING_DIRECTORIES), file-system boundaries and ownership checks, which only ever make git stop
// earlier, are not applied: a repository git would refuse is still reported. ok is false outside any.
// A .git file is read through o (nil: with links kept inside the directory that holds it).
func (rd *Reader) Find(dir string, env Env, o *safefile.Opener) (Repo, bool) {
	if env == nil {
		env = OSEnv
	}
	if !filepath.IsAbs(dir) {
		return Repo{}, false
	}
	dir = filepath.Clean(dir)
	if gd, ok := env("GIT_DIR"); ok && gd != "" {
		if !filepath.IsAbs(gd) {
			gd = filepath.Join(dir, gd)
		}
		r := Repo{GitDir: filepath.Clean(gd), FromEnv: true}
		r.CommonDir = commonDir(r.GitDir, env)
		r.Top = dir
		if wt, ok := env("GIT_WORK_TREE"); ok && wt != "" {
			if !filepath.IsAbs(wt) {
				wt = filepath.Join(dir, wt)
			}
			r.Top = filepath.Clean(wt)
		}
		return r, true
	}
	for d := dir; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := ""
			switch {
			case fi.IsDir():
				gitDir = dotgit
			case fi.Mode().IsRegular():
				gitDir = rd.readGitFile(dotgit, o)
			}
			if gitDir != "" {
				if common, ok := rd.gitDirCommon(gitDir, env); ok {
					return Repo{Top: d, GitDir: gitDir, CommonDir: common}, true
				}
			}
		}
		if common, ok := rd.gitDirCommon(d, env); ok {
			return Repo{GitDir: d, CommonDir: common}, true
		}
		if d == "/" {
			return Repo{}, false
		}
	}
}

// AtTop returns the repository whose work tree's top is dir, if dir/.git is a git directory or a file
// naming one: a submodule's or a nested repository's. A .git file is read through o (nil: with links
// kept inside dir).
func (rd *Reader) AtTop(dir string, env Env, o *safefile.Opener) (Repo, bool) {
	if env == nil {
		env = OSEnv
	}
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return Repo{}, false
	}
	gitDir := dotgit
	if !fi.IsDir() {
		if gitDir = rd.readGitFile(dotgit, o); gitDir == "" {
			return Repo{}, false
		}
	}
	common, ok := rd.gitDirCommon(gitDir, env)
	if !ok {
		return Repo{}, false
	}
	return Repo{Top: dir, GitDir: gitDir, CommonDir: common}, true
}

// commonDir is the directory a git directory's commondir file names, or the git directory itself.
// GIT_COMMON_DIR wins, as it does for git.
func commonDir(gitDir string, env Env) string {
	if cd, ok := env("GIT_COMMON_DIR"); ok && cd != "" {
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gitDir, cd)
		}
		return filepath.Clean(cd)
	}
	data, err := safefile.ReadRegular(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	cd := strings.TrimSpace(string(data))
	if cd == "" {
		return gitDir
	}
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitDir, cd)
	}
	return filepath.Clean(cd)
}

// IsGitDir is git's test for a git directory, made a little looser: a HEAD file, and objects and refs
// directories (in the common directory of a linked work tree). Looser only ever finds more repositories.
func (rd *Reader) IsGitDir(dir string, env Env) bool {
	_, ok := rd.gitDirCommon(dir, env)
	return ok
}

// gitDirFound is what gitDirCommon found for a directory, kept with the identity of the directory and of
// its common directory: adding, removing or replacing HEAD, commondir, objects or refs changes one of
// them.
type gitDirFound struct {
	id, commonID fileID
	common       string
	ok           bool
}

// gitDirCommon is IsGitDir, returning the common directory too.
func (rd *Reader) gitDirCommon(dir string, env Env) (string, bool) {
	if env == nil {
		env = OSEnv
	}
	_, e1 := env("GIT_COMMON_DIR")
	_, e2 := env("GIT_OBJECT_DIRECTORY")
	if e1 || e2 {
		return gitDirCommonUncached(dir, env)
	}
	id, ok := statID(dir)
	if !ok {
		return "", false
	}
	f, cached := rd.gitDirs.Get(dir)
	if cached && f.id == id {
		if f.common == dir || f.common == "" {
			return f.common, f.ok
		}
		if cid, ok := statID(f.common); ok && cid == f.commonID {
			return f.common, f.ok
		}
	}
	common, ok := gitDirCommonUncached(dir, env)
	f = gitDirFound{id: id, common: common, ok: ok}
	if common != "" && common != dir {
		f.commonID, _ = statID(common)
	}
	rd.gitDirs.Put(dir, f)
	return common, ok
}

func gitDirCommonUncached(dir string, env Env) (string, bool) {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return "", false
	}
	if env == nil {
		env = OSEnv
	}
	common := commonDir(dir, env)
	for _, sub := range []string{"objects", "refs"} {
		if sub == "objects" {
			if od, ok := env("GIT_OBJECT_DIRECTORY"); ok && od != "" {
				continue
			}
		}
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return "", false
		}
	}
	return common, true
}

// ObjectDir is where the repository's objects are: GIT_OBJECT_DIRECTORY, or objects in the common
// directory.
func (r Repo) ObjectDir(env Env) string {
	if env == nil {
		env = OSEnv
	}
	if od, ok := env("GIT_OBJECT_DIRECTORY"); ok && od != "" && r.FromEnv {
		return od
	}
	return filepath.Join(r.CommonDir, "objects")
}
