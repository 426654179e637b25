package agent

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// dataLineReader passes on only the data lines of a server-sent event stream. go-openai counts every other
// line (": keep-alive" comments, "event:" and "id:" fields, blank separators) towards its empty-message
// limit and mixes them into error bodies, so they are removed here. A data line that follows "event: error"
// is wrapped as {"error": ...} when it is not already, so that the error reaches the caller.
type dataLineReader struct {
	src        io.ReadCloser
	br         *bufio.Reader
	pending    []byte
	errorEvent bool
	err        error
	// sawData and garbage tell a stream that ended early from a body that was never a stream.
	sawData bool
	garbage []byte
}

func newDataLineReader(src io.ReadCloser) *dataLineReader {
	return &dataLineReader{src: src, br: bufio.NewReaderSize(src, 64<<10)}
}

func (r *dataLineReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		line, err := r.br.ReadBytes('\n')
		// A final line without its newline is still a line.
		if len(line) > 0 {
			r.pending = r.filter(line)
		}
		if err != nil {
			r.err = err
			if err == io.EOF && !r.sawData && r.garbage != nil {
				r.err = &ProviderError{Kind: ErrBadResponse, Retryable: true,
					Message: fmt.Sprintf("the model server sent an answer Warden cannot read, not an event stream: %.120q", r.garbage)}
			}
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func (r *dataLineReader) filter(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	switch {
	case bytes.HasPrefix(trimmed, []byte("event:")):
		r.errorEvent = bytes.Equal(bytes.TrimSpace(trimmed[len("event:"):]), []byte("error"))
		return nil
	case bytes.HasPrefix(trimmed, []byte("data:")):
		payload := bytes.TrimSpace(trimmed[len("data:"):])
		if r.errorEvent && !bytes.HasPrefix(payload, []byte(`{"error"`)) {
			payload = append(append([]byte(`{"error":`), payload...), '}')
		}
		r.errorEvent = false
		r.sawData = true
		out := make([]byte, 0, len(payload)+8)
		out = append(out, "data: "...)
		out = append(out, payload...)
		return append(out, '\n')
	case len(trimmed) > 0 && trimmed[0] != ':' && !bytes.HasPrefix(trimmed, []byte("id:")) &&
		!bytes.HasPrefix(trimmed, []byte("retry:")) && r.garbage == nil:
		r.garbage = append([]byte(nil), trimmed...)
	}
	return nil
}

func (r *dataLineReader) Close() error { return r.src.Close() }
