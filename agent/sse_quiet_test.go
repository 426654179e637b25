package agent

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// rcvlowat is the socket's SO_RCVLOWAT now, -1 when it cannot be read.
func rcvlowat(c net.Conn) int {
	qc, ok := c.(*quietConn)
	if !ok {
		return -1
	}
	v := -1
	_ = qc.raw.Control(func(fd uintptr) {
		if got, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVLOWAT); err == nil {
			v = got
		}
	})
	return v
}

// While a paced stream waits between reads its socket asks to be reported readable only once much has
// gathered, and it is set back before every read; every event still arrives, the last ones too, which
// come after pauses longer than a paced wait (a connection left hushed would never report them).
func TestAPausedStreamsConnectionIsHushedAndEveryEventArrives(t *testing.T) {
	const events = 300
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range events {
			fmt.Fprintf(w, "data: {\"n\": %d}\n\n", i)
			rc.Flush()
			if i >= events-3 {
				time.Sleep(50 * time.Millisecond) // the model slows down at the end
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	client := &http.Client{Transport: quietTransport()}
	req, err := http.NewRequest("GET", srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var conn net.Conn
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { conn = info.Conn }}))
	var hush func(bool)
	req = withConnHush(req, &hush)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if hush == nil {
		t.Fatal("the stream's connection cannot be hushed")
	}
	if got := rcvlowat(conn); got != 1 {
		t.Fatalf("SO_RCVLOWAT is %d before the stream is read, want 1", got)
	}

	var mu sync.Mutex
	var during []int
	pr := &pacedReader{src: resp.Body, hush: hush, sleep: func(d time.Duration) {
		mu.Lock()
		during = append(during, rcvlowat(conn))
		mu.Unlock()
		time.Sleep(d)
	}}
	done := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- string(b)
	}()
	var body string
	select {
	case body = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end: a hushed connection was never set back")
	}
	if n := strings.Count(body, "data: {"); n != events || !strings.HasSuffix(body, "data: [DONE]\n\n") {
		t.Fatalf("read %d events of %d, ending %q", n, events, body[max(0, len(body)-40):])
	}
	if len(during) == 0 {
		t.Fatal("the reader never paused")
	}
	for _, v := range during {
		if v != hushBytes {
			t.Fatalf("SO_RCVLOWAT during a pause was %d, want %d", v, hushBytes)
		}
	}
	if got := rcvlowat(conn); got != 1 {
		t.Fatalf("SO_RCVLOWAT after the stream is %d, want 1", got)
	}
}
