package ui

import (
	"strings"
	"unicode/utf8"
)

// Limits of what one panel keeps of a command's output. The full output of a long command lives in the
// file the bash engine writes (Result.OutputPath); the UI keeps only a tail, so a command printing
// 100 MB costs the UI at most about maxKeptBytes.
const (
	maxKeptLines   = 4000
	maxKeptBytes   = 1 << 20
	maxLineBytes   = 2000
	compactionSlop = 1000
)

// outBuffer is the bounded tail of a panel's output, split into lines as chunks arrive.
type outBuffer struct {
	lines   []string
	partial strings.Builder
	dropped int // complete lines dropped from the front
	bytes   int
	version int // changes whenever the content does, for render caches
}

// Write appends a chunk of output. A "\r" in it starts the unfinished line again: the bash engine sends
// one when a line it showed was redrawn (a progress bar), followed by the line as it is now.
func (b *outBuffer) Write(chunk string) {
	if chunk == "" {
		return
	}
	b.version++
	for {
		i := strings.IndexByte(chunk, '\n')
		if i < 0 {
			b.addPartial(chunk)
			break
		}
		b.addPartial(chunk[:i])
		line := b.partial.String()
		b.partial.Reset()
		b.lines = append(b.lines, line)
		b.bytes += len(line)
		chunk = chunk[i+1:]
	}
	b.compact()
}

func (b *outBuffer) addPartial(s string) {
	if i := strings.LastIndexByte(s, '\r'); i >= 0 {
		b.partial.Reset()
		s = s[i+1:]
	}
	room := maxLineBytes - b.partial.Len()
	if room <= 0 {
		return
	}
	if len(s) > room {
		s = s[:room]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	b.partial.WriteString(s)
}

// compact drops old lines once the buffer is over its limits. It drops in batches and copies the kept
// lines to a fresh slice, so that the memory of dropped lines is released and appending stays O(1)
// amortised.
func (b *outBuffer) compact() {
	if len(b.lines) <= maxKeptLines+compactionSlop && b.bytes <= maxKeptBytes {
		return
	}
	drop := max(len(b.lines)-maxKeptLines, 0)
	bytes := b.bytes
	for _, l := range b.lines[:drop] {
		bytes -= len(l)
	}
	for bytes > maxKeptBytes*3/4 && drop < len(b.lines)-1 {
		bytes -= len(b.lines[drop])
		drop++
	}
	kept := make([]string, len(b.lines)-drop, maxKeptLines+compactionSlop)
	copy(kept, b.lines[drop:])
	b.lines, b.bytes, b.dropped = kept, bytes, b.dropped+drop
}

// Total is the number of lines seen, including dropped ones and an unfinished last line.
func (b *outBuffer) Total() int {
	n := b.dropped + len(b.lines)
	if b.partial.Len() > 0 {
		n++
	}
	return n
}

// Dropped is the number of lines no longer kept.
func (b *outBuffer) Dropped() int { return b.dropped }

// Tail returns the last n kept lines (fewer if there are fewer).
func (b *outBuffer) Tail(n int) []string {
	all := b.lines
	if b.partial.Len() > 0 {
		if n <= 0 {
			return nil
		}
		tail := all[max(len(all)-(n-1), 0):]
		out := make([]string, 0, len(tail)+1)
		out = append(out, tail...)
		return append(out, b.partial.String())
	}
	return all[max(len(all)-n, 0):]
}

// String is everything kept, with a note when the start was dropped.
func (b *outBuffer) String() string {
	var sb strings.Builder
	for _, l := range b.lines {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	sb.WriteString(b.partial.String())
	return sb.String()
}
