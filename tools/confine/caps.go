package confine

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// DropCapabilities makes sure that nothing this process runs afterwards holds a capability. Run as root, a
// program regains every capability in the bounding set when it execs, so the bounding set is emptied
// first, then the ambient, inheritable, permitted and effective sets. Landlock keeps a confined root from
// mounting, but not from what CAP_NET_ADMIN, CAP_SYS_MODULE or CAP_SYS_BOOT allow. A process that is not
// root has no capabilities to give up and may not empty its bounding set; that is not an error.
//
// All of these sets are the calling thread's alone. The caller must keep its goroutine on that thread
// (runtime.LockOSThread) from before this call until its exec, which takes the exec'ing thread's sets: on
// another thread the program would start with every capability.
func DropCapabilities() error {
	root := os.Geteuid() == 0
	for c := 0; c <= 63; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if err == unix.EINVAL {
			break // past the last capability this kernel knows
		}
		if err != nil && root {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}
