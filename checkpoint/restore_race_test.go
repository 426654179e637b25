package checkpoint

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A command still running (a background task) can put a link where a directory is being restored, after
// the restore checked what stands there: the mode meant for the directory must not land on what the link
// points to, outside the workspace.
func TestDirectoryModeIsNotSetThroughALinkPutInPlace(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	outside := t.TempDir()
	if err := os.Chmod(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, "mkdir -m 700 private")
	c := openTest(t, ws)
	changes := call(t, c, ws, "chmod 755 private")
	swapped := false
	beforeDirMode = func(parentFd int, name string) {
		if name != "private" || swapped {
			return
		}
		swapped = true
		if err := unix.Unlinkat(parentFd, name, unix.AT_REMOVEDIR); err != nil {
			t.Error(err)
		}
		if err := unix.Symlinkat(outside, parentFd, name); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { beforeDirMode = func(int, string) {} })
	target, outsideChanged := Target([]Recorded{{Changes: changes}})
	plan, _, err := c.PlanRestore(target, outsideChanged)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Apply(plan, false)
	if err != nil {
		t.Fatal(err)
	}
	if !swapped {
		t.Fatal("the restore set no directory's mode")
	}
	if fi, err := os.Stat(outside); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the directory outside the workspace: %v, %v; want its mode left at 0755", fi.Mode(), err)
	}
	if len(r.Skipped) != 1 {
		t.Errorf("the step should be reported as not done: done %v, skipped %v", r.Done, r.Skipped)
	}
	if target, err := os.Readlink(filepath.Join(ws, "private")); err != nil || target != outside {
		t.Errorf("what the command put there is left as it is: %q, %v", target, err)
	}
}
