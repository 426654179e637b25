// Package piped is the text a person pipes into Warden beside a prompt (git diff | warden -p "review
// this"): read whole up to a bound, refused when it is not text, and given to the model after the prompt,
// in the same user message, as one labelled block that says how much of the input it holds.
//
// The block is a <stdin> element, as other agents label piped input, whose attributes count the lines and
// bytes sent and, when the input was cut, the lines and bytes there were; a sentence after it says what
// was left out, so that the model never answers about a whole it did not see. The person is told the same
// (Summary, Cut).
//
// It imports tools only to write sizes the way the rest of Warden does.
package piped

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warden-cli/warden/tools"
)

const (
	// MaxBytes is how much of the input the model is given: some 25,000 tokens, a quarter of a 128k
	// window, which holds nearly every diff or log a person reviews at once and leaves the conversation
	// room. A larger input is better written to a file the model reads in parts.
	MaxBytes = 100 << 10
	// countLimit is how far past MaxBytes the input is read, only to say how much was left out; an input
	// longer than this (yes | warden -p) is not read to its end.
	countLimit = 64 << 20
)

// Input is what came on standard input.
type Input struct {
	// Text is what the model is given: at most MaxBytes of the input's start, cut at a line's end where
	// there is one, as valid UTF-8.
	Text string
	// Lines and Bytes count what the input held: as far as it was read, which is all of it unless Unread.
	Lines, Bytes int64
	// Unread says the input went on past what was read (countLimit).
	Unread bool
	// cut says Text holds less than the input.
	cut bool
}

// ErrBinary is the refusal of an input that is not text.
var ErrBinary = errors.New("standard input holds binary data (a NUL byte), not text: Warden takes text on stdin; " +
	"save the data to a file and name the file in the prompt instead")

// ErrSilent is returned when a pipe gave nothing, not even its end, within the wait Read was given.
var ErrSilent = errors.New("nothing came on standard input")

// Read reads r to its end (or to countLimit) and keeps its start for the model. With wait above zero, a
// reader that gives neither a byte nor its end within wait is left unread and Read returns ErrSilent: a
// program started by another with an open stdin nobody writes to would otherwise wait forever. Once the
// first byte came, the rest is read however long it takes, as a slow command writes it.
func Read(r io.Reader, wait time.Duration) (*Input, error) {
	buf := make([]byte, 32<<10)
	n, err := first(r, buf, wait)
	if errors.Is(err, ErrSilent) {
		return nil, err
	}
	in := &Input{}
	var kept []byte
	take := func(p []byte) {
		in.Bytes += int64(len(p))
		in.Lines += int64(bytes.Count(p, []byte{'\n'}))
		if room := MaxBytes + 1 - len(kept); room > 0 {
			kept = append(kept, p[:min(room, len(p))]...)
		}
	}
	var last byte
	checked := 0 // kept is known to hold no NUL up to here
	for {
		if n > 0 {
			take(buf[:n])
			last = buf[n-1]
			// A NUL is looked for as the input comes, so that a large binary input is refused at once.
			if bytes.IndexByte(kept[checked:], 0) >= 0 {
				return nil, ErrBinary
			}
			checked = len(kept)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		if in.Bytes >= countLimit {
			in.Unread = true
			break
		}
		n, err = r.Read(buf)
	}
	if in.Bytes > 0 && last != '\n' {
		in.Lines++ // the last line has no line break
	}
	in.Text = keep(kept)
	in.cut = in.Unread || len(kept) > MaxBytes
	return in, nil
}

// first reads the first bytes of r, waiting at most wait for them when wait is above zero.
func first(r io.Reader, buf []byte, wait time.Duration) (int, error) {
	read := func() (int, error) {
		for {
			n, err := r.Read(buf)
			if n > 0 || err != nil {
				return n, err
			}
		}
	}
	if wait <= 0 {
		return read()
	}
	type result struct {
		n   int
		err error
	}
	got := make(chan result, 1)
	go func() {
		n, err := read()
		got <- result{n, err}
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case res := <-got:
		return res.n, res.err
	case <-t.C:
		// The reader goroutine stays blocked on r, which nothing else reads; whatever comes later is
		// dropped with the process.
		return 0, ErrSilent
	}
}

// keep is the text the model is given of kept, which holds one byte more than MaxBytes when the input
// was longer: the start up to the last line break in the second half of MaxBytes, or, when the lines are
// longer than that, up to MaxBytes without splitting a character; as valid UTF-8.
func keep(kept []byte) string {
	if len(kept) > MaxBytes {
		kept = kept[:MaxBytes]
		if i := bytes.LastIndexByte(kept, '\n'); i >= MaxBytes/2 {
			kept = kept[:i+1]
		} else {
			i := len(kept) - 1
			for i > 0 && len(kept)-i < utf8.UTFMax && !utf8.RuneStart(kept[i]) {
				i--
			}
			if !utf8.FullRune(kept[i:]) {
				kept = kept[:i]
			}
		}
	}
	return strings.ToValidUTF8(string(kept), "\uFFFD")
}

// Empty says the input held nothing but blanks: there is nothing to send.
func (in *Input) Empty() bool { return in == nil || strings.TrimSpace(in.Text) == "" }

// Cut says the model is given less than the whole input.
func (in *Input) Cut() bool { return in.cut }

// sentLines counts the lines of Text.
func (in *Input) sentLines() int64 {
	n := int64(strings.Count(in.Text, "\n"))
	if in.Text != "" && !strings.HasSuffix(in.Text, "\n") {
		n++
	}
	return n
}

// Block is the labelled block the model is given.
func (in *Input) Block() string {
	var b strings.Builder
	sent, sentBytes := in.sentLines(), int64(len(in.Text))
	if !in.Cut() {
		fmt.Fprintf(&b, "<stdin lines=\"%d\" bytes=\"%d\">\n", sent, sentBytes)
	} else {
		more := ""
		if in.Unread {
			more = "more than "
		}
		fmt.Fprintf(&b, "<stdin lines=\"%d of %s%d\" bytes=\"%d of %s%d\" cut=\"true\">\n", sent, more, in.Lines, sentBytes, more, in.Bytes)
	}
	b.WriteString(in.Text)
	if !strings.HasSuffix(in.Text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("</stdin>")
	if in.Cut() {
		fmt.Fprintf(&b, "\nThe input piped to Warden was cut: above are its first %s (%s) of %s; the rest was not sent.",
			plural(sent, "line", "lines"), tools.HumanBytes(sentBytes), in.whole())
		if !strings.HasSuffix(in.Text, "\n") {
			b.WriteString(" The last line above is cut short.")
		}
	}
	return b.String()
}

// whole says how long the input was: "30211 lines (1.0 MB)", or how much was read of an input that
// went on.
func (in *Input) whole() string {
	if in.Unread {
		return fmt.Sprintf("more than %d lines (more than %s; it was not read to its end)", in.Lines, tools.HumanBytes(in.Bytes))
	}
	return fmt.Sprintf("%s (%s)", plural(in.Lines, "line", "lines"), tools.HumanBytes(in.Bytes))
}

// Message is the user message of prompt sent with this input: the prompt, then the block. Without input
// it is the prompt alone, and without a prompt the block alone.
func (in *Input) Message(prompt string) string {
	if in.Empty() {
		return prompt
	}
	if prompt == "" {
		return in.Block()
	}
	return prompt + "\n\n" + in.Block()
}

// Summary says in one line what the model is given of the input, for the person: "stdin attached: 87 lines
// (2.3 KB)", or, cut, "stdin attached: the first 1024 lines (100.0 KB) of 30211 lines (1.0 MB); the rest was not
// sent".
func (in *Input) Summary() string {
	sent := in.sentLines()
	if !in.Cut() {
		return fmt.Sprintf("stdin attached: %s (%s)", plural(sent, "line", "lines"), tools.HumanBytes(in.Bytes))
	}
	return fmt.Sprintf("stdin attached: the first %s (%s) of %s; the rest was not sent", plural(sent, "line", "lines"),
		tools.HumanBytes(int64(len(in.Text))), in.whole())
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// blockStart is how the block begins in a message that carries one.
const blockStart = "<stdin lines=\""

// labelRe reads a block's label back: the counts of what was sent and, when cut, of the whole.
var labelRe = regexp.MustCompile(`^<stdin lines="(\d+)(?: of (more than )?(\d+))?" bytes="(\d+)(?: of (?:more than )?(\d+))?"(?: cut="true")?>\n`)

// Split finds the block Message put at the end of a user message (a session being resumed) and returns
// the prompt before it and the input it holds, as far as the block tells; in is nil when msg carries no
// block.
func Split(msg string) (prompt string, in *Input) {
	for end := len(msg); ; {
		i := strings.LastIndex(msg[:end], blockStart)
		if i < 0 {
			return msg, nil
		}
		if in := parseBlock(msg[i:]); in != nil && (i == 0 || strings.HasSuffix(msg[:i], "\n\n")) {
			return strings.TrimSuffix(msg[:i], "\n\n"), in
		}
		end = i
	}
}

// parseBlock reads s as a whole block, or returns nil.
func parseBlock(s string) *Input {
	m := labelRe.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	body := s[len(m[0]):]
	cut := m[3] != ""
	if cut {
		i := strings.LastIndex(body, "\n</stdin>\nThe input piped to Warden was cut: ")
		if i < 0 || strings.Contains(body[i+len("\n</stdin>\n"):], "\n") {
			return nil
		}
		body = body[:i+1]
	} else {
		if !strings.HasSuffix(body, "\n</stdin>") {
			return nil
		}
		body = strings.TrimSuffix(body, "</stdin>")
	}
	in := &Input{Text: body, cut: cut}
	num := func(s string) int64 {
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	in.Lines, in.Bytes = num(m[1]), num(m[4])
	if cut {
		in.Lines, in.Bytes, in.Unread = num(m[3]), num(m[5]), m[2] != ""
	}
	if sent, _ := strconv.Atoi(m[4]); sent < len(body) {
		// The block ended its text with a line break of its own.
		in.Text = body[:sent]
	}
	return in
}
