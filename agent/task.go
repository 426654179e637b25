package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/warden-cli/warden/tools"
)

// Sub-agents. The task tool starts a child agent loop for a side task (a broad search, an investigation)
// so that its tool calls do not fill the parent's context: the parent receives only the child's final
// answer and a one-line record of each tool the child ran. A child shares the parent's provider, permission
// engine (so grants are shared) and approver (so its calls that need approval open the same modal,
// labelled with the child's description), but has its own conversation and its own working directory. The
// tools it gets are those the parent names, among its own and the MCP tools (Options.More), which the
// child's calls reach under the same engine, approver and trust as the parent's.

// MaxDepth is how deep sub-agents may nest: the main agent is depth 0, its children depth 1, and so on.
const MaxDepth = 5

// childMaxSteps caps a child's model turns.
const childMaxSteps = 25

// readOnlyTools are a child's tools when the model names none.
var readOnlyTools = []string{"read_file", "glob", "grep", "task"}

// ChildEvent carries an event of a sub-agent, started by the parent's task call ParentID.
type ChildEvent struct {
	ParentID string
	// Agent is the child's label: the task's description.
	Agent string
	Event Event
}

func (ChildEvent) isEvent() {}

type taskParams struct {
	Description string   `json:"description" desc:"A short (3-7 word) label for the task, shown to the user."`
	Prompt      string   `json:"prompt" desc:"The task for the sub-agent, with everything it needs to know: it does not see this conversation."`
	Tools       []string `json:"tools,omitempty" desc:"Tools the sub-agent may use (default: read_file, glob, grep, task). Only tools you have yourself; MCP tools by name (mcp__SERVER__TOOL), all of a server's (mcp__SERVER), or all of them (mcp_search)."`
}

const taskDescription = `Starts a sub-agent for a self-contained side task, such as a broad search across the code or an investigation, and returns its final report.

- The sub-agent does not see this conversation: put everything it needs in the prompt, and say what to report back.
- Its tool calls do not fill your context: you receive only its answer and a one-line record of each tool it ran.
- By default it may only read (read_file, glob, grep); name tools to narrow or extend that within your own tools, MCP tools included. Its calls that need approval are asked of the user like yours.
- Several task calls in one turn run at the same time when they only read.`

// taskTool returns the task tool that starts a's children. At MaxDepth it is still offered, and refuses
// with a clear error, so that the model learns the limit instead of meeting an unknown tool.
func (a *Agent) taskTool() tools.Tool {
	return tools.New(tools.Spec[taskParams]{
		Name:        "task",
		Description: taskDescription,
		Access: func(env *tools.Env, p *taskParams) (tools.Access, error) {
			if strings.TrimSpace(p.Prompt) == "" {
				return tools.Access{}, fmt.Errorf("prompt is empty; say what the sub-agent should do")
			}
			// The task itself touches nothing: each of the child's calls is decided on its own.
			return tools.Access{Kind: tools.AccessNone, Summary: p.Description, Cwd: env.Cwd()}, nil
		},
		Run: a.runTask,
	})
}

func (a *Agent) runTask(ctx context.Context, env *tools.Env, call tools.Call, p *taskParams) tools.Result {
	if a.opts.Depth >= MaxDepth {
		return tools.Errorf("Sub-agents may nest at most %d deep and this one is at depth %d; do the task yourself instead.", MaxDepth, a.opts.Depth)
	}
	names := p.Tools
	if len(names) == 0 {
		for _, n := range readOnlyTools {
			if _, ok := a.tools.Get(n); ok {
				names = append(names, n)
			}
		}
	}
	var more []string
	for _, n := range names {
		if _, ok := a.tools.Get(n); !ok {
			more = append(more, n)
		}
	}
	childMore, unknown := a.childTools(ctx, more)
	if len(unknown) > 0 {
		return tools.Errorf("A sub-agent can only have tools you have yourself; not available: %s. Your tools: %s%s.",
			strings.Join(unknown, ", "), strings.Join(a.tools.Names(), ", "), a.mcpNote())
	}
	label := strings.TrimSpace(p.Description)
	if label == "" {
		label = "sub-agent"
	}
	var record []string
	childEnv := env.Fork()
	base := a.opts.Tools.Subset(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "task" })...)
	sink := func(ev Event) {
		if f, ok := ev.(ToolFinished); ok {
			record = append(record, toolLine(f))
		}
		a.emit(ChildEvent{ParentID: call.ID, Agent: label, Event: ev})
	}
	child, err := New(Options{
		Provider: a.opts.Provider,
		Tools:    base,
		Env:      childEnv,
		Engine:   a.opts.Engine,
		Approver: labelledApprover{inner: a.opts.Approver, label: label},
		Sink:     sink,
		MaxSteps: childMaxSteps,
		Home:     a.opts.Home,
		Retry:    a.opts.Retry,
		// A child's context is small and short-lived; it shares the parent's window setting.
		ContextWindow:   a.opts.ContextWindow,
		SaveProjectRule: a.opts.SaveProjectRule,
		Checkpoints:     a.opts.Checkpoints,
		Depth:           a.opts.Depth + 1,
		Hooks:           a.opts.Hooks,
		session:         a.hookSession(),
		SubAgents:       slices.Contains(names, "task"),
		More:            childMore,
		Prompt:          &PromptInfo{Cwd: childEnv.Cwd(), Now: time.Now(), SubAgent: true},
	})
	if err != nil {
		return tools.Errorf("could not start the sub-agent: %v", err)
	}
	done := child.Run(ctx, p.Prompt)
	var b strings.Builder
	switch {
	case done.Interrupted:
		b.WriteString("The sub-agent was interrupted by the user.")
	case done.IsError:
		fmt.Fprintf(&b, "The sub-agent failed: %s", done.Text)
	default:
		b.WriteString(done.Text)
	}
	if len(record) > 0 {
		b.WriteString("\n\nTools the sub-agent ran:\n")
		for _, r := range record {
			b.WriteString("- " + r + "\n")
		}
	}
	return tools.Result{Output: strings.TrimRight(b.String(), "\n"), IsError: done.IsError || done.Interrupted, Interrupted: done.Interrupted}
}

// childSource is a ToolSource that can give a sub-agent the tools the parent names (an mcp.Offer): it
// returns the child's source and the names that name none of its tools.
type childSource interface {
	ForChild(ctx context.Context, names []string) (interface {
		Tools(ctx context.Context) []tools.Tool
	}, []string)
}

// childTools is the source of the tools named that are not the agent's own, and the names that name
// nothing it has.
func (a *Agent) childTools(ctx context.Context, names []string) (ToolSource, []string) {
	if len(names) == 0 {
		return nil, nil
	}
	cs, ok := a.opts.More.(childSource)
	if !ok {
		return nil, names
	}
	src, unknown := cs.ForChild(ctx, names)
	if len(unknown) > 0 {
		return nil, unknown
	}
	return src, nil
}

// mcpNote says how to name MCP tools when the agent has some to give.
func (a *Agent) mcpNote() string {
	if _, ok := a.opts.More.(childSource); !ok {
		return ""
	}
	return "; and the MCP tools, by name (mcp__SERVER__TOOL), by server (mcp__SERVER) or all (mcp_search)"
}

// toolLine is a one-line record of a finished call for the parent.
func toolLine(f ToolFinished) string {
	r := f.Result
	status := "ok"
	switch {
	case r.Interrupted:
		status = "interrupted"
	case r.TimedOut:
		status = "timed out"
	case r.ExitCode != nil:
		status = fmt.Sprintf("exit %d", *r.ExitCode)
	case r.IsError:
		first, _, _ := strings.Cut(r.Output, "\n")
		status = "error: " + oneLine(first)
		if len(status) > 100 {
			status = status[:100] + "…"
		}
	}
	return fmt.Sprintf("%s (%s): %s", f.Name, f.ID, status)
}

// labelledApprover passes a child's questions to the parent's approver with the child's label.
type labelledApprover struct {
	inner Approver
	label string
}

func (l labelledApprover) Approve(ctx context.Context, req ApprovalRequest) (Approval, error) {
	if req.Agent == "" {
		req.Agent = l.label
	} else {
		req.Agent = l.label + " › " + req.Agent
	}
	return l.inner.Approve(ctx, req)
}
