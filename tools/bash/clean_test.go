package bash

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// cleanAll runs input through a cleaner in the given chunk sizes and returns the final text.
func cleanAll(input string, chunk func() int) string {
	var c cleaner
	var out strings.Builder
	emit := func(text []byte, _ int, _ bool) { out.Write(text) }
	for len(input) > 0 {
		n := min(chunk(), len(input))
		c.Write([]byte(input[:n]), emit)
		input = input[n:]
	}
	c.Finish(emit)
	return out.String()
}

var cleanCases = []struct {
	name, in, want string
}{
	{"plain", "hello\nworld\n", "hello\nworld\n"},
	{"no final newline", "hello", "hello"},
	{"colours", "\x1b[1;31mred\x1b[0m and \x1b[32mgreen\x1b[m\n", "red and green\n"},
	{"progress bar", "  0%\r 50%\r100%\ndone\n", "100%\ndone\n"},
	{"progress with erase", "\r\x1b[Kdl 1/3\r\x1b[Kdl 2/3\r\x1b[Kdl 3/3\n", "dl 3/3\n"},
	{"crlf", "a\r\nb\r\n", "a\nb\n"},
	{"trailing cr", "abc\r", "abc"},
	{"backspace", "ab\bc\n", "ac\n"},
	{"overstrike bold", "N\bNA\bAM\bME\bE\n", "NAME\n"},
	{"backspace over rune", "é\bx\n", "x\n"},
	{"osc title bel", "\x1b]0;title\x07text\n", "text\n"},
	{"osc hyperlink st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", "link\n"},
	{"dcs", "\x1bP1;2|abc\x1b\\ok\n", "ok\n"},
	{"charset select", "\x1b(Bplain\n", "plain\n"},
	{"keypad mode", "\x1b=x\x1b>\n", "x\n"},
	{"bell and odd controls", "a\x07b\x01c\x7f\n", "abc\n"},
	{"tabs kept", "a\tb\n", "a\tb\n"},
	{"nul visible", "a\x00b\n", "a\u2400b\n"},
	{"invalid utf8", "a\xffb\xc3\n", "a\uFFFDb\uFFFD\n"},
	{"valid utf8", "héllo wörld ✓ 🎉\n", "héllo wörld ✓ 🎉\n"},
	{"c1 control dropped", "a\u009bb\n", "ab\n"},
	{"unterminated osc at newline", "\x1b]0;oops\nnext\n", "\nnext\n"},
	{"csi with control inside", "\x1b[1\nz\n", "\nz\n"},
	{"truncated sequence at end", "abc\x1b[", "abc"},
	{"truncated rune at end", "abc\xe2\x82", "abc\uFFFD"},
}

func TestCleanerCases(t *testing.T) {
	t.Parallel()
	for _, tc := range cleanCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := cleanAll(tc.in, func() int { return len(tc.in) }); got != tc.want {
				t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Splitting the input anywhere, even inside an escape sequence or a rune, must not change the result.
func TestCleanerSplitAnywhere(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range cleanCases {
		whole := cleanAll(tc.in, func() int { return len(tc.in) })
		if got := cleanAll(tc.in, func() int { return 1 }); got != whole {
			t.Errorf("%s byte by byte: %q, want %q", tc.name, got, whole)
		}
		for range 20 {
			if got := cleanAll(tc.in, func() int { return 1 + rng.IntN(5) }); got != whole {
				t.Errorf("%s in random chunks: %q, want %q", tc.name, got, whole)
			}
		}
	}
}

func TestCleanerLongLineIsBounded(t *testing.T) {
	t.Parallel()
	var c cleaner
	total := 0
	emit := func(text []byte, _ int, _ bool) { total += len(text) }
	chunk := []byte(strings.Repeat("x", 10000))
	for range 100 {
		c.Write(chunk, emit)
		if len(c.line) > maxLine+len(chunk) {
			t.Fatalf("unfinished line grew to %d bytes", len(c.line))
		}
	}
	c.Finish(emit)
	if total != 100*len(chunk) {
		t.Errorf("emitted %d bytes, want %d", total, 100*len(chunk))
	}
}

// display applies the live stream the way the UI does: "\r" starts the unfinished line again.
type display struct{ strings.Builder }

func (d *display) add(s string) {
	for {
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			d.WriteString(s)
			return
		}
		d.WriteString(s[:i])
		text := d.String()
		d.Reset()
		d.WriteString(text[:strings.LastIndexByte(text, '\n')+1])
		s = s[i+1:]
	}
}

// The display sees an unfinished line early, never twice, and a redrawn one (a progress bar) as one line
// that changes.
func TestCleanerLivePartialLine(t *testing.T) {
	t.Parallel()
	var c cleaner
	var live display
	emit := func(text []byte, skip int, nl bool) {
		if nl {
			live.add("\r")
		}
		live.add(string(text[skip:]))
	}
	c.Write([]byte("Compiling..."), emit)
	live.add(string(c.ShowPartial()))
	c.Write([]byte(" done\nnext\n"), emit)
	if got, want := live.String(), "Compiling... done\nnext\n"; got != want {
		t.Errorf("live = %q, want %q", got, want)
	}

	live.Reset()
	c.Write([]byte(" 10%"), emit)
	live.add(string(c.ShowPartial()))
	c.Write([]byte("\r"), emit)
	if p := c.ShowPartial(); p != nil {
		t.Errorf("showed %q again while the redraw had not come yet", p)
	}
	c.Write([]byte(" 20%"), emit)
	live.add(string(c.ShowPartial()))
	if got, want := live.String(), " 20%"; got != want {
		t.Errorf("after a redraw the display shows %q, want %q", got, want)
	}
	c.Write([]byte("\r100%\n"), emit)
	if got, want := live.String(), "100%\n"; got != want {
		t.Errorf("live = %q, want %q", got, want)
	}

	// Frames that end in a carriage return show as they come.
	live.Reset()
	c.Write([]byte("pct 20%\r"), emit)
	live.add(string(c.ShowPartial()))
	if got, want := live.String(), "pct 20%"; got != want {
		t.Errorf("live = %q, want %q", got, want)
	}
	c.Write([]byte("pct 40%\r"), emit)
	live.add(string(c.ShowPartial()))
	if got, want := live.String(), "pct 40%"; got != want {
		t.Errorf("live = %q, want %q", got, want)
	}
	c.Write([]byte("\ndone\n"), emit)
	if got, want := live.String(), "pct 40%\ndone\n"; got != want {
		t.Errorf("live = %q, want %q", got, want)
	}
}

func TestPlainPrefix(t *testing.T) {
	t.Parallel()
	naive := func(p []byte) int {
		for i, b := range p {
			if (b < 0x20 && b != '\n' && b != '\t') || b >= 0x7f {
				return i
			}
		}
		return len(p)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	specials := []byte{0, 1, '\r', 0x1b, 0x7f, 0x80, 0xc3, 0xff, 0x1f}
	for range 2000 {
		p := []byte(strings.Repeat("abc def\n\tgh", 1+rng.IntN(4)))
		if rng.IntN(4) > 0 {
			p[rng.IntN(len(p))] = specials[rng.IntN(len(specials))]
		}
		if got, want := plainPrefix(p), naive(p); got != want {
			t.Fatalf("plainPrefix(%q) = %d, want %d", p, got, want)
		}
	}
}

func FuzzCleaner(f *testing.F) {
	for _, tc := range cleanCases {
		f.Add(tc.in, 3)
	}
	f.Fuzz(func(t *testing.T, in string, step int) {
		step = 1 + abs(step)%7
		whole := cleanAll(in, func() int { return len(in) + 1 })
		if got := cleanAll(in, func() int { return step }); got != whole {
			t.Fatalf("chunked %q = %q, whole = %q", in, got, whole)
		}
		if !utf8ValidString(whole) {
			t.Fatalf("clean(%q) = %q is not valid UTF-8", in, whole)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func utf8ValidString(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
