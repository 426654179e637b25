package agent

import (
	"context"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// RunWith is Run with files the person mentioned (@path) attached. Each is read by a read_file call made
// on the model's behalf before it answers, so it goes through the same permission decision as one the
// model makes (a file that may hold secrets, or one outside the workspace, asks or is refused, and the
// model reads why), shows and is recorded like one, and counts as a read for edit_file.
func (a *Agent) RunWith(ctx context.Context, prompt string, attach []string) TurnDone {
	return a.run(ctx, prompt, attach)
}

// attach reads the mentioned files as one model turn of read_file calls.
func (a *Agent) attach(ctx context.Context, paths []string) {
	if len(paths) == 0 {
		return
	}
	calls := make([]openai.ToolCall, 0, len(paths))
	for _, p := range paths {
		a.synthetic++
		args, _ := json.Marshal(map[string]string{"path": p})
		calls = append(calls, openaiCall(fmt.Sprintf("mention_%d", a.synthetic), "read_file", string(args)))
	}
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, ToolCalls: calls})
	a.offered = a.tools // read_file is one of the agent's own tools, whatever else a turn offers
	a.runCalls(ctx, calls, false)
}

func openaiCall(id, name, args string) openai.ToolCall {
	return openai.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: args}}
}
