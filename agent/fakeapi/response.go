package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Response is one scripted answer to one chat request. Make one with a constructor (Text, Reasoning,
// ToolCall, StreamError, HTTPError, RateLimited, Unauthorized, ContextLengthExceeded, Garbage, Raw) and refine
// it with the chaining methods; each method changes the Response and returns it. A Response must not be
// changed after it was handed to Server.Reply.
//
// A message response is rendered as an SSE stream when the request asked for "stream": true and as one
// chat.completion object otherwise. Options that only make sense on a stream (chunking, delays, keep-alives,
// cuts, inserted events, the tool-call delta quirks) are ignored for a non-streaming request; Stall and Header
// apply to every kind.
type Response struct {
	kind   kind
	status int
	header http.Header
	body   string   // kindBody: the literal body
	lines  []string // kindRaw: literal lines

	content        string
	reasoning      string
	reasoningField string
	calls          []call
	finish         string
	usage          *Usage
	streamErr      *string
	errEvent       bool

	chunk          int
	delay          time.Duration
	stall          time.Duration
	stallAfter     int
	stallFor       time.Duration
	keepAlives     int
	keepAliveEvery time.Duration
	cutAfter       int
	endAfter       int
	noDone         bool
	inserts        []insert

	omitIndex  bool
	sameIndex  bool
	emptyIDs   bool
	argsObject bool
	oneChunk   bool
	interleave bool
}

type kind int

const (
	kindMessage kind = iota
	kindBody         // a whole body written at once: HTTP errors and garbage
	kindRaw          // literal lines
)

type insert struct {
	after int
	text  string
}

// call is one tool call of a scripted response.
type call struct {
	ID   string
	Name string
	// Args is the arguments' JSON text. Empty means the arguments field is never sent, as some servers do for
	// tools without parameters.
	Args string
}

// Usage is the token accounting of a completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func newMessage() *Response {
	return &Response{kind: kindMessage, status: http.StatusOK, header: http.Header{}, stallAfter: -1, cutAfter: -1, endAfter: -1}
}

// Text answers with assistant text (finish_reason "stop").
func Text(s string) *Response { return newMessage().Text(s) }

// Reasoning answers with reasoning in "reasoning_content"; chain Text for the answer itself.
func Reasoning(s string) *Response { return newMessage().Reasoning(s) }

// ToolCall answers with one tool call (finish_reason "tool_calls"); chain ToolCall again for parallel calls.
// argsJSON "" omits the arguments field.
func ToolCall(id, name, argsJSON string) *Response { return newMessage().ToolCall(id, name, argsJSON) }

// StreamError answers 200 with a stream that carries only `data: {"error": {...}}` and then ends.
func StreamError(message string) *Response { return newMessage().StreamError(message) }

// HTTPError answers with the status and an OpenAI-style error body {"error": {"message", "type", "param",
// "code"}}, the type and code chosen to match the status the way OpenAI does.
func HTTPError(status int, message string) *Response {
	typ, code := "server_error", any(nil)
	switch status {
	case http.StatusBadRequest:
		typ = "invalid_request_error"
	case http.StatusUnauthorized:
		typ, code = "invalid_request_error", "invalid_api_key"
	case http.StatusNotFound:
		typ, code = "invalid_request_error", "model_not_found"
	case http.StatusTooManyRequests:
		typ, code = "requests", "rate_limit_exceeded"
	}
	return jsonBody(status, map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": code,
	}})
}

// RateLimited answers 429 with a Retry-After header of retryAfter in whole seconds, rounded up.
func RateLimited(retryAfter time.Duration) *Response {
	secs := int64((retryAfter + time.Second - 1) / time.Second)
	return HTTPError(http.StatusTooManyRequests, "Rate limit reached for requests. Please try again later.").
		Header("Retry-After", fmt.Sprint(secs))
}

// Unauthorized answers 401 the way OpenAI does for a wrong API key.
func Unauthorized() *Response {
	return HTTPError(http.StatusUnauthorized,
		"Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.")
}

// ContextFlavor selects how a server words "context length exceeded".
type ContextFlavor string

// The wordings of ContextLengthExceeded, each a 400 as the named server sends it.
const (
	ContextOpenAI    ContextFlavor = "openai"    // {"error": {..., "code": "context_length_exceeded"}}
	ContextVLLM      ContextFlavor = "vllm"      // top-level {"object": "error", "message": ..., "code": 400}
	ContextLlamaCpp  ContextFlavor = "llamacpp"  // {"error": {"type": "exceed_context_size_error", ...}}
	ContextLMStudio  ContextFlavor = "lmstudio"  // {"error": "<a plain string>"}
	ContextAnthropic ContextFlavor = "anthropic" // "prompt is too long: N tokens > M maximum" (proxies)
)

// ContextFlavors lists every ContextFlavor, for table tests.
func ContextFlavors() []ContextFlavor {
	return []ContextFlavor{ContextOpenAI, ContextVLLM, ContextLlamaCpp, ContextLMStudio, ContextAnthropic}
}

// ContextLengthExceeded answers 400 "the conversation is too long" in the wording of the given server.
func ContextLengthExceeded(f ContextFlavor) *Response {
	switch f {
	case ContextVLLM:
		return jsonBody(http.StatusBadRequest, map[string]any{
			"object":  "error",
			"message": "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
			"type":    "BadRequestError", "param": nil, "code": 400,
		})
	case ContextLlamaCpp:
		return jsonBody(http.StatusBadRequest, map[string]any{"error": map[string]any{
			"code": 400, "message": "the request exceeds the available context size, try increasing it",
			"type": "exceed_context_size_error", "n_prompt_tokens": 9000, "n_ctx": 8192,
		}})
	case ContextLMStudio:
		return jsonBody(http.StatusBadRequest, map[string]any{
			"error": "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
		})
	case ContextAnthropic:
		return jsonBody(http.StatusBadRequest, map[string]any{"error": map[string]any{
			"type": "invalid_request_error", "message": "prompt is too long: 210000 tokens > 200000 maximum",
		}})
	default:
		return jsonBody(http.StatusBadRequest, map[string]any{"error": map[string]any{
			"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
			"type":    "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
		}})
	}
}

// Garbage answers 200 with a body that claims to be JSON but is the given text.
func Garbage(body string) *Response {
	r := newMessage()
	r.kind, r.body = kindBody, body
	r.header.Set("Content-Type", "application/json")
	return r
}

// Raw answers with the status, the headers and the lines written literally, each followed by "\n" and
// flushed; Delay applies between lines. It is the escape hatch for a shape no other constructor makes.
func Raw(status int, header http.Header, lines ...string) *Response {
	r := newMessage()
	r.kind, r.status, r.lines = kindRaw, status, lines
	for k, vs := range header {
		r.header[k] = append([]string(nil), vs...)
	}
	return r
}

func jsonBody(status int, v any) *Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	r := newMessage()
	r.kind, r.status, r.body = kindBody, status, string(b)
	r.header.Set("Content-Type", "application/json")
	return r
}

// Text appends assistant text. In a stream it comes after the reasoning and before the tool calls.
func (r *Response) Text(s string) *Response { r.content += s; return r }

// Reasoning appends reasoning, sent in "reasoning_content" unless ReasoningField says otherwise.
func (r *Response) Reasoning(s string) *Response { r.reasoning += s; return r }

// ReasoningField names the delta field that carries reasoning, e.g. "reasoning".
func (r *Response) ReasoningField(name string) *Response { r.reasoningField = name; return r }

// ToolCall appends a tool call; several make parallel calls, streamed one after the other.
func (r *Response) ToolCall(id, name, argsJSON string) *Response {
	r.calls = append(r.calls, call{ID: id, Name: name, Args: argsJSON})
	return r
}

// StreamError ends the stream, after whatever text came before, with `data: {"error": {...}}` instead of a
// finish_reason and [DONE]. For a non-streaming request it answers 500 with that error.
func (r *Response) StreamError(message string) *Response { r.streamErr = &message; return r }

// ErrorEvent precedes the stream error with an `event: error` line, as some servers do.
func (r *Response) ErrorEvent() *Response { r.errEvent = true; return r }

// Finish sets finish_reason, e.g. "stop" although tool calls came, or "length".
func (r *Response) Finish(reason string) *Response { r.finish = reason; return r }

// Usage adds token usage: in a stream as a last chunk with "choices": [] before [DONE].
func (r *Response) Usage(prompt, completion int) *Response {
	r.usage = &Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	return r
}

// Chunk splits text, reasoning and tool-call arguments into deltas of n runes. Without it each arrives in one
// delta and each tool call arrives whole in one delta; with it a tool call's first delta carries its id and
// name with "arguments": "" and the argument pieces follow, as OpenAI streams them.
func (r *Response) Chunk(n int) *Response { r.chunk = n; return r }

// Delay waits d between consecutive writes of the stream (or of Raw's lines).
func (r *Response) Delay(d time.Duration) *Response { r.delay = d; return r }

// Stall waits d before sending anything, even the status line.
func (r *Response) Stall(d time.Duration) *Response { r.stall = d; return r }

// StallAfter waits d after the n-th data chunk has been sent (n = 0: right after the headers).
func (r *Response) StallAfter(n int, d time.Duration) *Response {
	r.stallAfter, r.stallFor = n, d
	return r
}

// KeepAlive sends n ": keep-alive" comment lines before the first chunk, each after waiting every.
func (r *Response) KeepAlive(n int, every time.Duration) *Response {
	r.keepAlives, r.keepAliveEvery = n, every
	return r
}

// CutAfter aborts the connection after the n-th data chunk: no finish_reason, no [DONE], no clean end of
// the HTTP body, so the client reads an unexpected EOF.
func (r *Response) CutAfter(n int) *Response { r.cutAfter = n; return r }

// EndAfter ends the HTTP body cleanly after the n-th data chunk, without finish_reason and without [DONE]:
// the client sees a plain EOF indistinguishable from a normal end at the transport level.
func (r *Response) EndAfter(n int) *Response { r.endAfter = n; return r }

// NoDone leaves out the final "data: [DONE]".
func (r *Response) NoDone() *Response { r.noDone = true; return r }

// InsertEvent writes text followed by a blank line after the n-th data chunk (n = 0: before the first). Use
// it for a garbage data line ("data: {not json"), a keep-alive between chunks, or any other SSE event.
func (r *Response) InsertEvent(after int, text string) *Response {
	r.inserts = append(r.inserts, insert{after, text})
	return r
}

// OmitIndex leaves "index" out of every tool-call delta.
func (r *Response) OmitIndex() *Response { r.omitIndex = true; return r }

// SameIndex sends every tool call at index 0; the calls differ only by id.
func (r *Response) SameIndex() *Response { r.sameIndex = true; return r }

// EmptyIDs repeats "id": "" and "name": "" on every continuation delta of a tool call (needs Chunk).
func (r *Response) EmptyIDs() *Response { r.emptyIDs = true; return r }

// ArgsAsObject sends each call's arguments as a JSON object instead of a string, whole in the first delta.
func (r *Response) ArgsAsObject() *Response { r.argsObject = true; return r }

// CallsInOneChunk sends all tool calls whole in one delta, as Ollama does.
func (r *Response) CallsInOneChunk() *Response { r.oneChunk = true; return r }

// Interleave streams parallel calls' argument pieces round-robin instead of one call after the other
// (needs Chunk).
func (r *Response) Interleave() *Response { r.interleave = true; return r }

// Header sets a response header.
func (r *Response) Header(key, value string) *Response { r.header.Set(key, value); return r }
