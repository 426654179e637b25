package agent

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptrace"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// While a paced stream waits for its next read (sse_pace.go), the events the model sends go on arriving,
// a packet each, and every packet woke the program anyway: Go's network poller is told of each arrival on
// the socket, whether or not a goroutine waits on it. At 2,000 events a second those wake-ups cost more
// than the reading they were meant to spare (measured on warden -p: 4,300 context switches and 115 ms of
// system time for a 1.5 s answer). So, for that wait, the socket is told to report itself readable only
// once hushBytes have gathered (SO_RCVLOWAT), and is set back to a byte before it is read: what arrived in
// between is read then, at once, as before. A connection this cannot be done on is read as it was.

// hushBytes is more than a paced wait ever gathers: nothing wakes the program before the wait ends.
const hushBytes = 1 << 20

// quietConn is a TCP connection that can be hushed.
type quietConn struct {
	net.Conn
	raw syscall.RawConn
}

// hush asks the kernel to report the socket readable only once hushBytes are waiting (on), or as soon as
// a byte is (off).
func (c *quietConn) hush(on bool) {
	lowat := 1
	if on {
		lowat = hushBytes
	}
	_ = c.raw.Control(func(fd uintptr) {
		_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVLOWAT, lowat)
	})
}

// quietTransport is Go's default transport (proxies from the environment, HTTP/2 over TLS) whose
// connections can be hushed.
func quietTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			if raw, err := tc.SyscallConn(); err == nil {
				return &quietConn{Conn: c, raw: raw}, nil
			}
		}
		return c, nil
	}
	return t
}

// withConnHush returns req with a trace that records, once the transport picks a connection, how to hush
// it into *hush; it stays nil for a connection that cannot be hushed.
func withConnHush(req *http.Request, hush *func(bool)) *http.Request {
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		c := info.Conn
		if tc, ok := c.(*tls.Conn); ok {
			c = tc.NetConn()
		}
		if qc, ok := c.(*quietConn); ok {
			*hush = qc.hush
		}
	}}
	return req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
}
