package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/warden-cli/warden/tools"
	"golang.org/x/sys/unix"
)

// kernelDoors tries each way into the kernel that no file rule covers (the keyring's three calls and a
// VM socket) and prints "NAME open" or "NAME refused: ERR" for each.
func kernelDoors() int {
	user, desc := []byte("user\x00"), []byte("warden-test-key\x00")
	payload := []byte("keyring-secret")
	keyring := int64(unix.KEY_SPEC_PROCESS_KEYRING)
	try := func(name string, err error) {
		if err != nil {
			fmt.Printf("%s refused: %v\n", name, err)
		} else {
			fmt.Printf("%s open\n", name)
		}
	}
	_, err := unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_SESSION_KEYRING, 0, 0, 0)
	try("keyctl", err)
	_, _, errno := unix.Syscall6(unix.SYS_ADD_KEY, uintptr(unsafe.Pointer(&user[0])), uintptr(unsafe.Pointer(&desc[0])),
		uintptr(unsafe.Pointer(&payload[0])), uintptr(len(payload)), uintptr(keyring), 0)
	try("add_key", errnoErr(errno))
	_, _, errno = unix.Syscall6(unix.SYS_REQUEST_KEY, uintptr(unsafe.Pointer(&user[0])), uintptr(unsafe.Pointer(&desc[0])),
		0, 0, 0, 0)
	// Without a key of that name request_key fails with ENOKEY, which is the kernel answering: only a
	// refusal by the filter (EACCES, EPERM) counts as refused.
	if errno == unix.ENOKEY {
		errno = 0
	}
	try("request_key", errnoErr(errno))
	fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.Close(fd)
	}
	// A kernel without the vsock module says EAFNOSUPPORT: the call was made, nothing refused it.
	if err == unix.EAFNOSUPPORT {
		err = nil
	}
	try("vsock", err)
	return 0
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// A confined command, in the read-only jail or in the sandbox, cannot use the kernel's keyring (where
// Kerberos tickets and tools' tokens may be kept: no file rule covers it) nor open a socket to the
// hypervisor (AF_VSOCK): the seccomp filter refuses keyctl, add_key, request_key and AF_VSOCK sockets.
// The same program run outside any confinement gets each of them, which shows the check sees them.
func TestConfinedCommandsReachNeitherTheKeyringNorVsock(t *testing.T) {
	testHome(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	doors := []string{"keyctl", "add_key", "request_key", "vsock"}
	check := func(t *testing.T, h *harness, run func(string) tools.Result) {
		// The program is this test binary, copied into the workspace: bubblewrap hides the real /tmp.
		prog := filepath.Join(h.env.Workspace, "doors")
		copyFile(t, self, prog)
		r := run("WARDEN_TEST_KERNEL_DOORS=1 ./doors")
		for _, d := range doors {
			if !strings.Contains(r.Output, d+" refused") {
				t.Errorf("%s was not refused: %s", d, r.Output)
			}
		}
	}
	for _, b := range wallBackends(t) {
		t.Run("jail/"+string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			check(t, h, h.runJailed)
		})
	}
	for _, b := range backends(t) {
		t.Run("sandbox/"+string(b), func(t *testing.T) {
			h := sandboxed(t, b, true)
			check(t, h, h.run)
		})
	}
	h := newHarness(t)
	prog := filepath.Join(h.env.Workspace, "doors")
	copyFile(t, self, prog)
	r := h.run("WARDEN_TEST_KERNEL_DOORS=1 ./doors")
	for _, d := range doors {
		if !strings.Contains(r.Output, d+" open") {
			t.Errorf("outside any confinement %s is not open either; the checks above prove nothing: %s", d, r.Output)
		}
	}
}
