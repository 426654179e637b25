package permissions

import (
	"path/filepath"
	"regexp"
	"strings"
)

// A path is compared the way the kernel reads it, not as typed: `/dev/./stdin`, `//dev/stdin`,
// `/dev/pts/../stdin` and `/proc/self/root/dev/stdin` are all the command's input, and
// `/proc/self/exe` run as a program is the shell running the command. Whatever lies below /dev or /proc
// is no file on disk that Warden can read before the command runs: a script taken from there is code
// on a stream.

// selfRoot matches the prefixes that stand for the root directory of the process that opens the path.
var selfRoot = regexp.MustCompile(`^/proc/(self|thread-self)/root(/|$)`)

// procRoot returns path with its `..` applied and the prefixes that lead back to the root removed:
// /proc/self/root/usr/bin/rm is /usr/bin/rm.
func procRoot(path string) string {
	if !strings.HasPrefix(path, "/") {
		return path
	}
	p := filepath.Clean(path)
	for {
		loc := selfRoot.FindStringIndex(p)
		if loc == nil {
			return p
		}
		p = filepath.Clean("/" + p[loc[1]:])
	}
}

// selfExe reports whether a program path is the binary of the process that runs it: the shell that
// runs the command (bash, as Warden runs commands with it).
func selfExe(path string) bool {
	p := procRoot(path)
	return p == "/proc/self/exe" || p == "/proc/thread-self/exe"
}

// isStream reports whether a path a program takes its code from is a stream, or anything else that is
// no file on disk Warden can read first: `-`, anything below /dev (but /dev/null) or /proc, however
// spelled, and a path that leads there through links.
func (c *classifier) isStream(path string) bool {
	if path == "-" {
		return true
	}
	for _, p := range []string{procRoot(path), procRoot(c.resolved(path))} {
		if p == "/dev/null" {
			return false
		}
		if p == "/dev" || p == "/proc" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") {
			return true
		}
	}
	return false
}

// isStdin reports whether a path, however spelled, is the command's standard input: then a here-document
// or here-string fed to it is what a program reads from it.
func isStdin(path string) bool {
	p := procRoot(path)
	return path == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0" || p == "/proc/thread-self/fd/0"
}
