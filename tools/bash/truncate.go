package bash

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/warden-cli/warden/tools"
)

// This file is the one place that decides how long output is shortened for the model: the head and the tail
// are kept, cut at line boundaries when possible, and a marker between them says exactly how many lines and
// bytes were left out and where the whole text is.

// headShare is the part of the budget given to the head; the tail, where errors and summaries are, gets more.
const headShare = 0.4

// clipInput is text of n bytes (lines newlines) starting at line startLine of the full output, whose tail is
// in a ring and whose head can be read from the spool file.
type clipInput struct {
	n, lines, startLine int64
	budget              int
	ring                *ring
	head                func(buf []byte) []byte // reads up to len(buf) bytes from the text's start
	path                string                  // the spool file, if any
	spoolNote           string                  // why the file lacks part of the output, if it does
	// fileLines, when not 0, is how many lines the file holds: it reached its cap there.
	fileLines int64
}

// clip returns the text itself when it fits the budget, or its head and tail with a marker.
func clip(in clipInput) (string, bool) {
	if in.n <= 0 {
		return "", false
	}
	if in.n <= int64(in.budget) && in.n <= int64(in.ring.Len()) {
		return string(in.ring.Last(int(in.n))), false
	}
	hb := int(float64(in.budget) * headShare)
	tb := in.budget - hb
	var head []byte
	if in.head != nil {
		head = cutHead(in.head(make([]byte, hb)))
	}
	tail := cutTail(in.ring.Last(min(tb, in.ring.Len())))
	return joinHeadTail(head, tail, in.n, in.lines, in.startLine, in.path, in.spoolNote, in.fileLines), true
}

func joinHeadTail(head, tail []byte, n, lines, startLine int64, path, spoolNote string, fileLines int64) string {
	headLines := int64(bytes.Count(head, []byte{'\n'}))
	omittedBytes := n - int64(len(head)) - int64(len(tail))
	omittedLines := lines - headLines - int64(bytes.Count(tail, []byte{'\n'}))
	var b strings.Builder
	b.Grow(len(head) + len(tail) + 300)
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	if omittedLines == 0 {
		fmt.Fprintf(&b, "[… %s omitted from the middle of one long line", tools.HumanBytes(omittedBytes))
	} else {
		fmt.Fprintf(&b, "[… %s (%s) omitted", tools.Plural(omittedLines, "line", "lines"), tools.HumanBytes(omittedBytes))
	}
	first := startLine + headLines + 1
	last := first + omittedLines - 1
	switch {
	case path != "" && omittedLines > 0 && fileLines > 0 && last > fileLines:
		// The file stopped at its cap: say which of these lines it has, if any.
		if first <= fileLines {
			fmt.Fprintf(&b, ": lines %s–%s of them are in %s", tools.Commas(first), tools.Commas(fileLines), path)
		} else {
			fmt.Fprintf(&b, "; they are not in %s either", path)
		}
		fmt.Fprintf(&b, ", which holds only the output's first %s lines", tools.Commas(fileLines))
		spoolNote = ""
	case path != "" && omittedLines > 0:
		fmt.Fprintf(&b, ": lines %s–%s of the full output in %s", tools.Commas(first), tools.Commas(first+omittedLines-1), path)
	case path != "":
		fmt.Fprintf(&b, "; the full output is in %s", path)
	}
	if spoolNote != "" {
		fmt.Fprintf(&b, " (%s)", spoolNote)
	}
	b.WriteString(" …]\n")
	b.Write(tail)
	return b.String()
}

// cutHead ends b after its last newline if that keeps at least half of it, else at a rune boundary.
func cutHead(b []byte) []byte {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 && i >= len(b)/2 {
		return b[:i+1]
	}
	for j := len(b) - 1; j >= 0 && j >= len(b)-utf8.UTFMax; j-- {
		if utf8.RuneStart(b[j]) {
			if !utf8.FullRune(b[j:]) {
				return b[:j]
			}
			break
		}
	}
	return b
}

// cutTail starts b after its first newline if that keeps at least half of it, else at a rune boundary.
func cutTail(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)/2 {
		return b[i+1:]
	}
	for k := 0; k < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); k++ {
		b = b[1:]
	}
	return b
}

// ring keeps the last bytes written to it. Its buffer grows with what is written until it is full, so a
// command that prints a line does not pay for the room a long output would take.
type ring struct {
	buf   []byte
	limit int   // the size the buffer grows to
	w     int   // next write position
	total int64 // bytes ever written
	out   []byte
}

func newRing(size int) ring { return ring{limit: size} }

func (r *ring) size() int { return r.limit }

// Len is how many bytes the ring holds.
func (r *ring) Len() int { return int(min(r.total, int64(r.limit))) }

func (r *ring) Write(p []byte) {
	r.total += int64(len(p))
	if len(r.buf) < r.limit {
		if len(r.buf)+len(p) < r.limit {
			r.buf = append(r.buf, p...)
			r.w = len(r.buf)
			return
		}
		full := make([]byte, r.limit)
		r.w = copy(full, r.buf)
		r.buf = full
	}
	if len(p) >= len(r.buf) {
		copy(r.buf, p[len(p)-len(r.buf):])
		r.w = 0
		return
	}
	n := copy(r.buf[r.w:], p)
	if n < len(p) {
		copy(r.buf, p[n:])
	}
	r.w = (r.w + len(p)) % len(r.buf)
}

// Last returns the last n bytes written (n ≤ Len), in a slice valid until the next call.
func (r *ring) Last(n int) []byte {
	start := r.w - n
	if start >= 0 {
		return r.buf[start:r.w]
	}
	r.out = append(r.out[:0], r.buf[len(r.buf)+start:]...)
	r.out = append(r.out, r.buf[:r.w]...)
	return r.out
}

// toValidUTF8 is the text of b with any broken rune at its edges replaced.
func toValidUTF8(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
