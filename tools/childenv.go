package tools

import "os"

// ChildEnv is the environment of a program Warden starts on the person's behalf that is not a bash command
// (an MCP server): Warden's own minus secrets, as for commands, and marked as this session's so that it is
// stopped with the session's commands when Warden exits, and swept at the next start if Warden was killed.
func (t *Tasks) ChildEnv(settings BashSettings, dir string) []string {
	t.mu.Lock()
	t.initLocked()
	instance := t.instance
	t.mu.Unlock()
	return append(childEnv(os.Environ(), settings, dir), instanceVar+"="+instance)
}
