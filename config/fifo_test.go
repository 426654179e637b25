package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A repository chooses what stands at its settings paths: a FIFO there is an error at once, not a start
// that never ends.
func TestAFIFOForSettingsIsAnErrorNotAStall(t *testing.T) {
	f := newFixture(t)
	if err := unix.Mkfifo(filepath.Join(f.ws, ".warden", "settings.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := f.load(t, Overrides{}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("err = %v, want one saying the settings file is not a regular file", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("loading settings stalled on a FIFO")
	}
}
