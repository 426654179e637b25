package fakeapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Request is one chat completion request as the server received it: the decoded body plus the raw bytes and
// headers, so a test can assert both on meaning and on the exact wire form.
type Request struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	Tools               []Tool          `json:"tools,omitempty"`
	ToolChoice          json.RawMessage `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls,omitempty"`
	Stream              bool            `json:"stream"`
	StreamOptions       *StreamOptions  `json:"stream_options,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`

	// Raw is the body exactly as sent.
	Raw []byte `json:"-"`
	// Header holds the request headers (Authorization among them).
	Header http.Header `json:"-"`
	// Path is the URL path, e.g. "/v1/chat/completions".
	Path string `json:"-"`
	// Received is when the server read the body.
	Received time.Time `json:"-"`
	// DecodeErr is set when the body was not a valid chat request; the server then answered 400.
	DecodeErr error `json:"-"`
}

// StreamOptions is the request's "stream_options" object.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is one message of a request's conversation.
type Message struct {
	Role string `json:"role"`
	// Content is the message text. When the client sent content as an array of parts, Content joins the text
	// parts; RawContent keeps what was sent ("null" included), so a test can tell null from "".
	Content          string          `json:"-"`
	RawContent       json.RawMessage `json:"content,omitempty"`
	Name             string          `json:"name,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	Reasoning        string          `json:"reasoning,omitempty"`
	ToolCalls        []MessageCall   `json:"tool_calls,omitempty"`
	ToolCallID       string          `json:"tool_call_id,omitempty"`
	// Images are the content's image parts, in order (image.go).
	Images []Image `json:"-"`
}

// MessageCall is a tool call inside an assistant message the client sent back.
type MessageCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and carries its arguments as a JSON string, as the API requires.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is one tool the client offered the model.
type Tool struct {
	Type     string       `json:"type"`
	Function ToolFunction `json:"function"`
}

// ToolFunction describes a tool's function and its JSON schema.
type ToolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      bool            `json:"strict,omitempty"`
}

// UnmarshalJSON accepts content as a string, null or an array of content parts.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	if err := json.Unmarshal(data, (*plain)(m)); err != nil {
		return err
	}
	m.Content = ""
	raw := m.RawContent
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &m.Content)
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *Image `json:"image_url"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return fmt.Errorf("message content is neither a string nor an array of parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text":
			b.WriteString(p.Text)
		case "image_url":
			if p.ImageURL == nil {
				return errors.New(`an "image_url" part without its "image_url" object`)
			}
			m.Images = append(m.Images, *p.ImageURL)
		}
	}
	m.Content = b.String()
	return nil
}

// LastUser returns the text of the last message with role "user", or "" when there is none.
func (r Request) LastUser() string {
	if i := r.lastUserIndex(); i >= 0 {
		return r.Messages[i].Content
	}
	return ""
}

func (r Request) lastUserIndex() int {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return i
		}
	}
	return -1
}
