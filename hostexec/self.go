package hostexec

import (
	"fmt"
	"os"
	"path/filepath"
)

// SelfPath is the name Warden starts its own executable by again (the supervisor, the sandbox and jail
// helpers): the kernel's link to the file the running process was started from. Executed, it is that
// very file, whatever has since been written, moved or linked at the path Warden was started by; a
// process started through it has the same link, so a helper may start a helper by it too. A path, even
// one resolved at start, would be followed anew at each start, and the executable may lie where a
// command can replace it (a binary built in the workspace).
const SelfPath = "/proc/self/exe"

// Self returns SelfPath, once it is known to lead to this process's executable.
func Self() (string, error) {
	if _, err := os.Stat(SelfPath); err != nil {
		return "", fmt.Errorf("finding Warden's own executable (is /proc mounted?): %w", err)
	}
	return SelfPath, nil
}

// Located is where the executable that path names lies, links resolved: for SelfPath, the file this
// process runs from, which is what must be shown to a program that starts it by name from elsewhere (from
// inside a mount namespace of its own, where SelfPath is that program's). A file deleted since it started
// has no name left; then the path it was started by is the best there is.
func Located(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	if path == SelfPath {
		if exe, err := os.Executable(); err == nil {
			return exe
		}
	}
	return path
}
