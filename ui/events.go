package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// How the agent's events change the model: the transcript, the panels, usage and notices.

// event applies one agent event.
func (m *Model) event(e agent.Event) tea.Cmd {
	m.apply(nil, e)
	if _, ok := e.(agent.TurnDone); ok {
		m.conv.retire()
	}
	return m.tick()
}

// apply applies an event of the agent of scope: the main agent when scope is nil, else the sub-agent of
// the task call scope. Events a sub-agent handles differently are taken by childEvent first.
func (m *Model) apply(scope *panel, e agent.Event) {
	now := m.now()
	switch e := e.(type) {
	case agent.ChildEvent:
		m.childEvent(scope, e)
	case agent.SessionStarted:
		if e.ID != "" {
			m.opts.SessionID = e.ID
		}
		if e.Model != "" {
			m.opts.Model = e.Model
		}
	case agent.TextDelta:
		it := m.answer()
		it.text += e.Text
		m.conv.changed(it)
	case agent.ReasoningDelta:
		it := m.answer()
		it.reasoning += e.Text
		m.conv.changed(it)
	case agent.AssistantText:
		it := m.answer()
		it.text, it.streaming = e.Text, false
		if e.Reasoning != "" {
			it.reasoning = e.Reasoning
		}
		m.conv.changed(it)
	case agent.ToolCallStarted:
		if scope == nil {
			m.retry = ""
			m.endStreaming()
		}
		m.addCall(scope, newPanel(e, now))
	case agent.PermissionDecided:
		if p := m.call(scope, e.ID); p != nil {
			p.decided(e, now)
			m.conv.version++
		}
		path := ""
		if scope != nil {
			path = scope.sub.path
		}
		for _, o := range m.overlays {
			if md, ok := o.(*modal); ok {
				m.withdraw(md, path, e.ID)
			}
		}
	case agent.ToolOutput:
		if p := m.call(scope, e.ID); p != nil {
			p.out.Write(e.Chunk)
			m.conv.version++
		}
	case agent.ToolFinished:
		p := m.call(scope, e.ID)
		if p == nil {
			// A call skipped by an interrupt is closed without having started.
			p = m.addCall(scope, newPanel(agent.ToolCallStarted{ID: e.ID, Name: e.Name}, now))
			p.state = stateInterrupted
		}
		p.finished(e)
		m.takeTodos(p)
		m.conv.version++
	case agent.FilesChanged:
		m.filesChanged(scope, e)
	case agent.SteerDelivered:
		m.steerDelivered(e)
	case agent.SteerBlocked:
		m.steerBlocked(e)
	case agent.UsageUpdated:
		m.usage = e
	case agent.ContextCompacted:
		m.conv.add(&item{kind: itemInfo, text: compactionText(e)})
		// Until the next request reports it, the conversation's size is the agent's estimate.
		m.usage.Context, m.usage.Estimated = e.After, true
	case agent.Notice:
		if e.Retrying {
			// The retry streams the answer again from its start. Until it does, what came before stays,
			// marked as cut off; if no retry succeeds, it is still there to read.
			if cut := m.conv.cutStreaming("the answer above was cut off; Warden is asking for it again"); cut != nil {
				m.cutOff = cut
			}
			m.retry = e.Message
			return
		}
		if len(m.cutOff) == 2 { // kept: nothing will replace it
			m.cutOff[1].text = "the answer above was cut off"
			m.conv.changed(m.cutOff[1])
		}
		m.cutOff = nil
		m.retry = ""
		m.endStreaming()
		m.conv.add(&item{kind: itemError, text: e.Message})
	case agent.TurnDone:
		m.retry = ""
		m.cutOff = nil
		m.endStreaming()
		for _, p := range m.calls {
			p.stopIfActive()
		}
		if e.Interrupted {
			m.conv.add(&item{kind: itemInterrupted, text: "interrupted"})
		}
		m.conv.version++
	}
}

// compactionText tells the person how the conversation was shortened.
func compactionText(e agent.ContextCompacted) string {
	var did []string
	if e.Elided > 0 {
		did = append(did, "elided "+plural(e.Elided, "old tool output", "old tool outputs"))
	}
	if e.Summarized > 0 {
		did = append(did, "summarised "+plural(e.Summarized, "message", "messages"))
	}
	if len(did) == 0 {
		did = append(did, "shortened")
	}
	return fmt.Sprintf("context: %s (~%s → %s tokens)", strings.Join(did, ", "), tokens(e.Before), tokens(e.After))
}

// tokens writes a token count the way the status line does: 41k, 1.2M, or the number when small.
func tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return fmt.Sprint(n)
}

// answer is the message the model's text goes to as it comes. The answer streaming means a retry, if one
// was announced, is under way: its notice goes, and so does an answer a failed stream cut off, which this
// one replaces.
func (m *Model) answer() *item {
	m.retry = ""
	m.conv.remove(m.cutOff)
	m.cutOff = nil
	return m.conv.streamingItem()
}

func (m *Model) endStreaming() {
	if n := len(m.conv.items); n > 0 {
		if it := m.conv.items[n-1]; it.streaming {
			it.streaming = false
			m.conv.changed(it)
		}
	}
}
