package commands

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A FIFO among a project's command files is reported, not waited on.
func TestAFIFOAmongCommandFilesIsReportedNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(dir, "stall.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.md"), []byte("say ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		cmds  []Command
		warns []string
	}
	done := make(chan loaded, 1)
	go func() { c, w := Load(nil, []Dir{{Path: dir, Source: "project"}}); done <- loaded{c, w} }()
	select {
	case l := <-done:
		if len(l.cmds) != 1 || l.cmds[0].Name != "ok" || len(l.warns) != 1 {
			t.Errorf("commands %+v, warnings %q; want ok loaded and the FIFO reported", l.cmds, l.warns)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("loading commands stalled on a FIFO")
	}
}
