package bash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The pipes a Tasks reads its commands' final directories through are its own, the jail's included: once
// KillAll has returned none of them is open, whatever other sessions in the process still run.
func TestKillAllClosesEveryPipeItsCommandsUsed(t *testing.T) {
	t.Parallel()
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			h := jailHarness(t, b)
			if r := h.run("cd /"); r.IsError {
				t.Fatal(r.Output)
			}
			if r := h.runJailed("cd /"); r.IsError {
				t.Fatal(r.Output)
			}
			run, err := h.tasks.runDir()
			if err != nil {
				t.Fatal(err)
			}
			cell, err := h.tasks.keeper(h.env).Get()
			if err != nil {
				t.Fatal(err)
			}
			dirs := []string{run, cell.RunDir()}
			if got := pipesUnder(t, dirs); len(got) == 0 {
				t.Fatalf("no pipe is kept for the next command in %v", dirs)
			}
			h.tasks.KillAll()
			if got := pipesUnder(t, dirs); len(got) > 0 {
				t.Errorf("after KillAll the process still holds %v", got)
			}
		})
	}
}

// pipesUnder lists what this process's descriptors lead to below any of dirs.
func pipesUnder(t *testing.T, dirs []string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err != nil {
			continue
		}
		for _, d := range dirs {
			if strings.HasPrefix(target, d+"/") {
				out = append(out, target)
			}
		}
	}
	return out
}
