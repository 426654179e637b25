package bash

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/warden-cli/warden/tools"
)

// capture collects one command's output with bounded memory, whatever its volume: the cleaned text goes to a
// ring holding its last ringSize bytes and, once it outgrows the ring, to a spool file (up to spoolCap). The
// model's view is built from the two (see view); the display gets the text live, coalesced.
//
// Write is called from the goroutine reading the pipe; the other methods from any goroutine. The display's
// function is called without mu held (under liveMu, which orders its calls), so that a display that is slow
// to take the text never holds up the reading of the pipe, and with it the command.
type capture struct {
	liveMu sync.Mutex // taken before mu, never by Write
	mu     sync.Mutex
	cl     cleaner

	ring  ring
	total int64 // bytes of cleaned text
	lines int64 // newlines in the cleaned text

	// binRun counts the bytes of a run of binary chunks not yet closed: a chunk that looks binary is not
	// text anyone can read, so the run stands in the text as one line saying how large it was, and text
	// that follows is taken as text again.
	binRun int64

	dir, name  string // where and under which name to create the spool file
	spool      *os.File
	spoolBuf   *bufio.Writer // large writes: a chatty command's small chunks would cost a system call each
	spoolPath  string
	spooled    int64 // bytes written to the spool
	spoolLines int64 // complete lines written to the spool
	spoolCap   int64
	spoolFull  bool  // the cap was reached; later output is not in the file
	spoolErr   error // the spool could not be written; later output is not in the file
	finished   bool
	live       func(string)
	liveBuf    liveBuffer
	liveTimer  *time.Timer
	liveArmed  bool
	liveEvery  time.Duration
}

const (
	defaultSpoolCap = 64 << 20
	liveInterval    = 50 * time.Millisecond
	liveMax         = 32 << 10 // the display gets at most this much per interval; the rest is summarised
)

func newCapture(ringSize int, dir, name string, live func(string)) *capture {
	c := &capture{ring: newRing(ringSize), dir: dir, name: name, spoolCap: defaultSpoolCap, live: live,
		liveEvery: liveInterval}
	return c
}

// Write takes raw output from the process. It never fails: output beyond what can be kept is counted.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished {
		return n, nil
	}
	plain := plainPrefix(p)
	if plain < len(p) && tools.LooksBinary(p, plain) {
		c.writeMixed(p)
	} else {
		if c.binRun > 0 && p[0] == '\n' {
			// The newline ends the binary line; the text starts after it.
			c.binRun++
			p, plain = p[1:], max(plain-1, 0)
		}
		c.endBinaryRun()
		c.cl.write(p, plain, c.commit)
	}
	c.liveAdd("", nil)
	return n, nil
}

// writeMixed takes a chunk that is mostly binary. A program writing to a pipe sends its text and its binary
// data in the same writes, so the chunk is taken line by line: clean lines are text, the others binary,
// except for a readable end of a binary line (`…\0\0\0VERDICT: ok`), which is text too.
func (c *capture) writeMixed(p []byte) {
	for len(p) > 0 {
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line = p[:i+1]
		}
		p = p[len(line):]
		// Random bytes hold short clean lines too ("L\n", "\n"): within a run of binary data a clean line
		// counts as text only when it is long enough to be meant.
		if cleanText(line) && (c.binRun == 0 || len(bytes.TrimSpace(line)) >= minReadable) {
			c.endBinaryRun()
			c.cl.write(line, plainPrefix(line), c.commit)
			continue
		}
		if c.binRun == 0 {
			c.cl.Finish(c.commit) // the line the binary data interrupts ends there
		}
		tail := readableTail(line)
		c.binRun += int64(len(line) - len(tail))
		if len(tail) > 0 {
			c.endBinaryRun()
			c.cl.write(tail, plainPrefix(tail), c.commit)
		}
	}
}

// cleanText reports a line with nothing binary in it: valid UTF-8 without control characters other than
// tab, carriage return, escape (colours) and the newline.
func cleanText(b []byte) bool {
	for _, x := range b {
		if (x < 0x20 && x != '\t' && x != '\r' && x != '\n' && x != 0x1b) || x == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}

// minReadable is how many characters make a line in binary data text.
const minReadable = 8

// readableTail is the end of a binary line that is plainly text: at least minReadable printable ASCII
// characters before its newline. A line without a newline has none: more of it may follow.
func readableTail(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil
	}
	i := len(b) - 1
	for i > 0 && (b[i-1] >= 0x20 && b[i-1] < 0x7f || b[i-1] == '\t') {
		i--
	}
	if len(b)-1-i < minReadable {
		return nil
	}
	return b[i:]
}

// endBinaryRun puts the line that stands for a run of binary output into the text.
func (c *capture) endBinaryRun() {
	if c.binRun == 0 {
		return
	}
	line := "[binary output, " + tools.Commas(c.binRun) + " bytes, not shown]\n"
	if c.ring.Len() > 0 && !bytes.HasSuffix(c.ring.Last(1), []byte{'\n'}) {
		line = "\n" + line // the interrupted line ends where the binary data began
	}
	c.commit([]byte(line), 0, false)
	c.binRun = 0
}

// commit receives final cleaned text from the cleaner.
func (c *capture) commit(text []byte, skip int, nl bool) {
	c.total += int64(len(text))
	c.lines += int64(bytes.Count(text, []byte{'\n'}))
	if c.spool == nil && c.total > int64(c.ring.size()) {
		c.ensureSpool()
	}
	if c.spool != nil {
		c.spoolWrite(text)
	}
	c.ring.Write(text)
	if c.live != nil {
		prefix := ""
		if nl {
			prefix = "\r" // what the display showed of this line is replaced
		}
		c.liveAdd(prefix, text[skip:])
	}
}

// ensureSpool creates the spool file and writes to it the text so far, all of which is still in the ring.
func (c *capture) ensureSpool() {
	if c.spool != nil || c.spoolErr != nil {
		return
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		c.spoolErr = err
		return
	}
	f, err := os.CreateTemp(c.dir, c.name+"-*.log")
	if err != nil {
		c.spoolErr = err
		return
	}
	c.spool, c.spoolPath, c.spoolBuf = f, f.Name(), bufio.NewWriterSize(f, 256<<10)
	c.spoolWrite(c.ring.Last(c.ring.Len()))
}

func (c *capture) spoolWrite(p []byte) {
	if c.spool == nil || c.spoolFull || c.spoolErr != nil {
		return
	}
	if room := c.spoolCap - c.spooled; int64(len(p)) > room {
		p = p[:room]
		c.spoolFull = true
	}
	n, err := c.spoolBuf.Write(p)
	c.spooled += int64(n)
	c.spoolLines += int64(bytes.Count(p[:n], []byte{'\n'}))
	if err != nil {
		c.spoolErr = err
	}
}

// flushSpool makes everything written to the spool readable from the file.
func (c *capture) flushSpool() {
	if c.spool != nil && c.spoolErr == nil {
		if err := c.spoolBuf.Flush(); err != nil {
			c.spoolErr = err
		}
	}
}

// liveAdd queues text for the display and makes sure a flush is coming.
func (c *capture) liveAdd(prefix string, text []byte) {
	if c.live == nil {
		return
	}
	if prefix != "" {
		c.liveBuf.add([]byte(prefix))
	}
	if len(text) > 0 {
		c.liveBuf.add(text)
	}
	if !c.liveArmed && (c.liveBuf.len() > 0 || c.cl.Pending()) {
		c.liveArmed = true
		if c.liveTimer == nil {
			c.liveTimer = time.AfterFunc(c.liveEvery, c.flushLive)
		} else {
			c.liveTimer.Reset(c.liveEvery)
		}
	}
}

// flushLive hands the queued text, and the unfinished line if it is stable, to the display.
func (c *capture) flushLive() {
	c.liveMu.Lock()
	defer c.liveMu.Unlock()
	c.mu.Lock()
	c.liveArmed = false
	live, s := c.takeLive()
	c.mu.Unlock()
	deliver(live, s)
}

// takeLive returns the display's function and what it is to be given now. The caller holds liveMu and mu,
// and calls deliver once it has let go of mu.
func (c *capture) takeLive() (func(string), string) {
	if c.live == nil {
		return nil, ""
	}
	if s := c.cl.ShowPartial(); len(s) > 0 {
		c.liveBuf.add(s)
	}
	return c.live, c.liveBuf.take()
}

func deliver(live func(string), s string) {
	if live != nil && s != "" {
		live(s)
	}
}

// Finish is called once the pipe is drained: the unfinished line becomes final and the display gets the rest.
func (c *capture) Finish() {
	c.liveMu.Lock()
	defer c.liveMu.Unlock()
	c.mu.Lock()
	if c.finished {
		c.mu.Unlock()
		return
	}
	c.endBinaryRun()
	c.cl.Finish(c.commit)
	live, s := c.takeLive()
	defer deliver(live, s) // after mu is let go, before liveMu is
	defer c.mu.Unlock()
	c.finished = true
	c.live = nil
	if c.liveTimer != nil {
		c.liveTimer.Stop()
	}
	c.flushSpool()
	if c.spool != nil {
		if err := c.spool.Close(); err != nil && c.spoolErr == nil {
			c.spoolErr = err
		}
		c.spool = nil
	}
}

// Detach stops live delivery (the call that showed it has returned) after handing over what is queued.
func (c *capture) Detach() {
	c.liveMu.Lock()
	defer c.liveMu.Unlock()
	c.mu.Lock()
	live, s := c.takeLive()
	c.live = nil
	c.mu.Unlock()
	deliver(live, s)
}

// cursor is a position in the cleaned text: bytes and newlines before it.
type cursor struct {
	off, lines int64
}

// view is what the model is given of the text after a cursor.
type view struct {
	text      string
	truncated bool
	path      string // the spool file, when the model needs it
	// Every view ends at the text's end; end is that position.
	end cursor
}

// View returns the model's view of the text from the cursor on, within budget bytes: the text itself, or its
// head (from the spool) and tail (from the ring) with a marker that says exactly what was left out and where.
func (c *capture) View(from cursor, budget int) view {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endBinaryRun() // what came so far shows, even while binary data is still coming
	c.flushSpool()
	v := view{end: cursor{c.total, c.lines}, path: c.spoolPath}
	in := clipInput{n: c.total - from.off, lines: c.lines - from.lines, startLine: from.lines,
		budget: budget, ring: &c.ring, path: c.spoolPath}
	switch {
	case c.spoolErr != nil:
		in.spoolNote = "saving the full output failed: " + c.spoolErr.Error()
	case c.spoolFull:
		in.spoolNote = "the file holds only the first " + tools.HumanBytes(c.spoolCap)
		in.fileLines = max(c.spoolLines, 1)
	}
	if c.spoolPath != "" && from.off < c.spooled {
		in.head = func(buf []byte) []byte {
			f := c.spool
			if f == nil { // finished: the file is closed
				var err error
				if f, err = os.Open(c.spoolPath); err != nil {
					return nil
				}
				defer f.Close()
			}
			n, _ := f.ReadAt(buf[:min(int64(len(buf)), c.spooled-from.off)], from.off)
			return buf[:n]
		}
	}
	v.text, v.truncated = clip(in)
	return v
}

// liveBuffer queues text for the display, keeping at most liveMax bytes: when the display falls that far
// behind, the oldest queued text is dropped and replaced by a note saying how much.
type liveBuffer struct {
	buf     []byte
	dropped int
}

func (l *liveBuffer) len() int { return len(l.buf) }

func (l *liveBuffer) add(p []byte) {
	if len(p) >= liveMax {
		l.dropped += len(l.buf) + len(p) - liveMax
		l.buf = append(l.buf[:0], p[len(p)-liveMax:]...)
		return
	}
	if over := len(l.buf) + len(p) - liveMax; over > 0 {
		l.dropped += over
		l.buf = l.buf[:copy(l.buf, l.buf[over:])]
	}
	l.buf = append(l.buf, p...)
}

func (l *liveBuffer) take() string {
	if len(l.buf) == 0 {
		return ""
	}
	b := l.buf
	if l.dropped > 0 {
		// Start at a line and a rune, so the display does not get half a line after the note.
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			l.dropped += i + 1
			b = b[i+1:]
		}
		// The "\r" replaces the unfinished line the display has, whose end was among what was dropped.
		s := fmt.Sprintf("\r[… %s not shown …]\n%s", tools.HumanBytes(int64(l.dropped)), toValidUTF8(b))
		l.buf, l.dropped = l.buf[:0], 0
		return s
	}
	s := string(b)
	l.buf = l.buf[:0]
	return s
}

// spoolDir is where a session keeps full outputs.
func spoolDir(env *tools.Env) string {
	if env.SessionDir != "" {
		return filepath.Join(env.SessionDir, "bash")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("warden-%d", os.Getpid()))
}
