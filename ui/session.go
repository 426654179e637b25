package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// openSession puts another session in place of this one: a new one for id "" (/clear, /new), else the
// saved session id (/resume). The prompt history stays; the transcript, the calls and the usage are the
// new session's.
func (m *Model) openSession(id string) tea.Cmd {
	if m.opts.OpenSession == nil {
		return m.setFlash("This build cannot switch sessions")
	}
	s, err := m.opts.OpenSession(id, m.send.event, approver{m.send})
	if err != nil {
		m.conv.add(&item{kind: itemError, text: "could not open the session: " + err.Error()})
		return nil
	}
	m.agent = s.Agent
	left, model := m.opts.SessionID, m.opts.Model
	m.opts.SessionID = s.ID
	if s.Resumed == nil && model != "" && s.Model != model {
		// A new conversation goes on with the model chosen with /model.
		if err := s.Agent.SetModel(model); err == nil {
			s.Model = model
		}
	}
	if s.Model != "" {
		m.opts.Model = s.Model
	}
	m.resetConversation()
	if s.Resumed != nil {
		m.restore(s.Resumed)
		if s.Model != model {
			m.conv.add(&item{kind: itemInfo, text: "model: " + s.Model + ", the one this session used"})
		}
		return nil
	}
	m.addHeader()
	note := "new session " + s.ID
	if left != "" {
		note += "; /resume " + left + " goes back to the one before"
	}
	m.conv.add(&item{kind: itemInfo, text: note})
	return nil
}

// resetConversation forgets everything the transcript showed.
func (m *Model) resetConversation() {
	m.conv = conversation{top: -1}
	m.panels, m.calls, m.byID, m.focus = nil, nil, map[string]*panel{}, -1
	m.usage = agent.UsageUpdated{}
	m.queued, m.cutOff, m.retry = nil, nil, ""
	m.todos, m.todosSet = nil, false
	m.layout()
}
