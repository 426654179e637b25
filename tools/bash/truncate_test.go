package bash

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/warden-cli/warden/tools"
)

func TestRingKeepsLastBytes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	r := newRing(10)
	var all []byte
	for range 200 {
		p := []byte(strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(25)))
		r.Write(p)
		all = append(all, p...)
		n := r.Len()
		if want := min(len(all), 10); n != want {
			t.Fatalf("Len = %d, want %d", n, want)
		}
		for k := 0; k <= n; k++ {
			if got, want := string(r.Last(k)), string(all[len(all)-k:]); got != want {
				t.Fatalf("Last(%d) = %q, want %q", k, got, want)
			}
		}
	}
}

func TestClipKeepsHeadAndTailWithExactCounts(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	s := b.String()
	got := clipString(s, 200, "/tmp/full.log")
	head, tail, ok := strings.Cut(got, "[… ")
	if !ok {
		t.Fatalf("no marker in %q", got)
	}
	marker, tail, _ := strings.Cut(tail, " …]\n")
	headLines := strings.Count(head, "\n")
	tailLines := strings.Count(tail, "\n")
	omitted := 1000 - headLines - tailLines
	wantMarker := fmt.Sprintf("%d lines", omitted)
	if !strings.HasPrefix(marker, wantMarker) || !strings.Contains(marker, "/tmp/full.log") {
		t.Errorf("marker %q, want it to start with %q and name the file", marker, wantMarker)
	}
	if !strings.HasPrefix(head, "line 1\n") || !strings.HasSuffix(tail, "line 1000\n") {
		t.Errorf("head %q / tail %q do not keep the ends", head, tail)
	}
	if !strings.HasPrefix(tail, "line ") {
		t.Errorf("tail does not start at a line: %q", tail)
	}
	if len(head)+len(tail) > 200 {
		t.Errorf("kept %d bytes, budget 200", len(head)+len(tail))
	}
	if short := "short\n"; clipString(short, 200, "") != short {
		t.Errorf("short text changed")
	}
}

func TestCutsKeepRunesWhole(t *testing.T) {
	t.Parallel()
	s := []byte(strings.Repeat("é", 50)) // no newlines: cut at rune boundaries
	for n := 1; n < len(s); n++ {
		if h := cutHead(s[:n]); !utf8ValidString(string(h)) {
			t.Fatalf("cutHead(%d) = %q", n, h)
		}
		if tl := cutTail(s[n:]); !utf8ValidString(string(tl)) {
			t.Fatalf("cutTail(%d) = %q", n, tl)
		}
	}
}

func TestLooksBinary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"plain text\n", false},
		{"tiny\x00\x01", false},
		{strings.Repeat("héllo wörld ", 10), false},
		{strings.Repeat("caf\xe9 au lait, ", 10), false}, // Latin-1 text: repaired, not binary
		{strings.Repeat("\x1b[31mred\x1b[0m\n", 10), false},
		{strings.Repeat("\x00\x00\x01\x02ELF\xff", 10), true},
		{strings.Repeat("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 5), true},
	} {
		if got := tools.LooksBinary([]byte(tc.in), plainPrefix([]byte(tc.in))); got != tc.want {
			t.Errorf("looksBinary(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// A marker never points at lines the capped file does not hold.
func TestMarkerKnowsWhereTheCappedFileEnds(t *testing.T) {
	t.Parallel()
	c := newCapture(2000, t.TempDir(), "t", nil)
	c.spoolCap = 10 * 1000 // 1,000 lines of 10 bytes
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(c, "line %04d\n", i)
	}
	c.Finish()
	v := c.View(cursor{}, 1000)
	if !strings.Contains(v.text, "lines ") || !strings.Contains(v.text, "–1,000 of them are in ") ||
		!strings.Contains(v.text, "which holds only the output's first 1,000 lines") {
		t.Errorf("from the start: %q", v.text)
	}
	// Past the file's end, nothing of the omitted part is in it.
	v = c.View(cursor{off: 20000, lines: 2000}, 1000)
	if !strings.Contains(v.text, "they are not in ") || strings.Contains(v.text, "of them are in") {
		t.Errorf("from line 2,001: %q", v.text)
	}
}

func TestMarkerForOneLongLine(t *testing.T) {
	t.Parallel()
	s := clipString(strings.Repeat("x", 100000), 1000, "/f")
	if !strings.Contains(s, "[… 99.0 KB omitted from the middle of one long line; the full output is in /f …]") {
		t.Errorf("marker: %q", s[400:700])
	}
}

// clipString shortens s the way a command's output is shortened for the model: through clip, with s as
// both the spooled head and the ring's tail.
func clipString(s string, budget int, path string) string {
	r := newRing(max(len(s), 1))
	r.Write([]byte(s))
	out, _ := clip(clipInput{n: int64(len(s)), lines: int64(strings.Count(s, "\n")), budget: budget, ring: &r,
		path: path, head: func(buf []byte) []byte { return buf[:copy(buf, s)] }})
	return out
}

// The ring grows to its size and then keeps the last bytes, whatever the sizes of the writes.
func TestRingKeepsTheLastBytesAsItGrows(t *testing.T) {
	t.Parallel()
	for _, chunk := range []int{1, 3, 7, 10, 11, 25} {
		r := newRing(10)
		var all []byte
		for i := 0; i < 40; i += chunk {
			p := make([]byte, chunk)
			for k := range p {
				p[k] = byte('a' + (i+k)%26)
			}
			r.Write(p)
			all = append(all, p...)
			want := all[max(0, len(all)-10):]
			if got := r.Last(r.Len()); string(got) != string(want) {
				t.Fatalf("chunk %d after %d bytes: %q, want %q", chunk, len(all), got, want)
			}
		}
	}
}
