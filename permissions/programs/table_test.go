package programs

import (
	"testing"

	"github.com/warden-cli/warden/permissions/supplied"
)

// TestEveryProgramSaysWhatItLoads: every program of the read-only table has a trust entry saying what it
// loads from the working tree, its parents and the environment, and no entry names a program the table
// does not have.
func TestEveryProgramSaysWhatItLoads(t *testing.T) {
	for name := range table {
		if loads, ok := supplied.Loads(name); !ok || loads == "" {
			t.Errorf("%s is in the read-only table without a trust entry", name)
		}
	}
	for _, name := range supplied.Surveyed() {
		if _, ok := table[name]; !ok {
			t.Errorf("%s has a trust entry but is not in the read-only table", name)
		}
	}
}
