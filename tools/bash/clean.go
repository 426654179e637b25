package bash

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// cleaner turns a terminal byte stream into plain text, one chunk at a time, the way a terminal would show it
// once it is done: escape sequences (CSI, OSC, DCS, ...) are removed, a carriage return followed by more text
// redraws the line (so progress bars collapse to their last state), a backspace takes back a character, other
// control characters are dropped and invalid UTF-8 becomes U+FFFD. Sequences, runes and lines may be split
// across chunks at any byte.
//
// Text is handed on only once it is final: complete lines go to the emit function, and the unfinished last
// line is kept until its newline arrives (or Finish). A line longer than maxLine is handed on as it is, so
// memory stays bounded whatever the input.
type cleaner struct {
	st     escState
	escLen int  // bytes of the current escape sequence, to give up on runaway ones
	strEsc bool // in a string sequence (OSC, DCS, ...), the previous byte was ESC
	cr     bool // a carriage return was seen: the next character starts the line again

	buf       []byte // the cleaned text of this Write: final lines then the unfinished line
	lineStart int    // where the unfinished line starts in buf
	line      []byte // the unfinished line carried to the next Write
	utf       [utf8.UTFMax]byte
	utfN      int // bytes of an incomplete UTF-8 sequence carried to the next Write

	// Live display bookkeeping: shown bytes of the unfinished line were already sent to the display; broken
	// says the line was redrawn or shortened since, so what the display has of it is stale.
	shown  int
	broken bool
	// For the text being emitted: bytes at its start the display already has, and whether the display must
	// replace what it showed of the line, which is stale.
	liveSkip int
	liveNL   bool
	redraw   []byte // scratch for ShowPartial's "\r" + line
}

// emitFunc receives final text. skip bytes at its start were already shown live; nl says that what the
// display showed of the line was redrawn since, and that text replaces it. text is valid during the call.
//
// The display's stream is plain text in which a "\r" stands for "the unfinished line starts again": a
// progress bar redrawn with carriage returns shows as one line that changes, at most as often as the display
// is given text.
type emitFunc func(text []byte, skip int, nl bool)

type escState uint8

const (
	stGround   escState = iota
	stEsc               // after ESC
	stEscInter          // ESC followed by intermediate bytes
	stCSI               // ESC [
	stString            // OSC, DCS, SOS, PM, APC: until BEL or ESC \
)

const (
	maxLine      = 64 << 10 // an unfinished line longer than this is handed on as it is
	maxEscape    = 256      // a CSI or ESC sequence longer than this is not one
	maxEscString = 4096     // nor an OSC or DCS string longer than this
)

// Write cleans p and emits the text that became final. Plain text passes through without being copied.
func (c *cleaner) Write(p []byte, emit emitFunc) { c.write(p, plainPrefix(p), emit) }

// write is Write for a caller that knows the first plain bytes of p already.
func (c *cleaner) write(p []byte, plain int, emit emitFunc) {
	if c.st == stGround && !c.cr && c.utfN == 0 && plain == len(p) {
		end := bytes.LastIndexByte(p, '\n') + 1
		if end == 0 && len(c.line)+len(p) <= maxLine {
			c.line = append(c.line, p...)
			return
		}
		if end == 0 || len(p)-end > maxLine {
			end = len(p)
		}
		if len(c.line) > 0 {
			c.emitLine(c.line, emit)
			c.line = c.line[:0]
			c.emitText(p[:end], emit)
		} else {
			c.emitLine(p[:end], emit)
		}
		c.line = append(c.line, p[end:]...)
		return
	}
	c.buf = append(c.buf[:0], c.line...)
	c.lineStart, c.liveSkip, c.liveNL = 0, 0, false
	i := 0
	if c.utfN > 0 {
		i = c.finishRune(p)
	}
	for i < len(p) {
		if c.st == stGround && !c.cr {
			if n := plainPrefix(p[i:]); n > 0 {
				run := p[i : i+n]
				c.buf = append(c.buf, run...)
				if nl := bytes.LastIndexByte(run, '\n'); nl >= 0 {
					c.commit(len(c.buf) - len(run) + nl + 1)
				}
				i += n
				continue
			}
		}
		i += c.step(p[i:])
	}
	if len(c.buf)-c.lineStart > maxLine {
		c.commit(len(c.buf))
	}
	c.line = append(c.line[:0], c.buf[c.lineStart:]...)
	if c.lineStart > 0 {
		emit(c.buf[:c.lineStart], c.liveSkip, c.liveNL)
	}
}

// Finish ends the stream: whatever is pending becomes final.
func (c *cleaner) Finish(emit emitFunc) {
	if c.utfN > 0 {
		c.line = append(c.line, "\uFFFD"...)
		c.utfN = 0
	}
	if len(c.line) > 0 {
		c.emitLine(c.line, emit)
	}
	c.line = c.line[:0]
	c.st, c.cr = stGround, false
}

// emitLine emits text that starts with the unfinished line, so the live bookkeeping applies to it.
func (c *cleaner) emitLine(text []byte, emit emitFunc) {
	c.lineStart, c.liveSkip, c.liveNL = 0, 0, false
	c.commit(len(text))
	emit(text, c.liveSkip, c.liveNL)
}

// emitText emits text that starts a fresh line.
func (c *cleaner) emitText(text []byte, emit emitFunc) {
	if len(text) > 0 {
		emit(text, 0, false)
	}
}

// ShowPartial returns what the display needs of the unfinished line: the part it has not seen yet, or, when
// the line was redrawn since, "\r" and the whole line. A line ended by a carriage return (`printf 'pct
// 20%%\r'`) shows as it is until the text that redraws it comes. The slice is valid until the next Write.
func (c *cleaner) ShowPartial() []byte {
	if !c.Pending() {
		return nil
	}
	if c.broken {
		c.redraw = append(append(c.redraw[:0], '\r'), c.line...)
		c.broken, c.shown = false, len(c.line)
		return c.redraw
	}
	s := c.line[c.shown:]
	c.shown = len(c.line)
	return s
}

// Pending reports whether the unfinished line has text the display could be shown.
func (c *cleaner) Pending() bool {
	return len(c.line) > c.shown || (c.broken && len(c.line) > 0)
}

// commit makes buf[:end] final. Only the first commit after a Write starts can carry a line the display saw.
func (c *cleaner) commit(end int) {
	if c.lineStart == 0 && c.shown > 0 {
		if c.broken {
			c.liveNL = true
		} else {
			c.liveSkip = c.shown
		}
	}
	c.shown, c.broken = 0, false
	c.lineStart = end
}

// put appends text to the current line, starting the line again first if a carriage return came before.
func (c *cleaner) put(b []byte) {
	if c.cr {
		c.buf = c.buf[:c.lineStart]
		c.cr = false
		if c.shown > 0 {
			c.broken = true
		}
	}
	c.buf = append(c.buf, b...)
}

// step handles the special byte at p[0] (with the rest of its rune) and returns how many bytes it used.
func (c *cleaner) step(p []byte) int {
	b := p[0]
	switch c.st {
	case stEsc:
		c.escLen++
		switch {
		case b == '[':
			c.st = stCSI
		case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
			c.st, c.strEsc = stString, false
		case b >= 0x20 && b <= 0x2f:
			c.st = stEscInter
		case b == 0x1b:
			c.escLen = 0
		case b < 0x20:
			c.st = stGround
			return c.ground(p)
		default:
			c.st = stGround
		}
		return 1
	case stCSI:
		c.escLen++
		switch {
		case b >= 0x20 && b <= 0x3f:
			if c.escLen > maxEscape {
				c.st = stGround
			}
		case b >= 0x40 && b <= 0x7e:
			c.st = stGround
		case b < 0x20:
			c.st = stGround
			return c.ground(p)
		default:
			c.st = stGround
		}
		return 1
	case stEscInter:
		c.escLen++
		switch {
		case b >= 0x20 && b <= 0x2f:
			if c.escLen > maxEscape {
				c.st = stGround
			}
		case b < 0x20:
			c.st = stGround
			return c.ground(p)
		default:
			c.st = stGround
		}
		return 1
	case stString:
		c.escLen++
		switch {
		case b == 0x07:
			c.st = stGround
		case c.strEsc && b == '\\':
			c.st = stGround
		case c.strEsc:
			// ESC and something else: the string ended without its terminator and a new sequence begins.
			c.st, c.escLen = stEsc, 0
			return c.step(p)
		case b == 0x1b:
			c.strEsc = true
			return 1
		case b == '\n' || c.escLen > maxEscString:
			// Not a real string sequence; do not swallow the output that follows.
			c.st = stGround
			return c.ground(p)
		}
		c.strEsc = false
		return 1
	}
	return c.ground(p)
}

// ground handles p[0] as ordinary output.
func (c *cleaner) ground(p []byte) int {
	b := p[0]
	switch {
	case b == '\n':
		c.cr = false
		c.buf = append(c.buf, '\n')
		c.commit(len(c.buf))
		return 1
	case b == '\r':
		c.cr = true
		return 1
	case b == 0x1b:
		c.st, c.escLen = stEsc, 0
		return 1
	case b == '\b':
		if !c.cr && len(c.buf) > c.lineStart {
			n := len(c.buf) - 1
			for n > c.lineStart && !utf8.RuneStart(c.buf[n]) {
				n--
			}
			c.buf = c.buf[:n]
			if n-c.lineStart < c.shown {
				c.broken = true
			}
		}
		return 1
	case b == 0:
		c.put([]byte("\u2400")) // ␀, so that NUL-separated lists stay readable
		return 1
	case b == '\t' || (b >= 0x20 && b < 0x7f):
		c.put(p[:1])
		return 1
	case b < 0x20 || b == 0x7f:
		return 1
	}
	if !utf8.FullRune(p) {
		c.utfN = copy(c.utf[:], p)
		return len(p)
	}
	r, n := utf8.DecodeRune(p)
	switch {
	case r == utf8.RuneError && n == 1:
		c.put([]byte("\uFFFD"))
	case r >= 0x80 && r < 0xa0:
		// C1 controls: terminals in UTF-8 mode do not act on them; drop them.
	default:
		c.put(p[:n])
	}
	return n
}

// finishRune completes a UTF-8 sequence split across writes and returns how many bytes of p it used.
func (c *cleaner) finishRune(p []byte) int {
	var tmp [utf8.UTFMax]byte
	k := copy(tmp[:], c.utf[:c.utfN])
	used := 0
	for k < utf8.UTFMax && used < len(p) && !utf8.FullRune(tmp[:k]) {
		tmp[k] = p[used]
		k++
		used++
	}
	if !utf8.FullRune(tmp[:k]) {
		c.utfN = copy(c.utf[:], tmp[:k])
		return used
	}
	c.utfN = 0
	if r, n := utf8.DecodeRune(tmp[:k]); (r != utf8.RuneError || n > 1) && n == k {
		if r >= 0x80 && r < 0xa0 {
			return used
		}
		c.put(tmp[:k])
		return used
	}
	// The carried bytes began a sequence the new bytes do not continue. Replace them one by one, as if they
	// had come in one chunk, and read the new bytes again as fresh input.
	for range k - used {
		c.put([]byte("\uFFFD"))
	}
	return 0
}

const (
	lo7  = 0x7f7f7f7f7f7f7f7f
	hi   = 0x8080808080808080
	ones = 0x0101010101010101
)

// plainPrefix returns the length of the longest prefix of p made of printable ASCII, tabs and newlines:
// text the cleaner passes through unchanged. It looks at 32 bytes at a time, eight per word.
func plainPrefix(p []byte) int {
	i := 0
	for ; i+32 <= len(p); i += 32 {
		q := p[i : i+32]
		w0, w1 := binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[8:])
		w2, w3 := binary.LittleEndian.Uint64(q[16:]), binary.LittleEndian.Uint64(q[24:])
		if (w0|w1|w2|w3)&hi != 0 || special(w0)|special(w1)|special(w2)|special(w3) != 0 {
			break
		}
	}
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		if w&hi != 0 {
			break
		}
		if sp := special(w); sp != 0 {
			return i + bits.TrailingZeros64(sp)/8
		}
	}
	for ; i < len(p); i++ {
		b := p[i]
		if (b < 0x20 && b != '\n' && b != '\t') || b >= 0x7f {
			return i
		}
	}
	return i
}

// special marks (with the top bit of each byte) the bytes of w that are control characters other than
// newline and tab, or DEL. Every byte of w must be below 0x80, so that no addition carries into the next byte.
func special(w uint64) uint64 {
	ctl := ^(w + 0x60*ones) & hi // below 0x20
	del := (w + ones) & hi       // 0x7f
	nl := ^((w ^ '\n'*ones) + lo7) & hi
	tab := ^((w ^ '\t'*ones) + lo7) & hi
	return ctl&^(nl|tab) | del
}
