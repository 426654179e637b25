package supervisor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Message kinds.
const (
	opHello   byte = 'h' // supervisor -> client, once it serves
	opStart   byte = 's' // client -> supervisor: path, dir, argv, env; descriptors 0..n-1 of the command
	opStarted byte = 'S' // supervisor -> client: the error, or "" and a pidfd
	opWatch   byte = 'w' // client -> supervisor: say when the command exits (the client has no pidfd of it)
	opExited  byte = 'x' // supervisor -> client: the command exited; the wait status
	opReap    byte = 'r' // client -> supervisor: reap the command, then kill its processes left (the mark);
	// num 1 asks for the status
	opReaped byte = 'R' // supervisor -> client: the command's wait status, when asked
)

// maxMessage bounds one message: a command may be 120 KiB, and its environment comes with it. The socket's
// send buffer is raised to hold it.
const maxMessage = 1 << 20

// maxFiles bounds the descriptors one message carries.
const maxFiles = 16

// message is one record: a kind, the command's number, a number (a wait status), and strings.
type message struct {
	op     byte
	id     uint64
	num    uint32
	known  bool
	fields []string
}

// encode lays a message out as: op, known, id (8 bytes), num (4), field count (4), then each field as a
// length (4) and its bytes.
func (m *message) encode() []byte {
	n := 18
	for _, f := range m.fields {
		n += 4 + len(f)
	}
	b := make([]byte, 0, n)
	b = append(b, m.op, 0)
	if m.known {
		b[1] = 1
	}
	b = binary.LittleEndian.AppendUint64(b, m.id)
	b = binary.LittleEndian.AppendUint32(b, m.num)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.fields)))
	for _, f := range m.fields {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

var errMalformed = errors.New("malformed supervisor message")

func decode(b []byte) (*message, error) {
	if len(b) < 18 {
		return nil, errMalformed
	}
	m := &message{op: b[0], known: b[1] == 1, id: binary.LittleEndian.Uint64(b[2:]),
		num: binary.LittleEndian.Uint32(b[10:])}
	count := binary.LittleEndian.Uint32(b[14:])
	b = b[18:]
	if uint64(count)*4 > uint64(len(b)) {
		return nil, errMalformed
	}
	m.fields = make([]string, 0, count)
	for range count {
		if len(b) < 4 {
			return nil, errMalformed
		}
		l := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(l) > uint64(len(b)) {
			return nil, errMalformed
		}
		m.fields = append(m.fields, string(b[:l]))
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, errMalformed
	}
	return m, nil
}

// conn is one end of the socket pair: the client's goes through Go's poller; the supervisor's is a
// blocking descriptor (fd), read by the one thread that forks (newBlockingConn).
type conn struct {
	c   *net.UnixConn
	fd  int // the blocking descriptor, or -1
	buf []byte
	oob []byte
}

func newConn(f *os.File) (*conn, error) {
	fc, err := net.FileConn(f)
	f.Close() // FileConn holds a duplicate
	if err != nil {
		return nil, err
	}
	uc, ok := fc.(*net.UnixConn)
	if !ok {
		fc.Close()
		return nil, fmt.Errorf("supervisor socket is a %T, not a Unix socket", fc)
	}
	_ = uc.SetWriteBuffer(maxMessage + 4096)
	_ = uc.SetReadBuffer(maxMessage + 4096)
	return &conn{c: uc, fd: -1, buf: make([]byte, maxMessage), oob: make([]byte, syscall.CmsgSpace(maxFiles*4))}, nil
}

// newBlockingConn serves fd as a blocking descriptor, which the caller reads from a thread of its own. A
// request then wakes that thread directly: through Go's poller it would wake the poller's thread, which
// hands the request over to the locked one, two wake-ups on every command's start instead of one.
func newBlockingConn(fd int) (*conn, error) {
	if err := unix.SetNonblock(fd, false); err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, maxMessage+4096)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, maxMessage+4096)
	return &conn{fd: fd, buf: make([]byte, maxMessage), oob: make([]byte, syscall.CmsgSpace(maxFiles*4))}, nil
}

// shutdown ends the connection in both directions, which wakes a blocked recv with end of file.
func (c *conn) shutdown() {
	if c.fd >= 0 {
		_ = unix.Shutdown(c.fd, unix.SHUT_RDWR)
		return
	}
	c.c.Close()
}

// send writes one message with the descriptors, which stay open on this side. It is not safe for
// concurrent use.
func (c *conn) send(m *message, fds ...int) error {
	b := m.encode()
	if len(b) > maxMessage {
		return fmt.Errorf("the command and its environment take %d bytes, more than the %d a command may", len(b), maxMessage)
	}
	var oob []byte
	if len(fds) > 0 {
		oob = syscall.UnixRights(fds...)
	}
	var n, oobn int
	var err error
	if c.fd >= 0 {
		for {
			n, err = unix.SendmsgN(c.fd, b, oob, nil, 0)
			if err != unix.EINTR {
				break
			}
		}
		if err == nil {
			oobn = len(oob) // sendmsg sends the rights with the first byte, or fails
		}
	} else {
		n, oobn, err = c.c.WriteMsgUnix(b, oob, nil)
	}
	if err == nil && (n != len(b) || oobn != len(oob)) {
		err = fmt.Errorf("short write to the supervisor (%d of %d bytes)", n, len(b))
	}
	return err
}

// recv reads one message and the descriptors that came with it, which are close-on-exec. It is not safe
// for concurrent use.
func (c *conn) recv() (*message, []*os.File, error) {
	var n, oobn, flags int
	var err error
	if c.fd >= 0 {
		for {
			n, oobn, flags, _, err = unix.Recvmsg(c.fd, c.buf, c.oob, unix.MSG_CMSG_CLOEXEC)
			if err != unix.EINTR {
				break
			}
		}
	} else {
		n, oobn, flags, _, err = c.c.ReadMsgUnix(c.buf, c.oob)
	}
	if err != nil {
		return nil, nil, err
	}
	var files []*os.File
	if oobn > 0 {
		scms, perr := syscall.ParseSocketControlMessage(c.oob[:oobn])
		if perr != nil {
			return nil, nil, perr
		}
		for _, scm := range scms {
			fds, perr := syscall.ParseUnixRights(&scm)
			if perr != nil {
				continue
			}
			for _, fd := range fds {
				// Go's ReadMsgUnix asks for MSG_CMSG_CLOEXEC, so a command started meanwhile cannot
				// inherit these; setting it again costs nothing and does not depend on that.
				unix.CloseOnExec(fd)
				files = append(files, os.NewFile(uintptr(fd), "passed"))
			}
		}
	}
	if n == 0 && oobn == 0 {
		return nil, nil, errEOF
	}
	if flags&(syscall.MSG_TRUNC|syscall.MSG_CTRUNC) != 0 {
		closeAll(files)
		return nil, nil, errors.New("supervisor message was truncated")
	}
	m, err := decode(c.buf[:n])
	if err != nil {
		closeAll(files)
		return nil, nil, err
	}
	return m, files, nil
}

var errEOF = errors.New("supervisor connection closed")

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// Socketpair returns the two ends of a new supervisor connection, both close-on-exec: the client keeps
// local, and the supervisor is started with remote.
func Socketpair() (local, remote *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("supervisor socket: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "supervisor"), os.NewFile(uintptr(fds[1]), "supervisor-remote"), nil
}
