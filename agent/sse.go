package agent

import (
	"bufio"
	"bytes"
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
		if err != nil {
			r.err = err
			// A final line without its newline is still a line.
			if len(line) == 0 {
				continue
			}
		}
		r.pending = r.filter(line)
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
		out := make([]byte, 0, len(payload)+8)
		out = append(out, "data: "...)
		out = append(out, payload...)
		return append(out, '\n')
	}
	return nil
}

func (r *dataLineReader) Close() error { return r.src.Close() }
