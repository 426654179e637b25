package files

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-cli/warden/safefile"
	"golang.org/x/sys/unix"
)

// A FIFO put where a file was, between a tool's check of the path and its open, must not block the call:
// a FIFO with no writer blocks a plain open for reading, one with no reader an open for writing.
func TestAFIFOInAFilesPlaceDoesNotBlock(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "f")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, do := range map[string]func() error{
		"read": func() error { _, err := safefile.ReadRegular(fifo); return err },
		"open": func() error {
			f, err := safefile.OpenRegular(fifo, 0)
			if err == nil {
				f.Close()
			}
			return err
		},
		"write": func() error { return writeResolved(fifo, []byte("x"), 0o644) },
	} {
		done := make(chan error, 1)
		go func() { done <- do() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s of a FIFO succeeded; want an error saying it is not a regular file", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s of a FIFO blocked", name)
		}
	}
}
