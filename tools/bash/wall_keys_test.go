package bash

import (
	"os"
	"strings"
	"testing"

	"github.com/warden-cli/warden/tools/jail"
)

// The kernel keyring's listings (/proc/keys: every key a process may view, and what it is for;
// /proc/key-users) cannot be read in the bubblewrap jail; outside it they can, which shows the check sees
// them. Landlock cannot hide them (README): there only the keyring calls are refused.
func TestTheBubblewrapJailHidesTheKeyringsListings(t *testing.T) {
	if _, err := os.ReadFile("/proc/keys"); err != nil {
		needOrSkip(t, "this kernel has no /proc/keys")
	}
	testHome(t)
	found := false
	for _, b := range wallBackends(t) {
		if b != jail.Bubblewrap {
			continue
		}
		found = true
		h := jailHarness(t, b)
		r := h.runJailed("cat /proc/keys; echo keys=$?; cat /proc/key-users; echo users=$?")
		if !strings.Contains(r.Output, "keys=1") || !strings.Contains(r.Output, "users=1") ||
			strings.Count(r.Output, "Permission denied") != 2 {
			t.Errorf("the keyring's listings were read in the jail: %s", r.Output)
		}
		out := newHarness(t).run("cat /proc/keys >/dev/null; echo keys=$?").Output
		if !strings.Contains(out, "keys=0") {
			t.Errorf("outside the jail /proc/keys is not readable either; the check proves nothing: %s", out)
		}
	}
	if !found {
		needOrSkip(t, "bubblewrap's jail does not work here")
	}
}
