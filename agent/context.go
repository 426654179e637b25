package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Context management keeps the conversation inside the model's window. Before each request the prompt's
// size is estimated (from the server's last usage report plus what was added since, or from the text when
// the server reports none). Past compactAt of the window, old tool outputs are elided first, since they are
// the bulk of a coding session and the model has already acted on them; if that is not enough, the older
// turns are summarised by the model itself. A context-length error from the server forces the same steps.

// compactAt is the share of the window at which compaction starts.
const compactAt = 0.8

// keepRecentTurns is how many of the latest user turns are never summarised.
const keepRecentTurns = 1

// elidedMinChars is the size below which a tool output is not worth eliding.
const elidedMinChars = 400

// ContextCompacted tells the person that the conversation was shortened to fit the model's window.
type ContextCompacted struct {
	// Elided is the number of old tool outputs replaced by a short note.
	Elided int
	// Summarized is the number of older messages replaced by a summary.
	Summarized int
	// Before and After are the estimated prompt sizes in tokens.
	Before, After int
}

func (ContextCompacted) isEvent() {}

// estimateTokens guesses a prompt's size at four characters a token, plus a little per message.
func estimateTokens(msgs []openai.ChatCompletionMessage) int {
	n := 0
	for _, m := range msgs {
		parts, pictures := partsText(m)
		n += 4 + (len(m.Content)+len(parts)+len(m.ReasoningContent))/4 + pictures*imageTokens
		for _, tc := range m.ToolCalls {
			n += 4 + (len(tc.Function.Name)+len(tc.Function.Arguments))/4
		}
	}
	return n
}

// promptEstimate is the expected size of the next request.
func (a *Agent) promptEstimate() int {
	if a.lastPrompt > 0 && a.lastPromptMsgs <= len(a.messages) {
		return a.lastPrompt + estimateTokens(a.messages[a.lastPromptMsgs:])
	}
	return estimateTokens(a.messages)
}

// fitContext compacts the conversation when the next request would come near the window. force compacts
// even below the threshold (the server said the prompt is too long).
func (a *Agent) fitContext(ctx context.Context, force bool) error {
	window := a.opts.ContextWindow
	if window <= 0 {
		return nil
	}
	before := a.promptEstimate()
	limit := int(float64(window) * compactAt)
	if !force && before <= limit {
		return nil
	}
	if force {
		limit = min(limit, estimateTokens(a.messages)*2/3)
	}
	a.compactHooks(ctx, "auto", "")
	ev := ContextCompacted{Before: before}
	ev.Elided = a.elideToolOutputs()
	if estimateTokens(a.messages) > limit {
		n, err := a.summarize(ctx, limit)
		if err != nil {
			return err
		}
		ev.Summarized = n
	}
	// The server's last count no longer describes these messages.
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	ev.After = estimateTokens(a.messages)
	if ev.Elided == 0 && ev.Summarized == 0 {
		if force {
			// The server counted it: a bigger context_window setting cannot help.
			return errors.New("there is nothing left to shorten; send a shorter request, start a new session, " +
				"or use a model with a larger context window")
		}
		return errors.New("the conversation does not fit the model's context window and there is nothing left to shorten; " +
			"start a new session or raise context_window if the model allows more")
	}
	a.emit(ev)
	return nil
}

// recentStart is the index of the first message that must be kept as it is: the start of the latest
// keepRecentTurns user turns.
func (a *Agent) recentStart() int {
	seen := 0
	for i := len(a.messages) - 1; i >= 0; i-- {
		if a.messages[i].Role == openai.ChatMessageRoleUser {
			seen++
			if seen == keepRecentTurns {
				return i
			}
		}
	}
	return 0
}

// lastStepStart is the index of the latest assistant message: its tool results are what the model is
// working on now and are never elided.
func (a *Agent) lastStepStart() int {
	for i := len(a.messages) - 1; i >= 0; i-- {
		if a.messages[i].Role == openai.ChatMessageRoleAssistant {
			return i
		}
	}
	return 0
}

// elideToolOutputs replaces large tool outputs and the pictures of earlier steps with a note and returns
// how many.
func (a *Agent) elideToolOutputs() int {
	n := a.elideImages(a.lastStepStart())
	for i := range a.messages[:a.lastStepStart()] {
		m := &a.messages[i]
		if m.Role != openai.ChatMessageRoleTool || len(m.Content) < elidedMinChars || strings.HasPrefix(m.Content, elidedPrefix) {
			continue
		}
		first, _, _ := strings.Cut(m.Content, "\n")
		first = clip(first, 120)
		m.Content = fmt.Sprintf("%s %d characters, starting %q; run the tool again if you need it]", elidedPrefix, len(m.Content), first)
		n++
	}
	return n
}

const elidedPrefix = "[output elided to save context:"

// summarize asks the model to summarise everything before the latest turn and replaces those messages
// with the summary. The request is kept to half of limit tokens, since the summary request must fit the
// window too. It returns how many messages it replaced.
func (a *Agent) summarize(ctx context.Context, limit int) (int, error) {
	return a.summarizeBefore(ctx, a.recentStart(), limit, "")
}

// summarizeBefore replaces the messages before end with the model's summary of them; focus, when not
// empty, says what the summary must keep above all.
func (a *Agent) summarizeBefore(ctx context.Context, end, limit int, focus string) (int, error) {
	start := 0
	if len(a.messages) > 0 && a.messages[0].Role == openai.ChatMessageRoleSystem {
		start = 1
	}
	if end-start < 2 {
		return 0, nil
	}
	var transcript strings.Builder
	for _, m := range a.messages[start:end] {
		content, _ := partsText(m)
		fmt.Fprintf(&transcript, "[%s] %s\n", m.Role, clip(m.Content+content, 2000))
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&transcript, "[tool call %s] %s\n", tc.Function.Name, clip(tc.Function.Arguments, 2000))
		}
	}
	req := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "You summarise a coding session so that it can continue without its full text. " +
			"Keep: the person's goals and instructions, decisions made, files read or changed and what was learnt about them, " +
			"commands run and their outcomes, what was denied, and open questions. Be factual and compact; use a list." + focusLine(focus)},
		{Role: openai.ChatMessageRoleUser, Content: squeeze(transcript.String(), limit*2)},
	}
	comp, err := a.opts.Provider.Stream(ctx, req, nil, nil)
	if err != nil {
		return 0, fmt.Errorf("summarising the earlier conversation to fit the context window: %w", err)
	}
	summary := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser,
		Content: "[Summary of the earlier part of this session, written to fit the context window]\n" + comp.Text}
	replaced := end - start
	rest := append([]openai.ChatCompletionMessage{summary}, a.messages[end:]...)
	a.messages = append(a.messages[:start], rest...)
	return replaced, nil
}

// clip shortens s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// squeeze keeps a transcript within max bytes: its first quarter (where the person's goals are) and the
// rest from its end, cut at line boundaries, with a note of what was left out between them.
func squeeze(s string, max int) string {
	if len(s) <= max {
		return s
	}
	headEnd := max / 4
	if i := strings.LastIndexByte(s[:headEnd], '\n'); i > 0 {
		headEnd = i + 1
	}
	for headEnd > 0 && !utf8.RuneStart(s[headEnd]) {
		headEnd--
	}
	tailStart := len(s) - (max - headEnd)
	if i := strings.IndexByte(s[tailStart:], '\n'); i >= 0 {
		tailStart += i + 1
	}
	for tailStart < len(s) && !utf8.RuneStart(s[tailStart]) {
		tailStart++
	}
	return s[:headEnd] + fmt.Sprintf("[… %d characters of the session left out …]\n", tailStart-headEnd) + s[tailStart:]
}

func focusLine(focus string) string {
	if focus == "" {
		return ""
	}
	return " The user asked that the summary keep above all: " + focus
}
