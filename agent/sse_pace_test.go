package agent

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a source that returns one of its chunks a read, as a socket returns what has arrived.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts = c.parts[1:]
	return n, nil
}

func TestAStreamThatIsCaughtUpIsReadAFrameAtATime(t *testing.T) {
	big := strings.Repeat("x", caughtUpBelow)
	src := &chunks{parts: []string{"data: a\n\n", "data: b\n\n", big, big, "data: c\n\n", "data: d\n\n"}}
	var slept []time.Duration
	r := &pacedReader{src: src, sleep: func(d time.Duration) { slept = append(slept, d) }}
	var got bytes.Buffer
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if want := "data: a\n\ndata: b\n\n" + big + big + "data: c\n\ndata: d\n\n"; got.String() != want {
		t.Fatal("the paced reader changed what it read")
	}
	// A pause after each small read (a, b, c, d: the fourth is followed by the end), none after the big
	// ones, and never longer than a frame.
	if len(slept) != 4 {
		t.Fatalf("paused %d times, want 4 (after each read that found the stream caught up): %v", len(slept), slept)
	}
	for _, d := range slept {
		if d <= 0 || d > streamReadEvery {
			t.Fatalf("paused %v", d)
		}
	}
}
