package ui

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/agent"
)

// Sub-agents. A task call starts a child agent whose events arrive wrapped in agent.ChildEvent, naming
// the task call as their parent (and nesting when a child starts a child of its own). The child's tool
// calls become panels like any other, but they hang under the task's panel instead of the transcript:
// the task panel lists them live, one compact line each, and folds them into a one-line summary once the
// task has finished. The child's text never enters the main conversation; only its latest line shows,
// dim, inside the task panel.

// maxNestedLines is how many lines a running task panel gives to its child's calls.
const maxNestedLines = 8

// subAgent is the child agent of a task panel.
type subAgent struct {
	// path labels the child's calls as the approver labels its requests: the labels of every sub-agent
	// from the main agent down, joined with " › ".
	path  string
	calls []*panel
	// text is the message the child is streaming or said last; answer is its last whole message.
	text, answer string
	// notice is the child's latest retry notice or error.
	notice    string
	noticeErr bool
	done      bool
}

// callKey names a call uniquely in the UI: call ids are unique only within one agent's conversation, so a
// child's calls are keyed under their task call.
func callKey(scope *panel, id string) string {
	if scope == nil {
		return id
	}
	return scope.key + "\x1f" + id
}

// call is the panel of call id made by the agent of scope (nil: the main agent).
func (m *Model) call(scope *panel, id string) *panel { return m.byID[callKey(scope, id)] }

// addCall adds a call of the agent of scope: to the transcript for the main agent, under the task's
// panel for a sub-agent.
func (m *Model) addCall(scope *panel, p *panel) *panel {
	p.key = callKey(scope, p.id)
	m.calls = append(m.calls, p)
	m.byID[p.key] = p
	if scope == nil {
		m.panels = append(m.panels, p)
		m.conv.add(&item{kind: itemPanel, panel: p})
		return p
	}
	sub := scope.subAgent("")
	p.parent, p.depth, p.agent = scope, scope.depth+1, sub.path
	sub.calls = append(sub.calls, p)
	scope.touch()
	return p
}

// subAgent returns the panel's child agent, creating it with label (the ChildEvent's Agent) if needed.
func (p *panel) subAgent(label string) *subAgent {
	if p.sub == nil {
		p.sub = &subAgent{}
	}
	if p.sub.path == "" && label != "" {
		p.sub.path = label
		if p.agent != "" {
			p.sub.path = p.agent + " › " + label
		}
	}
	return p.sub
}

// touch marks the panel and every task panel above it as changed, for their render caches.
func (p *panel) touch() {
	for q := p; q != nil; q = q.parent {
		q.out.version++
	}
}

// childEvent applies an event of the sub-agent started by task call e.ParentID of the agent of scope.
func (m *Model) childEvent(scope *panel, e agent.ChildEvent) {
	task := m.call(scope, e.ParentID)
	if task == nil {
		// The agent announces a task call before its child starts; if that ever changes, the child's
		// calls still show, under a panel of their own.
		task = m.addCall(scope, newPanel(agent.ToolCallStarted{ID: e.ParentID, Name: "task"}, m.now()))
		task.state = stateRunning
	}
	sub := task.subAgent(e.Agent)
	switch ev := e.Event.(type) {
	case agent.TextDelta:
		if sub.text != "" && sub.answer == sub.text {
			sub.text = "" // a new message begins
		}
		sub.text += ev.Text
		if !sub.noticeErr {
			sub.notice = ""
		}
	case agent.AssistantText:
		if ev.Text != "" {
			sub.text, sub.answer = ev.Text, ev.Text
		}
	case agent.Notice:
		sub.notice, sub.noticeErr = ev.Message, !ev.Retrying
		if ev.Retrying {
			sub.text = "" // the retry streams the message again from its start
		}
	case agent.TurnDone:
		sub.done = true
		for _, c := range sub.calls {
			c.stopIfActive()
		}
		if ev.IsError && sub.notice == "" {
			sub.notice, sub.noticeErr = ev.Text, true
		}
	case agent.SessionStarted, agent.ReasoningDelta, agent.UsageUpdated, agent.ContextCompacted:
		// The child's reasoning, token use and context are its own; the status line is the main agent's.
	default:
		m.apply(task, e.Event)
	}
	task.touch()
	m.conv.version++
}

// stopIfActive marks a call that can no longer finish (its agent's turn ended) as interrupted.
func (p *panel) stopIfActive() {
	if p.active() {
		p.state = stateInterrupted
		p.out.version++
	}
	if p.sub != nil {
		p.sub.done = true
		for _, c := range p.sub.calls {
			c.stopIfActive()
		}
	}
}

// descendants lists every call under p, depth first, as the history and the expanded panel show them.
func (p *panel) descendants(out []*panel) []*panel {
	if p.sub == nil {
		return out
	}
	for _, c := range p.sub.calls {
		out = append(out, c)
		out = c.descendants(out)
	}
	return out
}

// subBody is the body of a task panel: its child's calls while it runs (or when expanded), a summary line
// once it has finished, and the child's answer.
func (p *panel) subBody(rc *renderCtx, width int) []string {
	st := rc.st
	sub := p.sub
	var out []string
	calls := p.descendants(nil)
	if p.active() || p.expanded {
		var lines []string
		for _, c := range calls {
			lines = append(lines, c.nestedLine(rc, p.depth, width))
			if tail := c.out.Tail(1); c.state == stateRunning && len(tail) == 1 && strings.TrimSpace(tail[0]) != "" {
				lines = append(lines, st.dim.Render(fit(outIndent(c.depth-p.depth)+cleanLine(tail[0]), width)))
			}
			if p.expanded && c.sub == nil && !c.active() {
				for _, l := range c.out.Tail(collapsedTail) {
					lines = append(lines, st.dim.Render(fit(outIndent(c.depth-p.depth)+cleanLine(l), width)))
				}
			}
		}
		if !p.expanded && len(lines) > maxNestedLines {
			hidden := len(lines) - maxNestedLines + 1
			lines = append([]string{st.dim.Render(fmt.Sprintf("… %s", plural(hidden, "earlier line", "earlier lines")))}, lines[len(lines)-maxNestedLines+1:]...)
		}
		out = append(out, lines...)
	} else {
		out = append(out, p.summaryLine(rc, calls, width))
	}
	if sub.notice != "" && (p.active() || sub.noticeErr) {
		style := st.warn
		if sub.noticeErr {
			style = st.fail.UnsetBold()
		}
		out = append(out, style.Render(fit(cleanLine(sub.notice), width)))
	}
	if p.active() {
		switch line := lastLine(sub.text); {
		case line != "":
			out = append(out, st.reasoning.Render(fit(cleanLine(line), width)))
		case len(calls) == 0 && sub.notice == "":
			out = append(out, st.dim.Render("starting…"))
		}
		return out
	}
	return append(out, p.answerLines(rc, width)...)
}

// nestedLine is one child call in a task panel: the tool and its target, its status on the right.
func (p *panel) nestedLine(rc *renderCtx, top, width int) string {
	indent := nestIndent(p.depth - top)
	left := rc.st.dim.Render(indent) + rc.st.panelTitle.Render(p.tool) + " " + rc.st.dim.Render(p.target())
	if p.sub != nil && !p.active() {
		n := len(p.descendants(nil))
		left += rc.st.dim.Render(" · " + plural(n, "tool call", "tool calls"))
	}
	return spread(left, p.status(rc), width)
}

// nestIndent marks a call depth levels below the task panel that shows it.
func nestIndent(depth int) string {
	return strings.Repeat("  ", max(depth-1, 0)) + "↳ "
}

// outIndent puts a child call's output under its tool name.
func outIndent(depth int) string { return strings.Repeat("  ", max(depth-1, 0)+2) }

// summaryLine folds a finished child's calls into one line.
func (p *panel) summaryLine(rc *renderCtx, calls []*panel, width int) string {
	st := rc.st
	s := "▸ " + plural(len(calls), "tool call", "tool calls")
	var denied, failed int
	for _, c := range calls {
		switch {
		case c.state == stateDenied:
			denied++
		case c.failed():
			failed++
		}
	}
	if denied > 0 {
		s += fmt.Sprintf(" · %d denied", denied)
	}
	if failed > 0 {
		s += fmt.Sprintf(" · %d failed", failed)
	}
	more := ""
	if len(calls) > 0 {
		more = " (" + hintKeys(rc.keys.Expand) + " to expand)"
	}
	return fit(st.accent.UnsetBold().Render(s)+st.dim.Render(more), width)
}

// failed reports a finished call that did not succeed.
func (p *panel) failed() bool {
	switch {
	case p.active():
		return false
	case p.state == stateTimedOut || p.state == stateInterrupted:
		return true
	case p.result.ExitCode != nil:
		return *p.result.ExitCode != 0
	}
	return p.result.IsError
}

// answerLines are the child's final answer: the start of it when collapsed, all of it when expanded. When
// the child failed (or the session was resumed, and its messages are not kept) the task's result stands
// in for it.
func (p *panel) answerLines(rc *renderCtx, width int) []string {
	text := p.sub.answer
	if text == "" || p.result.IsError {
		text = p.out.String()
	}
	all := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(all) == 1 && all[0] == "" {
		return nil
	}
	n := collapsedTail
	switch {
	case p.expanded:
		n = maxKeptLines
	case len(all) == n+1:
		n++ // a "+1 line" hint would take the room of the line it hides
	}
	var out []string
	for i, l := range all {
		if i == n {
			out = append(out, rc.st.dim.Render(fmt.Sprintf("+%s (%s to expand)", plural(len(all)-n, "line", "lines"), hintKeys(rc.keys.Expand))))
			break
		}
		out = append(out, fit(cleanLine(l), width))
	}
	return out
}

// lastLine is the last line of s that is not blank.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}
