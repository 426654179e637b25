package agent

import (
	"io"
	"time"
)

// A model streaming 2,000 tokens a second sends as many events, each one its own write on the server's
// side: read as they come, each costs a read from the socket and the wake-up of the goroutine that waits
// on it, which was most of what a fast stream cost Warden (about 10% of a core for the reading alone).
// Once the stream is caught up, reading pauses for streamReadEvery, while the socket gathers what comes
// next; the events of that time are then read together. A stream that is not caught up (a read fills a
// good part of what the connection buffers) is read on at once, so that pacing never slows a stream
// down: it delays an event by streamReadEvery at most, less than the 50 ms the full-screen program
// gathers streamed pieces for before it takes them (and it draws an answer's text on 100 ms steps).
// Reading 30 times a second rather than 60 took the real binary streaming 2,000 words a second from about
// 10% of a core to about 9% (warden -p from 6 to 4.5%).

const (
	streamReadEvery = time.Second / 30
	// caughtUpBelow is a read this small: the connection had no more waiting (it buffers 4 KB).
	caughtUpBelow = 2 << 10
)

// pacedReader reads src at most once every streamReadEvery while what it reads is small.
type pacedReader struct {
	src      io.Reader
	last     time.Time
	caughtUp bool
	sleep    func(time.Duration)
	// hush, when not nil, keeps the connection from waking the program while reading pauses
	// (sse_quiet.go).
	hush func(bool)
}

func (r *pacedReader) Read(p []byte) (int, error) {
	if r.caughtUp {
		if wait := streamReadEvery - time.Since(r.last); wait > 0 {
			if r.hush != nil {
				r.hush(true)
			}
			r.sleep(wait)
			if r.hush != nil {
				r.hush(false)
			}
		}
	}
	n, err := r.src.Read(p)
	r.last, r.caughtUp = time.Now(), n < caughtUpBelow
	return n, err
}
