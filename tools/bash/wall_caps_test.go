package bash

import (
	"strings"
	"testing"
)

// A jailed command holds no capabilities and cannot gain any, on either backend and on every call: with
// CAP_SYS_ADMIN it could remount the read-only root, with CAP_DAC_READ_SEARCH read past the masks.
// Capabilities are dropped per thread, so a helper that dropped them on one thread and exec'd from another
// would pass now and then; the calls are repeated for that reason. (Under bubblewrap the bounding set stays
// full, harmless with no_new_privs and none permitted: the status is read by grep, a program exec'd by a
// root shell, which shows that an exec gains nothing.)
func TestJailedCommandsKeepNoCapabilities(t *testing.T) {
	t.Parallel()
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			for i := range 10 {
				r := h.runJailed("grep -E '^(Cap(Eff|Prm|Amb)|NoNewPrivs):' /proc/self/status")
				fields := map[string]string{}
				for _, line := range strings.Split(strings.TrimSpace(r.Output), "\n") {
					k, v, _ := strings.Cut(line, ":")
					fields[k] = strings.TrimSpace(v)
				}
				for _, k := range []string{"CapEff", "CapPrm", "CapAmb"} {
					if v, ok := fields[k]; !ok || strings.Trim(v, "0") != "" {
						t.Fatalf("call %d: %s is %q in the jail:\n%s", i, k, v, r.Output)
					}
				}
				if fields["NoNewPrivs"] != "1" {
					t.Fatalf("call %d: no_new_privs is not set in the jail:\n%s", i, r.Output)
				}
			}
		})
	}
}
