package permissions

import (
	"os"
	"path/filepath"
	"strings"
)

// ResolvePath is Warden's one path-resolution function: every tool that takes a path and every rule that
// names one goes through it, so that a path means the same thing everywhere.
//
// It expands a leading `~` to home, joins a relative path with cwd, and walks the path the way the kernel
// does, component by component: a symlink is followed where it is met, and `..` goes to the parent of
// where the walk has got to, so `lnk/../x` with `lnk -> deep/a` is `deep/x`, not `x`. A link inside the
// workspace that points outside resolves to where it points. The part of the path that does not exist yet
// (a file about to be written) is kept as written, cleaned. ResolvePath never fails: a path it cannot
// evaluate further is returned cleaned.
func ResolvePath(cwd, path, home string) string {
	p, _ := resolvePath(cwd, path, home)
	return p
}

// maxLinkHops is how many symlinks a walk follows before giving up, as the kernel's ELOOP does.
const maxLinkHops = 40

// resolvePath is ResolvePath; sure is false when the walk went through a link whose target depends on
// the process that opens it (/proc/self, /proc/N/cwd, /proc/N/root, /proc/N/fd/*, /dev/fd), which Warden
// resolves for its own process, not the command's.
func resolvePath(cwd, path, home string) (resolved string, sure bool) {
	switch {
	case path == "~":
		path = home
	case strings.HasPrefix(path, "~/"):
		path = home + "/" + path[2:]
	}
	if !filepath.IsAbs(path) {
		if !filepath.IsAbs(cwd) {
			return filepath.Join(cwd, path), true
		}
		path = cwd + "/" + path
	}
	return walkPath("/", strings.Split(path, "/"))
}

// resolveBelow is ResolvePath for an absolute path, walked from root when it lies below it: root must
// already be resolved (an engine's workspace is), which saves a system call per component above it.
func resolveBelow(root, path string) string {
	if path == root {
		return root
	}
	if root == "" || root == "/" || !strings.HasPrefix(path, root+"/") {
		p, _ := resolvePath("/", path, "")
		return p
	}
	// The rest is walked as written: `..` after a link is the link target's parent.
	p, _ := walkPath(root, strings.Split(path[len(root)+1:], "/"))
	return p
}

// walkPath resolves the components rest from the resolved directory cur, the way the kernel walks them.
func walkPath(cur string, rest []string) (resolved string, sure bool) {
	sure = true
	for hops := 0; len(rest) > 0; {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, comp)
		fi, err := os.Lstat(next)
		if err != nil {
			// The rest does not exist (yet): keep it as written. The kernel would fail on a `..` below a
			// missing directory; cleaning it is the stricter reading for rules.
			return filepath.Join(append([]string{next}, rest...)...), sure
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		hops++
		if processLink(next) {
			sure = false
		}
		target, err := os.Readlink(next)
		if err != nil || hops > maxLinkHops {
			return filepath.Join(append([]string{next}, rest...)...), sure
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return cur, sure
}

// processLink reports whether the symlink at path means something else for each process: /proc/self and
// everything below a process's directory in /proc (cwd, root, exe, fd/N, map_files, ns), and /dev/fd,
// /dev/stdin and the like, which point into /proc/self.
func processLink(path string) bool {
	if within("/dev", path) {
		return true
	}
	return within("/proc", path) && path != "/proc/mounts" && path != "/proc/net"
}

// within reports whether path is dir or lies below it. Both must be clean absolute paths.
func within(dir, path string) bool {
	if dir == "" || path == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || len(path) > len(dir) && path[len(dir)] == os.PathSeparator && strings.HasPrefix(path, dir)
}
