package ui

import tea "charm.land/bubbletea/v2"

// Start-up work that the first frame need not wait for (Options.Settle: how read-only commands are jailed,
// processes a killed Warden left running) runs once the frame is up; what it finds completes the header and
// /status, and what the person must hear of it joins the transcript.

func init() {
	registerOnStart(func(m *Model) tea.Cmd {
		settle := m.opts.Settle
		if settle == nil {
			return nil
		}
		return afterFirstFrame(func(*Model) tea.Cmd {
			return func() tea.Msg {
				wall, warnings := settle()
				return commandResult(func(m *Model) tea.Cmd {
					m.settled(wall, warnings)
					return nil
				})
			}
		})
	})
}

// settled applies what Options.Settle found.
func (m *Model) settled(wall string, warnings []string) {
	m.opts.Wall = wall
	for _, it := range m.conv.items {
		if it.kind == itemHeader {
			it.text = m.headerText()
			m.conv.changed(it)
		}
	}
	for _, w := range warnings {
		m.conv.add(&item{kind: itemNotice, text: w})
	}
}
