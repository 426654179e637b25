package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/hostexec"
)

// TestMain lets the test binary act as the Landlock helper, the way main does for Warden.
func TestMain(m *testing.M) {
	if IsHelper(os.Args) {
		os.Exit(HelperMain(os.Args))
	}
	os.Exit(m.Run())
}

// testPrograms finds the programs the probes run on the machine's PATH; no test workspace is on it.
var testPrograms = hostexec.NewFinder(os.Getenv("PATH"), nil)

func TestProbeFallsBackToLandlockWithoutBwrap(t *testing.T) {
	if _, err := Probe(Config{Backend: Landlock}, testPrograms); err != nil {
		needOrSkip(t, err)
	}
	noBwrap := hostexec.NewFinder(t.TempDir(), nil)
	info, err := Probe(Config{}, noBwrap)
	if err != nil || info.Backend != Landlock {
		t.Fatalf("Probe = %v, %v; want landlock", info, err)
	}
	if _, err := noBwrap.Find("bwrap"); err == nil {
		t.Fatal("bwrap is still found")
	}
}

// A Prober runs a probe once and answers from what it found; another Prober, a session's own, probes
// anew: what one session found is never another's. The helper here counts its runs.
func TestAProberKeepsItsOwnAnswers(t *testing.T) {
	t.Parallel()
	if _, err := Probe(Config{Backend: Landlock, Network: true}, testPrograms); err != nil {
		needOrSkip(t, err)
	}
	runs := filepath.Join(t.TempDir(), "runs")
	helper := filepath.Join(t.TempDir(), "helper")
	script := fmt.Sprintf("#!/bin/sh\necho run >> %s\necho ok\n", runs)
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Backend: Landlock, Network: true, Helper: helper}
	counted := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	p := NewProber()
	for range 3 {
		if info, err := p.Probe(cfg, testPrograms); err != nil || info.Backend != Landlock {
			t.Fatalf("Probe = %v, %v; want landlock", info, err)
		}
	}
	if n := counted(); n != 1 {
		t.Errorf("one Prober ran the helper %d times for three probes, want once", n)
	}
	if _, err := NewProber().Probe(cfg, testPrograms); err != nil {
		t.Fatal(err)
	}
	if n := counted(); n != 2 {
		t.Errorf("a second Prober answered from the first one's probe (%d runs in all, want 2)", n)
	}
}
