package ui

import tea "charm.land/bubbletea/v2"

// What the command line asks of the first screen: the session picker (--resume without an id) and a
// first prompt (warden "PROMPT"), with what was piped to it, which waits until the questions asked at
// start are answered.

func init() {
	registerOnStart(func(m *Model) tea.Cmd {
		pick, prompt := m.opts.PickSession, m.opts.Prompt
		if !pick && prompt == "" {
			return nil
		}
		return func() tea.Msg {
			return commandResult(func(m *Model) tea.Cmd {
				m.pendingPrompt = prompt
				if pick && m.opts.SetupError == "" {
					m.pickSession()
				}
				return m.sendPending()
			})
		}
	})
}

// sendPending sends the first prompt once no question or picker is on screen.
func (m *Model) sendPending() tea.Cmd {
	if m.pendingPrompt == "" || len(m.overlays) > 0 {
		return nil
	}
	p := m.pendingPrompt
	m.pendingPrompt = ""
	m.remember(p)
	return m.sendRequest(request{text: p, piped: m.opts.Piped})
}
