package confine

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Every confined command runs under a small seccomp filter, installed before bash starts: by Warden's own
// helper (Install) or by bubblewrap, which reads the program from a descriptor (ProgramFile). Neither
// Landlock nor a read-only mount governs connect() on a Unix socket file (docker.sock, an agent's socket),
// and Landlock does not govern UDP; the filter refuses to create Unix sockets at all (socketpair, which
// makes an unnamed pair, stays allowed), refuses internet sockets of any kind when the network is off,
// refuses virtual-machine sockets (AF_VSOCK, a way to the hypervisor or to a VM's host that no network
// namespace closes), and refuses io_uring, through which a socket could be made without the socket system
// call. It also refuses the kernel's keyring (keyctl, add_key, request_key): the keyrings a command's
// session and user share hold what other programs of the person keep there (Kerberos tickets, ecryptfs
// and fscrypt keys, tokens some tools cache), which no mount or Landlock rule covers, since they are not
// files. System calls of another architecture (32-bit calls on a 64-bit machine, x32) are refused whole,
// since their numbers would slip past the checks.

// Arch is the audit architecture of this build, and 0 where the filter is not written for it.
func Arch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// filter is the BPF program. Refused calls fail with EACCES (EPERM for another architecture).
func filter(network bool) ([]unix.SockFilter, error) {
	arch := Arch()
	if arch == 0 {
		return nil, fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
		// Offsets in struct seccomp_data.
		offNR, offArch, offArg0 = 0, 4, 16
	)
	families := []uint32{unix.AF_UNIX, unix.AF_VSOCK}
	if !network {
		families = append(families, unix.AF_INET, unix.AF_INET6, unix.AF_PACKET)
	}
	calls := []uint32{unix.SYS_IO_URING_SETUP, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY}
	// Layout: 0-2 check the architecture, 3 loads the call, 4 refuses x32 calls, one check for each
	// refused call, one for socket, then the load of the socket family and its checks, allow and deny.
	socketAt := 5 + len(calls)
	n := socketAt + 2 + len(families) + 2
	allowAt, denyAt := n-2, n-1
	to := func(target, from int) uint8 { return uint8(target - from - 1) } // BPF jumps are relative
	prog := []unix.SockFilter{
		0: {Code: ld, K: offArch},
		1: {Code: jeq, K: arch, Jt: 1},
		2: {Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		3: {Code: ld, K: offNR},
		4: {Code: jset, K: 0x40000000, Jt: to(denyAt, 4)}, // x32 calls
	}
	for _, c := range calls {
		i := len(prog)
		prog = append(prog, unix.SockFilter{Code: jeq, K: c, Jt: to(denyAt, i)})
	}
	prog = append(prog, unix.SockFilter{Code: jeq, K: uint32(unix.SYS_SOCKET), Jf: to(allowAt, socketAt)})
	prog = append(prog, unix.SockFilter{Code: ld, K: offArg0})
	for _, f := range families {
		i := len(prog)
		prog = append(prog, unix.SockFilter{Code: jeq, K: f, Jt: to(denyAt, i)})
	}
	prog = append(prog,
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)})
	if len(prog) != n {
		return nil, fmt.Errorf("seccomp program has %d instructions, want %d", len(prog), n)
	}
	return prog, nil
}

// ProgramFile returns the filter as bubblewrap's --seccomp wants it: the raw instructions, read from
// a descriptor. The program is a few hundred bytes, well within a pipe's buffer, so the write end is
// filled and closed here and the read end returned.
func ProgramFile(network bool) (*os.File, error) {
	prog, err := filter(network)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 8*len(prog))
	for _, ins := range prog { // struct sock_filter: u16 code, u8 jt, u8 jf, u32 k
		buf = binary.NativeEndian.AppendUint16(buf, ins.Code)
		buf = append(buf, ins.Jt, ins.Jf)
		buf = binary.NativeEndian.AppendUint32(buf, ins.K)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("seccomp program pipe: %w", err)
	}
	defer w.Close()
	if _, err := w.Write(buf); err != nil {
		r.Close()
		return nil, fmt.Errorf("seccomp program pipe: %w", err)
	}
	return r, nil
}

// Install applies the filter to every thread of this process; the exec that follows keeps it. On an
// architecture the filter is not written for it does nothing (the probe's notes say so).
func Install(network bool) error {
	if Arch() == 0 {
		return nil
	}
	prog, err := filter(network)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}
