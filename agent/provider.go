package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Provider streams chat completions from an OpenAI-compatible server through go-openai.
//
// Servers differ in many small ways (DESIGN.md §9), so Provider reads raw chunks and
// decodes them itself: a turn counts as complete only when a finish_reason arrived; tool-call deltas are
// assembled by id when they have one and by index or position when they do not; an empty value never
// overwrites a filled one; arguments may come as a string in pieces, as a JSON object, or not at all.
type Provider struct {
	client *openai.Client
	// model is read by every request and changed by SetModel (the person's /model) between requests.
	model atomic.Pointer[string]
}

// NewProvider returns a provider for the server at baseURL (ending in /v1) using model.
func NewProvider(baseURL, apiKey, model string) *Provider {
	cfg := openai.DefaultConfig(apiKey)
	if baseURL != "" {
		cfg.BaseURL = baseURL
	}
	cfg.HTTPClient = &sseDoer{client: &http.Client{Transport: quietTransport()}}
	// Comment lines (": keep-alive") are filtered before go-openai sees them, but some servers also send
	// empty data lines; never give up on a live stream because of them.
	cfg.EmptyMessagesLimit = 1 << 30
	p := &Provider{client: openai.NewClientWithConfig(cfg)}
	p.model.Store(&model)
	return p
}

// Model returns the model name requests use.
func (p *Provider) Model() string { return *p.model.Load() }

// SetModel makes later requests use model.
func (p *Provider) SetModel(model string) { p.model.Store(&model) }

// Completion is one assembled model turn.
type Completion struct {
	Text         string
	Reasoning    string
	ToolCalls    []openai.ToolCall
	FinishReason string
	Usage        *Usage
}

// DeltaFunc receives text and reasoning as they stream.
type DeltaFunc func(text, reasoning string)

// Stream sends one chat request and assembles the streamed answer. When ctx is cancelled mid-stream, it
// returns the text received so far together with ctx's error.
func (p *Provider) Stream(ctx context.Context, msgs []openai.ChatCompletionMessage, tls []openai.Tool, onDelta DeltaFunc) (*Completion, error) {
	info := &responseInfo{}
	ctx = context.WithValue(ctx, responseInfoKey{}, info)
	req := openai.ChatCompletionRequest{
		Model:         p.Model(),
		Messages:      msgs,
		Tools:         tls,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	stream, err := p.client.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return nil, classify(ctx, err, info)
	}
	defer stream.Close()

	var asm assembler
	for {
		raw, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				// Interrupted: what was already shown to the person is returned with the error.
				return &Completion{Text: asm.text.String(), Reasoning: asm.reasoning.String()}, ctx.Err()
			}
			return nil, classify(ctx, err, info)
		}
		if err := asm.add(raw, onDelta); err != nil {
			return nil, err
		}
	}
	return asm.finish()
}

// assembler builds a Completion from raw stream chunks.
type assembler struct {
	text, reasoning strings.Builder
	calls           []*partialCall
	byIndex         map[int]*partialCall
	finishReason    string
	usage           *Usage
}

type partialCall struct {
	id, name string
	// index is the index the server gave the call, if any.
	index *int
	args  strings.Builder
	// argsObject is set when a server sent the arguments as a JSON object rather than a string.
	argsObject bool
}

type rawChunk struct {
	Choices []struct {
		Delta struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (a *assembler) add(raw []byte, onDelta DeltaFunc) error {
	var c rawChunk
	if err := json.Unmarshal(raw, &c); err != nil {
		return &ProviderError{Kind: ErrBadResponse, Message: fmt.Sprintf("the server sent a chunk that is not JSON: %.120q", raw)}
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return streamError(c.Error)
	}
	if c.Usage != nil {
		a.usage = &Usage{PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens}
	}
	for _, ch := range c.Choices {
		d := ch.Delta
		var text, reasoning string
		if d.Content != nil {
			text = *d.Content
		}
		if d.ReasoningContent != nil {
			reasoning = *d.ReasoningContent
		} else if d.Reasoning != nil {
			reasoning = *d.Reasoning
		}
		a.text.WriteString(text)
		a.reasoning.WriteString(reasoning)
		if (text != "" || reasoning != "") && onDelta != nil {
			onDelta(text, reasoning)
		}
		for _, tc := range d.ToolCalls {
			call := a.callFor(tc.Index, tc.ID)
			if tc.Function.Name != "" && call.name == "" {
				call.name = tc.Function.Name
			}
			appendArgs(call, tc.Function.Arguments)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finishReason = *ch.FinishReason
		}
	}
	return nil
}

// callFor finds the call a tool-call delta continues, or starts a new one.
func (a *assembler) callFor(index *int, id string) *partialCall {
	if a.byIndex == nil {
		a.byIndex = map[int]*partialCall{}
	}
	if id != "" {
		for _, c := range a.calls {
			// The id repeated on a continuation delta. At an index other than its call's, it is another
			// call that reuses the id (finish gives it one of its own).
			if c.id == id && (index == nil || c.index == nil || *c.index == *index) {
				return c
			}
		}
	}
	var cur *partialCall
	if index != nil {
		cur = a.byIndex[*index]
	} else if len(a.calls) > 0 {
		cur = a.calls[len(a.calls)-1]
	}
	switch {
	case cur == nil:
	case id == "":
		return cur
	case cur.id == "":
		cur.id = id
		return cur
	}
	// A new id at an index already taken by another id is a second call, not a continuation.
	c := &partialCall{id: id, index: index}
	a.calls = append(a.calls, c)
	if index != nil {
		a.byIndex[*index] = c
	}
	return c
}

func appendArgs(c *partialCall, raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if c.argsObject {
			return
		}
		c.args.WriteString(s)
		return
	}
	// An object (or any other JSON value) is the whole argument list, sent at once.
	c.args.Reset()
	c.args.Write(raw)
	c.argsObject = true
}

func (a *assembler) finish() (*Completion, error) {
	if a.finishReason == "" {
		return nil, &ProviderError{Kind: ErrCutStream, Retryable: true,
			Message: "the server's stream ended before the model finished its answer (connection cut)"}
	}
	out := &Completion{Text: a.text.String(), Reasoning: a.reasoning.String(), FinishReason: a.finishReason, Usage: a.usage}
	// Every call of a turn needs an id of its own, or its result cannot be told from another's: the
	// server's ids are kept where they are unique, and the others are made so.
	ids := make([]string, len(a.calls))
	taken := map[string]bool{}
	for i, c := range a.calls {
		if c.id != "" && !taken[c.id] {
			ids[i], taken[c.id] = c.id, true
		}
	}
	for i, c := range a.calls {
		if ids[i] != "" {
			continue
		}
		base := c.id
		if base == "" {
			base = fmt.Sprintf("call_%d", i+1)
		}
		id := base
		for n := 2; taken[id]; n++ {
			id = fmt.Sprintf("%s_%d", base, n)
		}
		ids[i], taken[id] = id, true
	}
	for i, c := range a.calls {
		id := ids[i]
		args := strings.TrimSpace(c.args.String())
		if args == "" {
			args = "{}"
		}
		out.ToolCalls = append(out.ToolCalls, openai.ToolCall{
			ID: id, Type: openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: c.name, Arguments: args},
		})
	}
	return out, nil
}

// ErrKind names a class of provider failure.
type ErrKind string

// The classes of provider failure.
const (
	ErrAuth          ErrKind = "auth"
	ErrRateLimit     ErrKind = "rate_limit"
	ErrServer        ErrKind = "server"
	ErrNetwork       ErrKind = "network"
	ErrCutStream     ErrKind = "cut_stream"
	ErrContextLength ErrKind = "context_length"
	ErrBadRequest    ErrKind = "bad_request"
	ErrBadResponse   ErrKind = "bad_response"
	ErrNotFound      ErrKind = "not_found"
)

// ProviderError is a failure talking to the model, worded for the person.
type ProviderError struct {
	Kind       ErrKind
	Status     int
	Message    string
	Retryable  bool
	RetryAfter time.Duration
}

func (e *ProviderError) Error() string { return e.Message }

// classify turns what go-openai returned into a ProviderError with advice.
func classify(ctx context.Context, err error, info *responseInfo) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe
	}
	status, msg := info.status, err.Error()
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		if apiErr.Message != "" {
			msg = apiErr.Message
		}
		if status == 0 {
			status = apiErr.HTTPStatusCode
		}
	case errors.As(err, &reqErr) && status == 0:
		status = reqErr.HTTPStatusCode
		if info.body == nil {
			info.body = reqErr.Body
		}
	}
	if status >= 200 && status < 300 {
		// The request was accepted; what failed is the stream itself.
		return streamFailure(err, msg)
	}
	if status >= 300 {
		msg = errorBodyMessage(info.body, msg)
	}
	e := &ProviderError{Status: status, RetryAfter: info.retryAfter}
	switch {
	case status == 0 && unfixable(err) != "":
		e.Kind, e.Message = ErrBadRequest, unfixable(err)
	case status == 0 && isNetwork(err):
		e.Kind, e.Retryable = ErrNetwork, true
		e.Message = fmt.Sprintf("cannot reach the model server (%v); check that it is running and that --base-url/OPENAI_BASE_URL points at it", rootCause(err))
	case status == 0:
		e.Kind, e.Retryable = ErrBadResponse, true
		e.Message = fmt.Sprintf("the model server sent an answer Warden cannot read (%v)", rootCause(err))
	case status == 401 || status == 403:
		e.Kind = ErrAuth
		e.Message = fmt.Sprintf("the model server refused the API key (HTTP %d: %s); set a valid key in OPENAI_API_KEY", status, msg)
	case status == 404:
		e.Kind = ErrNotFound
		e.Message = fmt.Sprintf("the model server answered 404 (%s); check --model and --base-url (it usually ends in /v1)", msg)
	case status == 429:
		e.Kind, e.Retryable = ErrRateLimit, true
		e.Message = fmt.Sprintf("rate limited by the model server (HTTP 429: %s)", msg)
	case status >= 500:
		e.Kind, e.Retryable = ErrServer, true
		e.Message = fmt.Sprintf("the model server failed (HTTP %d: %s)", status, msg)
	case IsContextLengthMessage(msg):
		e.Kind = ErrContextLength
		e.Message = fmt.Sprintf("the conversation is longer than the model's context window (%s)", msg)
	default:
		e.Kind = ErrBadRequest
		e.Message = fmt.Sprintf("the model server rejected the request (HTTP %d: %s)", status, msg)
	}
	return e
}

// streamFailure classifies an error that ended a stream the server had accepted.
func streamFailure(err error, msg string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || isNetwork(err) {
		return &ProviderError{Kind: ErrCutStream, Retryable: true,
			Message: fmt.Sprintf("the server's stream broke before the model finished its answer (connection cut: %v)", rootCause(err))}
	}
	msg = strings.TrimPrefix(msg, "error, ")
	e := &ProviderError{Kind: ErrServer, Retryable: true, Message: "the model server reported an error mid-stream: " + oneLine(msg)}
	if IsContextLengthMessage(msg) {
		e.Kind, e.Retryable = ErrContextLength, false
		e.Message = fmt.Sprintf("the conversation is longer than the model's context window (%s)", oneLine(msg))
	}
	return e
}

// errorBodyMessage finds the human message in an error body, whatever its shape: {"error": {"message"}},
// {"error": "text"}, {"message": "text"}, {"detail": "text"}, or plain text.
func errorBodyMessage(body []byte, fallback string) string {
	var obj struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &obj) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var text string
		switch {
		case json.Unmarshal(obj.Error, &inner) == nil && inner.Message != "":
			return oneLine(inner.Message)
		case json.Unmarshal(obj.Error, &text) == nil && text != "":
			return oneLine(text)
		case obj.Message != "":
			return oneLine(obj.Message)
		case obj.Detail != nil:
			return oneLine(fmt.Sprint(obj.Detail))
		}
	}
	if t := strings.TrimSpace(string(body)); t != "" {
		return oneLine(t)
	}
	return oneLine(fallback)
}

// oneLine flattens a message to a single line of bounded length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// streamError decodes an error object sent inside a 200 stream.
func streamError(raw json.RawMessage) error {
	var obj struct {
		Message string `json:"message"`
		Code    any    `json:"code"`
		Type    string `json:"type"`
	}
	msg := string(raw)
	if err := json.Unmarshal(raw, &obj); err == nil && obj.Message != "" {
		msg = obj.Message
	} else {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			msg = s
		}
	}
	e := &ProviderError{Kind: ErrServer, Retryable: true, Message: "the model server reported an error mid-stream: " + msg}
	if IsContextLengthMessage(msg) {
		e.Kind, e.Retryable = ErrContextLength, false
	}
	return e
}

// IsContextLengthMessage recognises the many ways servers say the prompt is too long.
func IsContextLengthMessage(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"context length", "context_length", "context window", "maximum context",
		"too many tokens", "context size", "prompt is too long", "exceeds the model's", "reduce the length", "input is too long",
		"token limit"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func isNetwork(err error) bool {
	m := err.Error()
	for _, s := range []string{"connection refused", "no such host", "connection reset", "i/o timeout",
		"EOF", "network is unreachable", "dial tcp", "broken pipe", "server closed", "http2:"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

type responseInfoKey struct{}

// responseInfo carries what go-openai's errors drop: the status and the Retry-After header.
type responseInfo struct {
	status     int
	retryAfter time.Duration
	// body is the start of an error response's body.
	body []byte
}

// sseDoer wraps the HTTP client so that go-openai sees only the SSE data lines of a stream, and so that
// the status and Retry-After of a failed response are kept for the retry logic.
type sseDoer struct{ client *http.Client }

func (d *sseDoer) Do(req *http.Request) (*http.Response, error) {
	stream := strings.Contains(req.Header.Get("Accept"), "text/event-stream")
	var hush func(bool)
	if stream {
		req = withConnHush(req, &hush)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, err
	}
	if info, ok := req.Context().Value(responseInfoKey{}).(*responseInfo); ok {
		info.status = resp.StatusCode
		info.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if resp.StatusCode >= 300 {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			info.body = body
			resp.Body = io.NopCloser(bytes.NewReader(body))
		}
	}
	// Filter every successful streaming answer, whatever its Content-Type claims: some servers label
	// their event streams wrongly, and a body that is not a stream at all is reported by the filter.
	if resp.StatusCode < 300 && stream {
		resp.Body = newDataLineReader(resp.Body, hush)
	}
	return resp, nil
}

func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
