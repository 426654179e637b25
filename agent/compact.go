package agent

import (
	"context"
	"errors"
)

// manualCompactBudget bounds the summary request when no context window is set.
const manualCompactBudget = 32000

// Compact shortens the conversation now, because the person asked (/compact): old tool outputs are
// elided and the whole conversation so far is summarised by the model, keeping above all what
// focus names, if anything. It reports what it did as a ContextCompacted event too. It must not be called
// while Run works; ctx cancels the summary request.
func (a *Agent) Compact(ctx context.Context, focus string) (ContextCompacted, error) {
	a.running.Lock()
	defer a.running.Unlock()
	limit := manualCompactBudget
	if w := a.opts.ContextWindow; w > 0 {
		limit = int(float64(w) * compactAt)
	}
	a.compactHooks(ctx, "manual", focus)
	ev := ContextCompacted{Before: a.promptEstimate()}
	ev.Elided = a.elideToolOutputs()
	n, err := a.summarizeBefore(ctx, len(a.messages), limit, focus)
	if err != nil {
		return ev, err
	}
	ev.Summarized = n
	if ev.Elided == 0 && ev.Summarized == 0 {
		return ev, errors.New("the conversation is too short to compact")
	}
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	ev.After = estimateTokens(a.messages)
	a.emit(ev)
	return ev, nil
}
