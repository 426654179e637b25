package agent

import (
	"encoding/json"
	"time"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// Event is something that happened in a session. The UI renders events; the headless runner prints them.
// Events are delivered in order through the Sink given to the agent and are never dropped.
type Event interface{ isEvent() }

// Sink receives events. It is called from the agent's goroutine and may block (the UI's program.Send does);
// the agent never calls it concurrently for events of one session.
type Sink func(Event)

// SessionStarted opens a session.
type SessionStarted struct {
	ID, Cwd, Model string
}

// TextDelta is a piece of assistant text as it streams.
type TextDelta struct{ Text string }

// ReasoningDelta is a piece of the model's reasoning as it streams.
type ReasoningDelta struct{ Text string }

// AssistantText is one whole assistant message (the deltas already sent add up to it).
type AssistantText struct {
	Text      string
	Reasoning string
}

// ToolCallStarted announces a tool call before its permission is decided.
type ToolCallStarted struct {
	ID    string
	Name  string
	Input json.RawMessage
	// Access is what the call would touch; its Summary is the panel's header.
	Access tools.Access
	// Agent labels calls made by a sub-agent ("" for the main agent).
	Agent string
}

// PermissionDecided records who allowed or denied a call.
type PermissionDecided struct {
	ID       string
	Decision permissions.Decision // Allow or Deny; Ask never reaches here
	By       string               // readonly, rule, mode, user, policy
	Reason   string
	Rule     string
}

// ToolOutput is live output of a running call, already cleaned for display.
type ToolOutput struct {
	ID    string
	Chunk string
}

// ToolFinished carries a call's result.
type ToolFinished struct {
	ID       string
	Name     string
	Result   tools.Result
	Duration time.Duration
	// Changes is what the call changed in the workspace, when it was checkpointed.
	Changes []checkpoint.Change
}

// Usage counts tokens of one or more requests.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// UsageUpdated reports the token use of the latest request and the running total.
type UsageUpdated struct {
	Last, Total Usage
	// Estimated is true when the server sent no usage and the numbers are Warden's estimate.
	Estimated bool
	// Context is the size of the conversation in tokens after this request, against Window.
	Context, Window int
}

// Notice is an error or warning the person should see. Retrying says whether Warden will try again.
type Notice struct {
	Message  string
	Retrying bool
}

// TurnDone ends one request: the final text, whether it ended in an error, and how many model turns it took.
type TurnDone struct {
	Text    string
	IsError bool
	Turns   int
	Usage   Usage
	// Interrupted is set when the person stopped the request.
	Interrupted bool
	// Plan is the plan a run with no one to approve it ended at (exit_plan_mode, headless); Text holds
	// it too.
	Plan string
}

func (SessionStarted) isEvent()    {}
func (TextDelta) isEvent()         {}
func (ReasoningDelta) isEvent()    {}
func (AssistantText) isEvent()     {}
func (ToolCallStarted) isEvent()   {}
func (PermissionDecided) isEvent() {}
func (ToolOutput) isEvent()        {}
func (ToolFinished) isEvent()      {}
func (UsageUpdated) isEvent()      {}
func (Notice) isEvent()            {}
func (TurnDone) isEvent()          {}
