package permissions

import (
	"os"
	"path/filepath"
	"strings"
)

// ResolvePath is Warden's one path-resolution function: every tool that takes a path and every rule that
// names one goes through it, so that a path means the same thing everywhere.
//
// It expands a leading `~` to home, joins a relative path with cwd, cleans `..` and `.`, and evaluates the
// symlinks of the longest prefix that exists, so that a link inside the workspace that points outside
// resolves to where it points. The part of the path that does not exist yet (a file about to be written)
// is kept as written. ResolvePath never fails: a path it cannot evaluate further is returned cleaned.
func ResolvePath(cwd, path, home string) string {
	switch {
	case path == "~":
		path = home
	case strings.HasPrefix(path, "~/"):
		path = filepath.Join(home, path[2:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return path
	}
	// Walk up until a prefix exists, evaluate its links, and put the missing tail back. A dangling link
	// is followed by hand: writing through it would create its target, wherever that is.
	for hops := 0; hops < 40; hops++ {
		prefix, tail := path, ""
		for {
			if real, err := filepath.EvalSymlinks(prefix); err == nil {
				return filepath.Join(real, tail)
			}
			if fi, err := os.Lstat(prefix); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				if target, err := os.Readlink(prefix); err == nil {
					if !filepath.IsAbs(target) {
						target = filepath.Join(filepath.Dir(prefix), target)
					}
					path = filepath.Join(target, tail)
					break
				}
			}
			parent := filepath.Dir(prefix)
			if parent == prefix {
				return path
			}
			tail = filepath.Join(filepath.Base(prefix), tail)
			prefix = parent
		}
	}
	return path
}

// within reports whether path is dir or lies below it. Both must be clean absolute paths.
func within(dir, path string) bool {
	if dir == "" || path == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir+string(os.PathSeparator))
}
