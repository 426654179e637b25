package hostexec

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Finder finds the programs Warden runs for itself. Build one when a session starts, with the directories
// that must not supply a program; it is safe for concurrent use and does not change afterwards.
type Finder struct {
	// dirs are PATH's entries, in order, as written.
	dirs []string
	// untrusted are clean absolute directories, each as given, with its links resolved, and the work
	// trees its repositories control.
	untrusted []string
}

// Program is a program found for Warden's own use.
type Program struct {
	// Name is the name it was looked up by, which it is started as (its argv[0]): a program reached
	// through a link may decide by that name what to be.
	Name string
	// Path is where it lies, every link resolved: what is executed, so that no link changed later leads
	// the start somewhere else.
	Path string
}

// NewFinder returns a Finder that searches path (a PATH value) and passes over every program that lies,
// as written or once its links are resolved, inside one of untrusted or inside a git work tree its
// repository controls (trees.go: every work tree around it below the home, a submodule's superproject, a
// linked work tree's main one): a repository controls its whole work tree and its other checkouts, not
// only the directory Warden was started in. Relative and empty entries of path are never searched, since
// they mean whatever directory the search happens to run in.
func NewFinder(path string, untrusted []string) *Finder {
	f := &Finder{dirs: filepath.SplitList(path)}
	home, _ := os.UserHomeDir()
	add := func(dir string) {
		if !slices.Contains(f.untrusted, dir) {
			f.untrusted = append(f.untrusted, dir)
		}
	}
	for _, d := range untrusted {
		if d == "" {
			continue
		}
		d, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		add(d)
		if real, err := filepath.EvalSymlinks(d); err == nil {
			add(real)
			d = real
		}
		for _, top := range repositoryTrees(d, home) {
			add(top)
		}
	}
	return f
}

// Find looks name up on the Finder's PATH. It returns the first executable regular file of that name in
// an absolute entry that, with every link on the way to the file resolved, lies outside the untrusted
// directories. A program it passed over is named in the error, which wraps exec.ErrNotFound.
func (f *Finder) Find(name string) (Program, error) {
	if name == "" || strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return Program{}, fmt.Errorf("%q is not a program name: Warden looks its own programs up by name only", name)
	}
	nf := &NotFoundError{Name: name}
	for _, dir := range f.dirs {
		cand := filepath.Join(dir, name)
		if _, err := os.Lstat(cand); err != nil {
			continue
		}
		if dir == "" || !filepath.IsAbs(dir) {
			nf.Passed = append(nf.Passed, fmt.Sprintf("%s (a relative PATH entry)", cand))
			continue
		}
		if root := f.inside(filepath.Clean(dir)); root != "" {
			nf.Passed = append(nf.Passed, fmt.Sprintf("%s (inside %s)", cand, root))
			continue
		}
		real, err := filepath.EvalSymlinks(cand)
		if err != nil {
			continue
		}
		if root := f.inside(real); root != "" {
			nf.Passed = append(nf.Passed, fmt.Sprintf("%s (a link to %s, inside %s)", cand, real, root))
			continue
		}
		fi, err := os.Stat(real)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
			continue
		}
		return Program{Name: name, Path: real}, nil
	}
	return Program{}, nf
}

// inside returns the untrusted directory p is in, or "".
func (f *Finder) inside(p string) string {
	for _, root := range f.untrusted {
		if p == root || root == "/" || strings.HasPrefix(p, root+"/") {
			return root
		}
	}
	return ""
}

// NotFoundError says that a program was not found where Warden takes its own programs from.
type NotFoundError struct {
	Name string
	// Passed are the programs of that name that were passed over, each with why.
	Passed []string
}

func (e *NotFoundError) Error() string {
	if len(e.Passed) == 0 {
		return e.Name + " was not found on PATH"
	}
	return fmt.Sprintf("%s was not found on PATH outside the workspace (Warden does not run its own programs "+
		"from relative PATH entries or from where the project can change them; passed over: %s)",
		e.Name, strings.Join(e.Passed, "; "))
}

// Unwrap makes the error an exec.ErrNotFound.
func (e *NotFoundError) Unwrap() error { return exec.ErrNotFound }
