// Package agent runs the conversation: it streams the model's answers through go-openai, dispatches tool
// calls, asks the permission engine and, when it says so, the person (through an Approver), and reports
// everything that happens as Events.
//
// It knows nothing of Bubble Tea and must never import ui (nor the application that composes both). The
// UI and the headless runner are two implementations of the same seams: a Sink for events and an Approver
// for questions. Below it are the packages it drives: tools (and the bash engine, tools/bash, whose
// background commands' ends it tells the model of), permissions, checkpoint and hooks (the person's hook
// programs, whose answers it applies), and the leaves safefile and printable.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/hooks"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/tools"
)

// Streamer is the model behind the agent. *Provider is the real one.
type Streamer interface {
	Stream(ctx context.Context, msgs []openai.ChatCompletionMessage, tls []openai.Tool, onDelta DeltaFunc) (*Completion, error)
	Model() string
}

// Options configure an Agent. Provider, Tools, Env, Engine, Approver and Sink are required.
type Options struct {
	Provider Streamer
	Tools    *tools.Registry
	Env      *tools.Env
	Engine   *permissions.Engine
	Approver Approver
	Sink     Sink
	// System is the system prompt. When it is empty and Prompt is set, the prompt is built from Prompt
	// with the agent's own tools (SystemPrompt).
	System string
	Prompt *PromptInfo
	// MaxSteps caps model turns per request.
	MaxSteps int
	// Home is the person's home directory, for path rules.
	Home string
	// Store records the session; nil records nothing.
	Store *Store
	// History is the conversation of a resumed session, without a system prompt.
	History []openai.ChatCompletionMessage
	// ContextWindow is the model's window in tokens; 0 turns context management off.
	ContextWindow int
	// Retry is the policy for failed requests; zero means DefaultRetry.
	Retry RetryPolicy
	// SubAgents offers the task tool, which starts child agents; Depth is this agent's nesting depth
	// (0 for the main agent).
	SubAgents bool
	Depth     int
	// SaveProjectRule persists an "always allow (project)" rule; nil means project grants are kept for
	// the session only.
	SaveProjectRule func(rule string) error
	// Checkpoints snapshots the workspace around every call that may change files; nil takes none.
	Checkpoints *checkpoint.Checkpoints
	// Notes are told to the model at its next turn, as Note tells them (a resumed session's PendingNotes).
	Notes []string
	// More offers tools that come and go while the session runs (MCP servers starting, dying, coming
	// back, tools loaded by a search), asked again before every model turn; nil offers none. A sub-agent
	// gets those its parent names, when More can give them (task.go).
	More ToolSource
	// Hooks runs the person's hooks at the session's events (hooks.go); nil runs none. SessionStart is
	// why the session starts, as SessionStart hooks are told (startup, resume, clear); "" runs none.
	Hooks        *hooks.Runner
	SessionStart string
	// session is a sub-agent's parent's session, which its hooks are told of.
	session hookSession
}

// ToolSource offers tools beyond the fixed ones.
type ToolSource interface {
	// Tools returns the tools to offer now. It may wait, until ctx ends, for tools still starting.
	Tools(ctx context.Context) []tools.Tool
}

// Agent holds one conversation. Run may be called again after it returns to continue the conversation;
// it must not be called concurrently.
type Agent struct {
	opts     Options
	messages []openai.ChatCompletionMessage
	usage    Usage
	running  sync.Mutex
	emitMu   sync.Mutex
	// tools are the tools offered to the model: Options.Tools and, with SubAgents, the task tool.
	tools *tools.Registry
	// offered are the tools of the current model turn: tools and what Options.More offers.
	offered *tools.Registry
	// lastPrompt is the server's count of the last request's prompt, which held lastPromptMsgs messages.
	lastPrompt, lastPromptMsgs int
	// notes wait for the model's next turn (notes.go).
	notesMu sync.Mutex
	notes   []string
	// synthetic numbers the calls made on the person's behalf (shell mode, mentions), for their ids.
	synthetic int
	// started is closed once the SessionStart hooks have run; nil when there are none (hooks.go).
	started chan struct{}
	// halt holds why a hook said to stop the request.
	halt halted
	// noImagesModel is the model that refused pictures in this session, if one did (images.go).
	noImagesModel string
	// planCall is exit_plan_mode, for the main agent (plan.go); plan is what it knows of plan mode.
	planCall tools.Tool
	plan     planState
	// steers are messages the person typed for the turn under way (steer.go).
	steerMu sync.Mutex
	steers  []string
}

// New returns an agent with the system prompt as its first message.
func New(opts Options) (*Agent, error) {
	switch {
	case opts.Provider == nil, opts.Tools == nil, opts.Env == nil, opts.Engine == nil, opts.Approver == nil, opts.Sink == nil:
		return nil, errors.New("agent: Provider, Tools, Env, Engine, Approver and Sink are required")
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 50
	}
	a := &Agent{opts: opts, tools: opts.Tools}
	if opts.SubAgents {
		a.tools = tools.NewRegistry(append(opts.Tools.Tools(), a.taskTool())...)
	}
	planMode := opts.Engine.Mode() == permissions.ModePlan
	if opts.Depth == 0 {
		a.planCall = a.planTool()
		// A resumed conversation that was last told plan mode is on hears that it is over, unless it is not.
		a.plan.told = planToldIn(opts.History)
	}
	if opts.System == "" && opts.Prompt != nil {
		info := *opts.Prompt
		info.Tools = a.tools
		info.PlanMode = planMode && a.planCall != nil
		opts.System = SystemPrompt(info)
		a.opts.System = opts.System
		if info.PlanMode {
			a.plan.told = true
		}
	}
	if opts.System != "" {
		// The system prompt is rebuilt at every start, so it is not recorded.
		a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: opts.System})
	}
	for _, n := range opts.Notes {
		a.Note(n)
	}
	a.messages = append(a.messages, opts.History...)
	a.startSession()
	return a, nil
}

// Messages returns a copy of the conversation so far.
func (a *Agent) Messages() []openai.ChatCompletionMessage {
	return append([]openai.ChatCompletionMessage(nil), a.messages...)
}

// Tools returns the tools offered to the model.
func (a *Agent) Tools() *tools.Registry { return a.tools }

// Engine returns the permission engine (the UI changes its mode).
func (a *Agent) Engine() *permissions.Engine { return a.opts.Engine }

// Run sends one request from the person and works on it until the model answers without tools, the step
// cap is reached, an error ends it, or ctx is cancelled. It always ends with a TurnDone event, which it also
// returns.
func (a *Agent) Run(ctx context.Context, prompt string) TurnDone {
	return a.run(ctx, prompt, nil)
}

func (a *Agent) run(ctx context.Context, prompt string, attach []string) TurnDone {
	a.running.Lock()
	defer a.running.Unlock()
	a.settleCheckpoints()
	a.waitSessionStart(ctx)
	if done, blocked := a.promptHooks(ctx, prompt); blocked {
		done.Usage = a.usage
		a.emit(done)
		return done
	}
	a.noteMode()
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: withNotes(a.takeNotes(), prompt)})
	done := a.safeLoop(ctx, attach)
	done.Usage = a.usage
	a.emit(done)
	return done
}

// safeLoop reads the attached files, runs the loop and turns a bug that panics into an error the person
// can read: the session, the terminal and the other requests survive it.
func (a *Agent) safeLoop(ctx context.Context, attach []string) (done TurnDone) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error in Warden (%v); the request was stopped, the session goes on", r)
			a.emit(Notice{Message: msg})
			done = TurnDone{Text: msg, IsError: true}
		}
	}()
	a.attach(ctx, attach)
	if ctx.Err() != nil {
		return TurnDone{Interrupted: true}
	}
	return a.loop(ctx)
}

func (a *Agent) loop(ctx context.Context) TurnDone {
	var last string
	stopHookActive := false
	for step := 1; step <= a.opts.MaxSteps; step++ {
		var schemas []openai.Tool
		a.offered, schemas = a.turnTools(ctx)
		if ctx.Err() != nil {
			return TurnDone{Text: last, Interrupted: true, Turns: step - 1}
		}
		a.noteMode()
		a.deliverNotes(ctx)
		comp, err := a.request(ctx, schemas)
		if err != nil {
			if ctx.Err() != nil {
				a.keepPartial(comp)
				return TurnDone{Text: last, Interrupted: true, Turns: step}
			}
			a.emit(Notice{Message: err.Error()})
			return TurnDone{Text: err.Error(), IsError: true, Turns: step}
		}
		msg := openai.ChatCompletionMessage{
			Role:             openai.ChatMessageRoleAssistant,
			Content:          comp.Text,
			ReasoningContent: comp.Reasoning,
			ToolCalls:        comp.ToolCalls,
		}
		a.addMessage(msg)
		if comp.Text != "" || comp.Reasoning != "" {
			a.emit(AssistantText{Text: comp.Text, Reasoning: comp.Reasoning})
		}
		if comp.Text != "" {
			last = comp.Text
		}
		cut := comp.FinishReason == "length"
		if cut {
			a.emit(Notice{Message: "the model's answer reached its output limit and was cut off (finish_reason \"length\")"})
		}
		if len(comp.ToolCalls) == 0 {
			if step < a.opts.MaxSteps && a.stopHooks(ctx, stopHookActive) {
				stopHookActive = true
				continue
			}
			return TurnDone{Text: comp.Text, Turns: step}
		}
		a.runCalls(ctx, comp.ToolCalls, cut)
		if ctx.Err() != nil {
			return TurnDone{Text: last, Interrupted: true, Turns: step}
		}
		if why := a.halt.take(); why != "" {
			// A hook answered "continue": false: the request ends here, and the person is told why.
			msg := printable.EscapeText("A hook stopped the request: " + why)
			a.emit(Notice{Message: msg})
			return TurnDone{Text: msg, Turns: step}
		}
		if plan, ok := a.takePlanEnd(); ok {
			return TurnDone{Text: plan, Plan: plan, Turns: step}
		}
	}
	msg := fmt.Sprintf("Stopped after %d steps without a final answer (the per-request cap, setting max_steps). Send another message to let it continue.", a.opts.MaxSteps)
	a.emit(Notice{Message: msg})
	return TurnDone{Text: msg, IsError: true, Turns: a.opts.MaxSteps}
}

// keepPartial records the part of an answer that streamed before the person interrupted it: they saw it,
// so the transcript keeps it, and the model learns where it was stopped.
func (a *Agent) keepPartial(c *Completion) {
	if c == nil || strings.TrimSpace(c.Text) == "" {
		return
	}
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant,
		Content: c.Text + "\n\n[interrupted by the user]"})
}

// addMessage extends the conversation and records it, synced: a message is a unit that must survive a crash.
func (a *Agent) addMessage(m openai.ChatCompletionMessage) {
	a.messages = append(a.messages, m)
	a.opts.Store.Append(Record{Type: RecMessage, Message: &m}, true)
}

// emit records an event that matters for the history and passes it to the sink.
func (a *Agent) emit(ev Event) {
	// Concurrent tool calls emit from their own goroutines; the sink sees one event at a time.
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	if r, ok := eventRecord(ev); ok {
		wasOK := a.opts.Store.Err() == nil
		a.opts.Store.Append(r, r.Type == RecToolResult || r.Type == RecChanges)
		if err := a.opts.Store.Err(); wasOK && err != nil {
			a.opts.Sink(Notice{Message: fmt.Sprintf("the session is no longer being saved: %v", err)})
		}
	}
	a.opts.Sink(ev)
}

// request sends the conversation to the model, first fitting it into the context window, and once more
// after shortening it when the server says it is too long anyway.
func (a *Agent) request(ctx context.Context, schemas []openai.Tool) (*Completion, error) {
	onDelta := func(text, reasoning string) {
		if text != "" {
			a.emit(TextDelta{Text: text})
		}
		if reasoning != "" {
			a.emit(ReasoningDelta{Text: reasoning})
		}
	}
	if err := a.fitContext(ctx, false); err != nil {
		return nil, err
	}
	sent := len(a.messages)
	comp, err := a.streamWithRetry(ctx, schemas, onDelta)
	if why := a.imageRefusal(err); why != "" {
		a.dropImages()
		a.emit(Notice{Message: fmt.Sprintf("the model %s does not take pictures: %s. It was asked again without them, and reads a "+
			"note in their place; no more pictures go to it in this session", a.opts.Provider.Model(), why)})
		sent = len(a.messages)
		comp, err = a.streamWithRetry(ctx, schemas, onDelta)
	}
	var pe *ProviderError
	if errors.As(err, &pe) && pe.Kind == ErrContextLength {
		if ferr := a.fitContext(ctx, true); ferr != nil {
			return nil, fmt.Errorf("%v; shortening it failed: %w", err, ferr)
		}
		sent = len(a.messages)
		comp, err = a.streamWithRetry(ctx, schemas, onDelta)
	}
	if err != nil {
		return comp, err
	}
	a.addUsage(comp, sent)
	return comp, nil
}

// addUsage adds a completion's token use to the totals and reports it with the conversation's size.
func (a *Agent) addUsage(c *Completion, sent int) {
	ev := UsageUpdated{}
	if c.Usage != nil {
		ev.Last = *c.Usage
		a.lastPrompt, a.lastPromptMsgs = c.Usage.PromptTokens, sent
	} else {
		ev.Estimated = true
		ev.Last = Usage{PromptTokens: estimateTokens(a.messages[:sent]), CompletionTokens: (len(c.Text) + len(c.Reasoning)) / 4}
		a.lastPrompt, a.lastPromptMsgs = 0, 0
	}
	a.usage.PromptTokens += ev.Last.PromptTokens
	a.usage.CompletionTokens += ev.Last.CompletionTokens
	ev.Total = a.usage
	ev.Context = ev.Last.PromptTokens + ev.Last.CompletionTokens
	ev.Window = a.opts.ContextWindow
	a.emit(ev)
}

// withMore is the agent's own tools and those Options.More offers now; one that would take the name of
// another is left out rather than shadow it.
func (a *Agent) withMore(ctx context.Context) *tools.Registry {
	all := a.tools.Tools()
	for _, t := range a.opts.More.Tools(ctx) {
		if !slices.ContainsFunc(all, func(o tools.Tool) bool { return o.Name() == t.Name() }) {
			all = append(all, t)
		}
	}
	return tools.NewRegistry(all...)
}

func toolSchemas(r *tools.Registry) []openai.Tool {
	var out []openai.Tool
	for _, t := range r.Tools() {
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name(), Description: t.Description(), Parameters: t.Schema(),
		}})
	}
	return out
}

// jsonString wraps text that is not JSON as a JSON string, so events always carry valid JSON input.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
