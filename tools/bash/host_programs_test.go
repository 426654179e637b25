package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The programs Warden runs for itself are found outside the workspace and get the environment commands
// get. These tests set PATH as a person's shell would and leave Env.Programs to its default.

func TestCommandsRunInABashFoundOutsideTheWorkspace(t *testing.T) {
	h := newHarness(t)
	venv := filepath.Join(h.env.Workspace, ".venv", "bin")
	marker := filepath.Join(t.TempDir(), "ran")
	if err := os.MkdirAll(venv, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := fmt.Sprintf("#!/bin/sh\ntouch %s\nexit 97\n", marker)
	if err := os.WriteFile(filepath.Join(venv, "bash"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", venv+":"+os.Getenv("PATH"))
	if r := h.run("echo from-bash"); r.IsError || r.Output != "from-bash" {
		t.Errorf("the command: %+v", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the workspace's bash ran the command")
	}
}
