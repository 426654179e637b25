package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
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

// newDataLineReader reads the stream src; hush, when not nil, quiets its connection while reading pauses.
func newDataLineReader(src io.ReadCloser, hush func(bool)) *dataLineReader {
	return &dataLineReader{src: src, br: bufio.NewReaderSize(&pacedReader{src: src, sleep: time.Sleep, hush: hush}, 64<<10)}
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
		r.sawData = true
		// An error ends the stream here, as the caller's error. Passed on as a line, go-openai would
		// wait for one more line before reporting it (a server that keeps the connection open with
		// comments would hang the turn) and would lose an error given as a plain string.
		if errRaw, ok := streamErrorPayload(payload, r.errorEvent); ok {
			r.err = streamError(errRaw)
			return nil
		}
		r.errorEvent = false
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

// streamErrorPayload finds the error a data line carries: {"error": ...} in any spacing, or the whole
// payload after "event: error".
func streamErrorPayload(payload []byte, afterErrorEvent bool) (json.RawMessage, bool) {
	if !afterErrorEvent && !bytes.Contains(payload, []byte(`"error"`)) {
		return nil, false
	}
	var obj struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(payload, &obj) == nil && len(obj.Error) > 0 && string(obj.Error) != "null" {
		return obj.Error, true
	}
	if afterErrorEvent {
		return payload, true
	}
	return nil, false
}
