package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scan that cannot look at everything it shows (here a toolchain's directory of more node versions than
// are looked through) hides the rest, and the first jailed command's result says so, once: the person
// sees it in the tool's output, and the model learns why reads there fail.
func TestAnIncompleteScanIsToldOnce(t *testing.T) {
	home := testHome(t)
	versions := filepath.Join(home, ".nvm", "versions", "node")
	for i := range 1025 {
		if err := os.MkdirAll(filepath.Join(versions, fmt.Sprintf("v0.0.%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			write(t, filepath.Join(h.env.Workspace, "README"), "plain-readme\n")
			first := h.runJailed("cat README")
			second := h.runJailed("cat README")
			const said = "could not search everything it shows for secrets ("
			if !strings.Contains(first.Output, "plain-readme") || !strings.Contains(first.Output, said+versions+")") {
				t.Errorf("the first jailed command does not say the scan was incomplete: %s", first.Output)
			}
			if strings.Contains(second.Output, said) || !strings.Contains(second.Output, "plain-readme") {
				t.Errorf("the second jailed command says it again: %s", second.Output)
			}
		})
	}
}
