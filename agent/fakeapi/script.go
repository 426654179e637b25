package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// Script is the JSON script format of the package documentation: scripted turns, then rules.
type Script struct {
	// Models are the ids GET /v1/models lists.
	Models []string `json:"models,omitempty"`
	// Chunk and DelayMS are the defaults for every reply that sets neither.
	Chunk   int `json:"chunk,omitempty"`
	DelayMS int `json:"delay_ms,omitempty"`
	// Turns answer the first requests, one each, in order.
	Turns []Spec `json:"turns,omitempty"`
	// Rules answer the requests after the turns.
	Rules []Rule `json:"rules,omitempty"`
	// RejectImages, when set, is the message of the 400 every request that carries an image gets
	// (Server.RejectImages).
	RejectImages string `json:"reject_images,omitempty"`
}

// Rule answers the conversations whose last user message contains one of Match (case-insensitive; no Match
// matches every message). Steps[k] answers the k-th request after that user message, so a rule can call a
// tool and then comment on its result. Past the last step the reply quotes the last tool result.
type Rule struct {
	Match Match  `json:"match,omitempty"`
	Steps []Spec `json:"steps"`
}

// Match is a list of substrings; in JSON a single string or an array of strings.
type Match []string

// UnmarshalJSON accepts a string or an array of strings.
func (m *Match) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*m = Match{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return errors.New("match must be a string or an array of strings")
	}
	*m = many
	return nil
}

// Spec is one reply in JSON; Response builds it.
type Spec struct {
	Text           string            `json:"text,omitempty"`
	Reasoning      string            `json:"reasoning,omitempty"`
	ReasoningField string            `json:"reasoning_field,omitempty"`
	ToolCalls      []SpecCall        `json:"tool_calls,omitempty"`
	FinishReason   string            `json:"finish_reason,omitempty"`
	Usage          *Usage            `json:"usage,omitempty"`
	Chunk          int               `json:"chunk,omitempty"`
	DelayMS        int               `json:"delay_ms,omitempty"`
	StallMS        int               `json:"stall_ms,omitempty"`
	KeepAlive      int               `json:"keep_alive,omitempty"`
	KeepAliveMS    int               `json:"keep_alive_ms,omitempty"`
	CutAfter       *int              `json:"cut_after,omitempty"`
	Status         int               `json:"status,omitempty"`
	Error          string            `json:"error,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	Raw            []string          `json:"raw,omitempty"`
}

// SpecCall is one tool call in JSON. Arguments is an object (sent as its JSON text) or a string (sent as is).
type SpecCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// LoadScript reads and parses a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sc, nil
}

// ParseScript parses a script. Unknown fields are errors, so that a typo does not silently change a demo;
// a syntax error names its line and column.
func ParseScript(data []byte) (*Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Script
	if err := dec.Decode(&sc); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := position(data, syn.Offset)
			return nil, fmt.Errorf("line %d, column %d: %w", line, col, err)
		case errors.As(err, &typ):
			line, col := position(data, typ.Offset)
			return nil, fmt.Errorf("line %d, column %d: %w", line, col, err)
		}
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the script object")
	}
	for i, sp := range sc.Turns {
		if err := sp.check(); err != nil {
			return nil, fmt.Errorf("turns[%d]: %w", i, err)
		}
	}
	for i, rl := range sc.Rules {
		if len(rl.Steps) == 0 {
			return nil, fmt.Errorf("rules[%d]: a rule needs at least one step", i)
		}
		for j, sp := range rl.Steps {
			if err := sp.check(); err != nil {
				return nil, fmt.Errorf("rules[%d].steps[%d]: %w", i, j, err)
			}
		}
	}
	return &sc, nil
}

func position(data []byte, offset int64) (line, col int) {
	before := data[:min(int(offset), len(data))]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}

func (sp Spec) check() error {
	for i, c := range sp.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("tool_calls[%d] has no name", i)
		}
	}
	if sp.Error != "" && sp.Status != 0 && sp.Status < 400 {
		return fmt.Errorf("status %d with an error: an HTTP error needs a status of 400 or more", sp.Status)
	}
	if len(sp.Raw) > 0 && (sp.Text != "" || len(sp.ToolCalls) > 0 || sp.Error != "") {
		return errors.New("raw cannot be combined with text, tool_calls or error")
	}
	return nil
}

// Install loads the script into s: its models, its turns queued, its rules as the fallback.
func (sc *Script) Install(s *Server) {
	if len(sc.Models) > 0 {
		s.SetModels(sc.Models...)
	}
	for i, sp := range sc.Turns {
		s.Reply(sc.withDefaults(sp).Response(fmt.Sprintf("call_t%d", i+1)))
	}
	if len(sc.Rules) > 0 {
		s.Fallback(sc.Respond)
	}
	if sc.RejectImages != "" {
		s.RejectImages(http.StatusBadRequest, sc.RejectImages)
	}
}

func (sc *Script) withDefaults(sp Spec) Spec {
	if sp.Chunk == 0 {
		sp.Chunk = sc.Chunk
	}
	if sp.DelayMS == 0 {
		sp.DelayMS = sc.DelayMS
	}
	return sp
}

// Respond answers req by the script's rules (see Rule); it is what Install sets as the Server's fallback.
// "{{result}}" in a reply's text becomes a shortened copy of the last tool result, "{{prompt}}" the last user
// message.
func (sc *Script) Respond(req Request) *Response {
	u := req.lastUserIndex()
	if u < 0 {
		return HTTPError(http.StatusBadRequest, "fakeapi: the request has no user message for the rules to match")
	}
	prompt := req.Messages[u].Content
	rule := sc.match(prompt)
	if rule == nil {
		return HTTPError(http.StatusInternalServerError, fmt.Sprintf("fakeapi: no rule matches the prompt %q", shorten(prompt, 1, 80)))
	}
	step, result := 0, ""
	for _, m := range req.Messages[u+1:] {
		switch m.Role {
		case "assistant":
			step++
		case "tool":
			result = m.Content
		}
	}
	var sp Spec
	switch {
	case step < len(rule.Steps):
		sp = rule.Steps[step]
	case req.Messages[len(req.Messages)-1].Role == "tool":
		sp = Spec{Text: "The tool returned:\n\n```\n{{result}}\n```"}
	default:
		sp = Spec{Text: "(fakeapi: the script has nothing more for this prompt)"}
	}
	sp.Text = strings.NewReplacer("{{result}}", shorten(result, 8, 100), "{{prompt}}", prompt).Replace(sp.Text)
	return sc.withDefaults(sp).Response(fmt.Sprintf("call_%d", len(req.Messages)))
}

func (sc *Script) match(prompt string) *Rule {
	p := strings.ToLower(prompt)
	for i, rl := range sc.Rules {
		if len(rl.Match) == 0 {
			return &sc.Rules[i]
		}
		for _, m := range rl.Match {
			if strings.Contains(p, strings.ToLower(m)) {
				return &sc.Rules[i]
			}
		}
	}
	return nil
}

// Response builds the reply. Tool calls without an id get idPrefix + "_" + their position.
func (sp Spec) Response(idPrefix string) *Response {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var r *Response
	switch {
	case len(sp.Raw) > 0:
		status := sp.Status
		if status == 0 {
			status = http.StatusOK
		}
		r = Raw(status, nil, sp.Raw...)
	case sp.Status >= 400:
		msg := sp.Error
		if msg == "" {
			msg = http.StatusText(sp.Status)
		}
		r = HTTPError(sp.Status, msg)
	default:
		r = Reasoning(sp.Reasoning).Text(sp.Text).ReasoningField(sp.ReasoningField).Finish(sp.FinishReason)
		for i, c := range sp.ToolCalls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("%s_%d", idPrefix, i)
			}
			args := string(c.Arguments)
			var s string
			if json.Unmarshal(c.Arguments, &s) == nil {
				args = s
			} else if len(c.Arguments) > 0 {
				var buf bytes.Buffer
				if json.Compact(&buf, c.Arguments) == nil {
					args = buf.String()
				}
			}
			r.ToolCall(id, c.Name, args)
		}
		if sp.Usage != nil {
			r.Usage(sp.Usage.PromptTokens, sp.Usage.CompletionTokens)
		}
		if sp.Error != "" {
			r.StreamError(sp.Error)
		}
		if sp.CutAfter != nil {
			r.CutAfter(*sp.CutAfter)
		}
	}
	for k, v := range sp.Headers {
		r.Header(k, v)
	}
	return r.Chunk(sp.Chunk).Delay(ms(sp.DelayMS)).Stall(ms(sp.StallMS)).KeepAlive(sp.KeepAlive, ms(sp.KeepAliveMS))
}

// shorten keeps at most maxLines lines of s, each cut to maxWidth runes, and says how many lines it left out.
func shorten(s string, maxLines, maxWidth int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	var out []string
	for i, l := range lines {
		if i == maxLines {
			out = append(out, fmt.Sprintf("… (%d more lines)", len(lines)-maxLines))
			break
		}
		if rs := []rune(l); len(rs) > maxWidth {
			l = string(rs[:maxWidth]) + "…"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
