package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The first screens, before anything runs: what to set when there is no model server, whether to go on
// without the sandbox the person asked for, and whether to trust a workspace whose settings loosen
// permissions. Both questions are confirms, armed a moment after start so that keys typed while Warden
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

// trustQuestion asks whether to trust a workspace whose project settings loosen permissions (DESIGN.md §6).
func (m *Model) trustQuestion(items []string) *confirm {
	q := &confirm{title: "Trust this workspace?", armedAt: m.now().Add(typeAheadGuard)}
	q.body = func(st *styles, width int) string {
		var sb strings.Builder
		sb.WriteString(wrap("Until you trust this workspace, Warden ignores its settings that would loosen permissions and starts no MCP server in it:", width))
		sb.WriteString("\n\n")
		for _, it := range items {
			sb.WriteString(wrap(st.warn.Render("• "+it), width) + "\n")
		}
		sb.WriteString("\n" + wrap("Trust it only if you trust everyone who can change these files.", width))
		return sb.String()
	}
	q.choices = []choice{
		{keys: []key.Binding{m.keys.Yes}, does: "trust", msg: commandResult(func(m *Model) tea.Cmd { return m.trustWorkspace(q) })},
		{keys: []key.Binding{m.keys.No}, does: "keep ignoring", msg: commandResult(func(m *Model) tea.Cmd {
			m.conv.add(&item{kind: itemNotice, text: "Workspace not trusted: what the list named stays ignored and no MCP server starts in it."})
			return m.pop(q)
		})},
	}
	return q
}

// trustWorkspace records the trust and applies what it lets in; when the record cannot be saved the
// question stays, saying why.
func (m *Model) trustWorkspace(q *confirm) tea.Cmd {
	if m.opts.Trust != nil {
		if err := m.opts.Trust(); err != nil {
			q.note = "Could not save the trust: " + err.Error()
			return nil
		}
	}
	m.opts.Trusted = true
	m.conv.add(&item{kind: itemNotice, text: "Workspace trusted: its allow rules, permission mode, commands, skills and MCP servers apply now, its other settings from the next start of warden."})
	return tea.Batch(m.pop(q), m.loadCustomCommands(), m.skillCommands())
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
