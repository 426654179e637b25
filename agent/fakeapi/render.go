package fakeapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// created is fixed so that the wire output of a Response is the same on every run.
const created = 1700000000

// frame is one write of a stream. Data frames are the ones CutAfter, EndAfter, StallAfter and InsertEvent
// count.
type frame struct {
	text string
	data bool
}

type chunkJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   *Usage       `json:"usage,omitempty"`
}

type choiceJSON struct {
	Index        int            `json:"index"`
	Delta        map[string]any `json:"delta"`
	FinishReason *string        `json:"finish_reason"`
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func (r *Response) finishReason() string {
	switch {
	case r.finish != "":
		return r.finish
	case len(r.calls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

func (r *Response) reasoningKey() string {
	if r.reasoningField != "" {
		return r.reasoningField
	}
	return "reasoning_content"
}

// split cuts s into pieces of n runes; n <= 0 keeps it whole. An empty s gives no pieces.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 0 {
		return []string{s}
	}
	var out []string
	rs := []rune(s)
	for len(rs) > n {
		out = append(out, string(rs[:n]))
		rs = rs[n:]
	}
	return append(out, string(rs))
}

// args returns the value of a call's "arguments" field when sent whole, and whether to send it at all.
func (r *Response) args(c call) (any, bool) {
	if c.Args == "" {
		return nil, false
	}
	if r.argsObject && json.Valid([]byte(c.Args)) {
		return json.RawMessage(c.Args), true
	}
	return c.Args, true
}

func (r *Response) callIndex(i int) int {
	if r.sameIndex {
		return 0
	}
	return i
}

// wholeCall is a tool call complete in one delta.
func (r *Response) wholeCall(i int, c call) map[string]any {
	fn := map[string]any{"name": c.Name}
	if a, ok := r.args(c); ok {
		fn["arguments"] = a
	}
	tc := map[string]any{"id": c.ID, "type": "function", "function": fn}
	if !r.omitIndex {
		tc["index"] = r.callIndex(i)
	}
	return tc
}

// callDeltas returns the tool_calls array of each delta that streams the calls.
func (r *Response) callDeltas() [][]any {
	if len(r.calls) == 0 {
		return nil
	}
	if r.oneChunk {
		var all []any
		for i, c := range r.calls {
			all = append(all, r.wholeCall(i, c))
		}
		return [][]any{all}
	}
	if r.chunk <= 0 || r.argsObject {
		var out [][]any
		for i, c := range r.calls {
			out = append(out, []any{r.wholeCall(i, c)})
		}
		return out
	}
	heads := make([][]any, len(r.calls))
	pieces := make([][][]any, len(r.calls))
	for i, c := range r.calls {
		h := r.wholeCall(i, c)
		if c.Args != "" {
			h["function"].(map[string]any)["arguments"] = ""
		}
		heads[i] = []any{h}
		for _, p := range split(c.Args, r.chunk) {
			fn := map[string]any{"arguments": p}
			d := map[string]any{"function": fn}
			if !r.omitIndex {
				d["index"] = r.callIndex(i)
			}
			if r.emptyIDs {
				d["id"] = ""
				fn["name"] = ""
			}
			pieces[i] = append(pieces[i], []any{d})
		}
	}
	var out [][]any
	if !r.interleave {
		for i := range r.calls {
			out = append(out, heads[i])
			out = append(out, pieces[i]...)
		}
		return out
	}
	out = append(out, heads...)
	for k := 0; ; k++ {
		more := false
		for i := range r.calls {
			if k < len(pieces[i]) {
				out = append(out, pieces[i][k])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// frames renders a message response as the SSE events of a stream.
func (r *Response) frames(id, model string) []frame {
	var out []frame
	for range r.keepAlives {
		out = append(out, frame{text: ": keep-alive\n\n"})
	}
	var deltas []map[string]any
	for _, p := range split(r.reasoning, r.chunk) {
		deltas = append(deltas, map[string]any{r.reasoningKey(): p})
	}
	for _, p := range split(r.content, r.chunk) {
		deltas = append(deltas, map[string]any{"content": p})
	}
	for _, tcs := range r.callDeltas() {
		deltas = append(deltas, map[string]any{"tool_calls": tcs})
	}
	if len(deltas) == 0 {
		deltas = append(deltas, map[string]any{"content": ""})
	}
	deltas[0]["role"] = "assistant"
	if _, ok := deltas[0]["tool_calls"]; ok {
		deltas[0]["content"] = nil
	}
	chunk := func(c chunkJSON) frame {
		c.ID, c.Object, c.Created, c.Model = id, "chat.completion.chunk", created, model
		return frame{text: "data: " + mustJSON(c) + "\n\n", data: true}
	}
	for _, d := range deltas {
		out = append(out, chunk(chunkJSON{Choices: []choiceJSON{{Delta: d}}}))
	}
	if r.streamErr != nil {
		ev := "data: " + mustJSON(map[string]any{"error": map[string]any{
			"message": *r.streamErr, "type": "server_error", "param": nil, "code": nil,
		}}) + "\n\n"
		if r.errEvent {
			ev = "event: error\n" + ev
		}
		return append(out, frame{text: ev, data: true})
	}
	fin := r.finishReason()
	out = append(out, chunk(chunkJSON{Choices: []choiceJSON{{Delta: map[string]any{}, FinishReason: &fin}}}))
	if r.usage != nil {
		out = append(out, chunk(chunkJSON{Choices: []choiceJSON{}, Usage: r.usage}))
	}
	if !r.noDone {
		out = append(out, frame{text: "data: [DONE]\n\n", data: true})
	}
	return out
}

// completion renders a message response as one chat.completion object.
func (r *Response) completion(id, model string) string {
	msg := map[string]any{"role": "assistant", "content": r.content}
	if r.reasoning != "" {
		msg[r.reasoningKey()] = r.reasoning
	}
	if len(r.calls) > 0 {
		if r.content == "" {
			msg["content"] = nil
		}
		var tcs []any
		for i, c := range r.calls {
			tc := r.wholeCall(i, c)
			delete(tc, "index")
			tcs = append(tcs, tc)
		}
		msg["tool_calls"] = tcs
	}
	body := map[string]any{
		"id": id, "object": "chat.completion", "created": created, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": r.finishReason()}},
	}
	if r.usage != nil {
		body["usage"] = r.usage
	}
	return mustJSON(body)
}

// wait waits d. When the request's context ends first (the client went away or the server is closing) it
// drops the connection, so that a client still reading sees a cut stream and not a clean end.
func wait(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		panic(http.ErrAbortHandler)
	case <-t.C:
	}
}

// serve writes r as the answer to a request. Every wait ends when the request's context does, so that no test
// ever waits on a stalled fake.
func (r *Response) serve(w http.ResponseWriter, req *http.Request, stream bool, id, model string) {
	ctx := req.Context()
	wait(ctx, r.stall)
	for k, vs := range r.header {
		w.Header()[k] = vs
	}
	rc := http.NewResponseController(w)
	switch r.kind {
	case kindBody:
		w.WriteHeader(r.status)
		io.WriteString(w, r.body)
		return
	case kindRaw:
		w.WriteHeader(r.status)
		for i, l := range r.lines {
			if i > 0 {
				wait(ctx, r.delay)
			}
			io.WriteString(w, l+"\n")
			rc.Flush()
		}
		return
	}
	if !stream {
		if r.streamErr != nil {
			HTTPError(http.StatusInternalServerError, *r.streamErr).serve(w, req, false, id, model)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(r.status)
		io.WriteString(w, r.completion(id, model))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(r.status)
	rc.Flush()

	// after runs the actions tied to "the n-th data chunk has been sent" and reports whether to go on.
	after := func(n int) bool {
		for _, in := range r.inserts {
			if in.after == n {
				io.WriteString(w, strings.TrimRight(in.text, "\n")+"\n\n")
			}
		}
		rc.Flush()
		if r.stallAfter == n {
			wait(ctx, r.stallFor)
		}
		if r.cutAfter == n {
			// The server drops the connection without the chunked body's terminator.
			panic(http.ErrAbortHandler)
		}
		return r.endAfter != n
	}
	sent := 0
	for _, f := range r.frames(id, model) {
		switch {
		case !f.data: // a keep-alive: the server pings while it "thinks"
			wait(ctx, r.keepAliveEvery)
		case sent == 0:
			if !after(0) {
				return
			}
		default:
			wait(ctx, r.delay)
		}
		io.WriteString(w, f.text)
		rc.Flush()
		if f.data {
			sent++
			if !after(sent) {
				return
			}
		}
	}
}
