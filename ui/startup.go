package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The first screens, before anything runs: what to set when there is no model server, whether to go on
// without the sandbox the person asked for, and whether to approve what a workspace's files loosen
// (trust.go). Both questions are confirms, armed a moment after start so that keys typed while Warden
// starts, meant for the prompt, answer neither.

// setupOverlay is the first screen when there is no model server: what is wrong and what to set.
type setupOverlay struct{ text string }

func (s *setupOverlay) fullScreen() bool { return true }

func (s *setupOverlay) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, c.keys.Back, c.keys.Confirm) {
		return nil, tea.Quit
	}
	return nil, nil
}

func (s *setupOverlay) view(c overlayCtx, width, height int) string {
	st := c.st
	body := "\n" + wrap(st.errText.Render("Warden cannot start a conversation yet."), width) + "\n\n" + wrap(s.text, width) +
		"\n\n" + wrap(st.dim.Render("Then start warden again."), width)
	return frame(c, "Setup needed", body, hintKey(c.keys.Back)+" or "+hintKey(c.keys.Confirm)+" quit", width, height)
}

// sandboxOff is the status line's sandbox label once the person chose to run without one.
const sandboxOff = "sandbox: off"

// sandboxQuestion asks, before anything runs, whether to go on without the sandbox the person asked for
// but that cannot be had here; no quits.
func (m *Model) sandboxQuestion(problem string) *confirm {
	q := &confirm{title: "No sandbox", armedAt: m.now().Add(typeAheadGuard)}
	q.body = func(st *styles, width int) string {
		return "\n" + wrap(st.errText.Render("The sandbox you asked for cannot be used here."), width) + "\n\n" +
			wrap(problem, width) + "\n\n" +
			wrap("Without it, commands you allow run with your full access to this machine; the permission rules still decide what runs.", width) +
			"\n\n" + wrap(st.bold.Render("Run without the sandbox?"), width)
	}
	q.choices = []choice{
		{keys: []key.Binding{m.keys.Yes}, does: "run unsandboxed", msg: commandResult(func(m *Model) tea.Cmd {
			if m.opts.RunUnsandboxed != nil {
				m.opts.RunUnsandboxed()
			}
			m.opts.Sandbox = sandboxOff
			m.conv.add(&item{kind: itemNotice, text: "Running without a sandbox: commands have your full access, limited only by the permission rules."})
			return m.pop(q)
		})},
		{keys: []key.Binding{m.keys.No, m.keys.Back}, does: "quit", msg: commandResult(func(*Model) tea.Cmd { return tea.Quit })},
	}
	return q
}
