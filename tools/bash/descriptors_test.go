package bash

import (
	"strings"
	"syscall"
	"testing"
)

// Commands get descriptors 0, 1 and 2 and nothing else: not the pipe their final directory is read
// through, not their pids cgroup, not what Warden inherited from whatever started it. Started by the
// supervisor or by Warden itself, sandboxed or not.
func TestCommandsGetOnlyTheStandardDescriptors(t *testing.T) {
	t.Parallel()
	// Warden's own descriptors are close-on-exec; one it inherited may not be.
	leak, err := syscall.Open("/dev/null", syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(leak)
	check := func(t *testing.T, h *harness) {
		t.Helper()
		r := h.run("ls /proc/self/fd | tr '\\n' ' '")
		// ls holds the directory it lists open as 3.
		if got := strings.TrimSpace(r.Output); got != "0 1 2 3" {
			t.Errorf("descriptors = %q, want 0 1 2 (and ls's own 3)", got)
		}
	}
	t.Run("supervised", func(t *testing.T) { check(t, newHarness(t)) })
	t.Run("direct", func(t *testing.T) {
		h := newHarness(t)
		h.tasks.Helper = ""
		check(t, h)
	})
	for _, b := range backends(t) {
		t.Run(string(b), func(t *testing.T) { check(t, sandboxed(t, b, false)) })
	}
	for _, b := range wallBackends(t) {
		t.Run("jail-"+string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			r := h.runJailed("ls /proc/self/fd | tr '\\n' ' '")
			if got := strings.TrimSpace(r.Output); got != "0 1 2 3" {
				t.Errorf("descriptors in the jail = %q, want 0 1 2 (and ls's own 3)", got)
			}
		})
	}
}
