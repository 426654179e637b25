package hostexec

import (
	"fmt"
	"os"
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
