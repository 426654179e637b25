package hostexec

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The test binary plays Warden: HOSTEXEC_TEST_SELF=print says who is running, =swap puts a script where
// the binary lay and then starts itself again, by SelfPath and by the path it was started from.
func TestMain(m *testing.M) {
	switch os.Getenv("HOSTEXEC_TEST_SELF") {
	case "print":
		fmt.Println("the binary")
		os.Exit(0)
	case "swap":
		os.Exit(swapAndRestart())
	}
	os.Exit(m.Run())
}

func swapAndRestart() int {
	exe, err := os.Executable()
	if err == nil {
		err = os.Rename(exe, exe+".moved")
	}
	if err == nil {
		err = os.WriteFile(exe, []byte("#!/bin/sh\necho the impostor\n"), 0o755)
	}
	if err != nil {
		fmt.Println("swap:", err)
		return 1
	}
	self, err := Self()
	if err != nil {
		fmt.Println("self:", err)
		return 1
	}
	for _, path := range []string{self, exe} {
		cmd := exec.Command(path)
		cmd.Env = []string{"HOSTEXEC_TEST_SELF=print"}
		out, err := cmd.Output()
		fmt.Printf("%s: %s (%v)\n", path, strings.TrimSpace(string(out)), err)
	}
	return 0
}

func TestSelfPathStartsTheRunningFileAfterItsPathWasTakenOver(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "warden")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyPath, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copyPath)
	cmd.Env = []string{"HOSTEXEC_TEST_SELF=swap"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := string(out)
	if !strings.Contains(got, SelfPath+": the binary (<nil>)") {
		t.Errorf("started by %s, something else ran:\n%s", SelfPath, got)
	}
	// Started by its path, the impostor runs: the test can tell the two apart.
	if !strings.Contains(got, copyPath+": the impostor") {
		t.Errorf("the path was not taken over:\n%s", got)
	}
}
