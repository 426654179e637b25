package ui

import (
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/piped"
	"github.com/warden-cli/warden/tools"
)

// restore shows the earlier part of a resumed session: its messages as the transcript held them, and its
// tool calls, finished, with their output, sub-agents' calls under their task. It runs before the program
// starts, from the session's records, the same records `warden history` reads.
func (m *Model) restore(l *agent.Loaded) {
	// Call ids are unique within one agent's conversation only: a sub-agent's call_1 is not its parent's.
	// Records are matched by the task call they hang under (Parent) and their id; a record's parent is the
	// newest task call of that id.
	calls := map[[2]string]*panel{}
	tasks := map[string]*panel{}
	key := func(r agent.Record) [2]string { return [2]string{r.Parent, r.CallID} }
	for _, r := range l.Records {
		switch r.Type {
		case agent.RecMessage:
			m.restoreMessage(r.Message)
		case agent.RecToolCall:
			var scope *panel
			if r.Parent != "" {
				if scope = tasks[r.Parent]; scope != nil {
					scope.subAgent(r.Agent)
				}
			}
			access := tools.Access{Kind: tools.AccessNone, Summary: r.Summary}
			if r.Name == "bash" {
				access.Kind, access.Command = tools.AccessExec, r.Summary
			}
			p := newPanel(agent.ToolCallStarted{ID: r.CallID, Name: r.Name, Input: r.Input, Access: access, Agent: r.Agent}, r.Time)
			added := m.addCall(scope, p)
			calls[key(r)] = added
			if r.Name == "task" {
				tasks[r.CallID] = added
			}
		case agent.RecPermission:
			if p := calls[key(r)]; p != nil {
				p.decided(agent.PermissionDecided{ID: r.CallID, Decision: permissions.Decision(r.Decision), By: r.By,
					Reason: r.Reason, Rule: r.Rule}, r.Time)
			}
		case agent.RecToolResult:
			if p := calls[key(r)]; p != nil {
				res := tools.Result{Display: r.Display, IsError: r.IsError, ExitCode: r.ExitCode, Signal: r.Signal, TimedOut: r.TimedOut,
					Interrupted: r.Interrupted, Truncated: r.Truncated, BackgroundID: r.BackgroundID, OutputPath: r.OutputPath}
				if r.Output != nil {
					res.Output = *r.Output
				}
				p.finished(agent.ToolFinished{ID: r.CallID, Name: r.Name, Result: res, Duration: time.Duration(r.DurationMS) * time.Millisecond,
					Changes: r.Changes})
				m.takeTodos(p)
				if p.sub != nil {
					// The child's messages are not kept, only the task's result for the model, which ends
					// with a record of the child's calls: those are already in the panel.
					p.sub.done = true
					p.sub.answer, _, _ = strings.Cut(res.Output, taskRecordMarker)
				}
			}
		case agent.RecChanges:
			m.restoreChanges(calls[key(r)], r)
		case agent.RecNotice:
			if !r.Retrying {
				m.conv.add(&item{kind: itemError, text: r.Text})
			}
		case agent.RecTurn:
			if r.Interrupted {
				m.conv.add(&item{kind: itemInterrupted, text: "interrupted"})
			}
		}
	}
	// Calls the earlier run never finished were closed as interrupted when the session was reopened.
	for _, p := range m.calls {
		p.stopIfActive()
	}
	when := ""
	if !l.Started.IsZero() {
		when = ", started " + l.Started.Local().Format("2006-01-02 15:04")
	}
	m.conv.add(&item{kind: itemInfo, text: "resumed session " + l.ID + when})
	for _, w := range l.Warnings {
		m.conv.add(&item{kind: itemNotice, text: w})
	}
	m.promptIdx = len(m.prompts)
}

// taskRecordMarker starts the list of a sub-agent's calls that the agent appends to a task's result.
const taskRecordMarker = "\n\nTools the sub-agent ran:"

// restoreMessage adds one recorded message: the person's prompts and the model's answers. Tool results
// are already in their panels, and the system prompt is not the person's to read.
func (m *Model) restoreMessage(msg *openai.ChatCompletionMessage) {
	if msg == nil {
		return
	}
	switch msg.Role {
	case openai.ChatMessageRoleUser:
		notes, prompt := agent.SplitNotes(msg.Content)
		if notes != "" {
			m.conv.add(&item{kind: itemInfo, text: "Warden told the model: " + notes})
		}
		// What was piped with a prompt is shown as it was when sent: its summary, not its text.
		prompt, in := piped.Split(prompt)
		if prompt != "" {
			m.conv.add(&item{kind: itemUser, text: prompt})
			m.prompts = append(m.prompts, prompt)
		}
		if in != nil {
			m.conv.add(&item{kind: itemInfo, text: in.Summary()})
		}
	case openai.ChatMessageRoleAssistant:
		if msg.Content != "" || msg.ReasoningContent != "" {
			m.conv.add(&item{kind: itemAssistant, text: msg.Content, reasoning: msg.ReasoningContent})
		}
	}
}
