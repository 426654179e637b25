package agent

import (
	"encoding/json"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
)

// HistoryEntry is one tool call of a session as the history view and `warden history` show it.
type HistoryEntry struct {
	Time    time.Time       `json:"time"`
	ID      string          `json:"id"`
	Tool    string          `json:"tool"`
	Summary string          `json:"summary"`
	Input   json.RawMessage `json:"input,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	// Parent is the task call whose sub-agent made this call; Depth counts the nesting.
	Parent   string `json:"parent,omitempty"`
	Depth    int    `json:"depth,omitempty"`
	Decision string `json:"decision,omitempty"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Rule     string `json:"rule,omitempty"`
	// Status is running, ok, error, denied, timed_out, interrupted or background.
	Status       string `json:"status"`
	ExitCode     *int   `json:"exit_code,omitempty"`
	DurationMS   int64  `json:"duration_ms"`
	Output       string `json:"output,omitempty"`
	OutputPath   string `json:"output_path,omitempty"`
	BackgroundID string `json:"background_id,omitempty"`
	// Changes is what the call changed in the workspace (a background task's, until it ended): empty
	// for a call that changed nothing. Full holds them with their before and after states.
	Changes []checkpoint.Brief  `json:"changes"`
	Full    []checkpoint.Change `json:"-"`
}

// History joins a session's tool call, permission and result records into one entry per call, in order.
func History(l *Loaded) []HistoryEntry {
	var out []HistoryEntry
	// Call ids are unique only within one agent's conversation (a child's call_1 is not its parent's),
	// so records are matched by the task call that started the agent and the call id.
	type key struct{ parent, id string }
	index := map[key]int{}
	for _, r := range l.Records {
		k := key{r.Parent, r.CallID}
		switch r.Type {
		case RecToolCall:
			depth := 0
			if r.Parent != "" {
				// The task call that started this agent is the latest task call with that id.
				for i := len(out) - 1; i >= 0; i-- {
					if out[i].ID == r.Parent && out[i].Tool == "task" {
						depth = out[i].Depth + 1
						break
					}
				}
			}
			index[k] = len(out)
			out = append(out, HistoryEntry{Time: r.Time, ID: r.CallID, Tool: r.Name, Summary: r.Summary, Input: r.Input,
				Agent: r.Agent, Parent: r.Parent, Depth: depth, Status: "running"})
		case RecPermission:
			if i, ok := index[k]; ok {
				e := &out[i]
				e.Decision, e.By, e.Reason, e.Rule = r.Decision, r.By, r.Reason, r.Rule
			}
		case RecToolResult:
			i, ok := index[k]
			if !ok {
				continue
			}
			e := &out[i]
			e.ExitCode, e.DurationMS, e.OutputPath, e.BackgroundID = r.ExitCode, r.DurationMS, r.OutputPath, r.BackgroundID
			e.Full = r.Changes
			if r.Output != nil {
				e.Output = *r.Output
			}
			e.Status = resultStatus(e.Decision, r)
			// A sub-agent's calls end with its task: one with no result was cut off (a kill).
			for j := i + 1; j < len(out); j++ {
				if out[j].Depth > e.Depth && out[j].Status == "running" && descends(out, j, i) {
					out[j].Status = "interrupted"
				}
			}
		case RecChanges:
			// A background task's changes, from its call's start to its end, replace what the call
			// had changed when it went to the background.
			if i, ok := index[k]; ok && r.By == ByTask {
				out[i].Full = r.Changes
			}
		}
	}
	for i := range out {
		out[i].Changes = checkpoint.Briefs(out[i].Full)
	}
	return out
}

// descends reports whether entry j was made by a sub-agent that entry i (a task call) started, directly
// or further down.
func descends(out []HistoryEntry, j, i int) bool {
	for j > i {
		if out[j].Parent == "" {
			return false
		}
		// The parent is the latest task call with that id before j.
		p := j - 1
		for p >= 0 && !(out[p].ID == out[j].Parent && out[p].Tool == "task") {
			p--
		}
		if p == i {
			return true
		}
		j = p
	}
	return false
}

func resultStatus(decision string, r Record) string {
	switch {
	case decision == "deny":
		return "denied"
	case r.Interrupted:
		return "interrupted"
	case r.TimedOut:
		return "timed_out"
	case r.BackgroundID != "":
		return "background"
	case r.IsError:
		return "error"
	}
	return "ok"
}

// ResumeSession reopens the session file at path to continue it. It returns the session, the conversation
// to continue from, and a store that appends to the same file. Calls the previous run never finished are
// closed with an "interrupted" result, and that closing is recorded too, so the file stays a valid
// conversation.
func ResumeSession(path string) (*Loaded, []openai.ChatCompletionMessage, *Store, error) {
	l, err := ReadSession(path)
	if err != nil {
		return nil, nil, nil, err
	}
	msgs, closed := l.Conversation()
	st, err := OpenStore(path)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, c := range closed {
		out := c.Content
		st.Append(Record{Type: RecToolResult, CallID: c.ToolCallID, Name: c.Name, Output: &out, IsError: true, Interrupted: true}, false)
		st.Append(Record{Type: RecMessage, Message: &c}, true)
	}
	if err := st.Err(); err != nil {
		st.Close()
		return nil, nil, nil, fmt.Errorf("closing interrupted calls: %w", err)
	}
	return l, msgs, st, nil
}
