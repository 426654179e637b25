package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/config"
)

// The workspace's trust (DESIGN.md §6): what its files loosen is a list of items, each applied only once
// the person approved it as it is. At start the items that are new or changed since the person last
// answered are asked about, and only those; /trust asks about every item that waits, the declined ones
// too; a project command used before its folder is approved says so and names /trust.

// Trust is what the TUI needs of the workspace's trust: its items with the person's answers, and recording
// a new answer. The application's session holds it; approving applies at once what can change while
// Warden runs.
type Trust interface {
	Items() []config.TrustItem
	Approve(items []config.TrustItem) error
	Decline(items []config.TrustItem) error
}

func init() {
	registerBuiltin(Command{Name: "trust", Desc: "approve what this workspace's files loosen (rules, servers, hooks, its commands)",
		Run: func(m *Model, _ string) tea.Cmd { return m.trustCommand() }})
}

// trustItems are the workspace's items, none without a Trust.
func (m *Model) trustItems() []config.TrustItem {
	if m.opts.Trust == nil {
		return nil
	}
	return m.opts.Trust.Items()
}

// trusted reports a workspace whose files loosen something, all of it approved.
func (m *Model) trusted() bool {
	items := m.trustItems()
	return len(items) > 0 && !slices.ContainsFunc(items, config.TrustItem.Waits)
}

// waitingCount is how many of the workspace's items wait for approval.
func (m *Model) waitingCount() int {
	n := 0
	for _, it := range m.trustItems() {
		if it.Waits() {
			n++
		}
	}
	return n
}

// projectCommandsApproved reports that the project's commands and skills may be read: approved as they
// are now.
func (m *Model) projectCommandsApproved() bool {
	return slices.ContainsFunc(m.trustItems(), func(it config.TrustItem) bool { return it.Key == "commands" && !it.Waits() })
}

// askAtStart opens the question about the items that are new or changed, if any.
func (m *Model) askAtStart() {
	var asked []config.TrustItem
	for _, it := range m.trustItems() {
		if it.Asked() {
			asked = append(asked, it)
		}
	}
	if len(asked) > 0 {
		m.push(m.trustQuestion(asked, true))
	}
}

// trustCommand is /trust: the question about every item that waits, or what is approved when none does.
func (m *Model) trustCommand() tea.Cmd {
	if m.opts.Trust == nil {
		return m.setFlash("/trust is not available here")
	}
	var waiting []config.TrustItem
	for _, it := range m.trustItems() {
		if it.Waits() {
			waiting = append(waiting, it)
		}
	}
	if len(waiting) == 0 {
		text := "Nothing in this workspace waits for approval: its files loosen nothing."
		if n := len(m.trustItems()); n > 0 {
			text = fmt.Sprintf("Nothing in this workspace waits for approval: the %s its files loosen %s approved. `warden trust --list` lists them, `warden trust --revoke` takes them back.",
				plural(n, "item", "items"), map[bool]string{true: "is", false: "are"}[n == 1])
		}
		m.conv.add(&item{kind: itemNotice, text: text})
		return nil
	}
	m.push(m.trustQuestion(waiting, false))
	return nil
}

// offerTrust answers a command that is not known but is one of the project's commands or skills, which
// wait for approval: it says so and names /trust. It returns nil for any other name.
func (m *Model) offerTrust(name string) tea.Cmd {
	for _, it := range m.trustItems() {
		if it.Key == "commands" && it.Waits() && slices.Contains(it.Commands, name) {
			return m.setFlash(fmt.Sprintf("/%s is one of this project's commands, which wait for your approval: /trust shows what you would approve", name))
		}
	}
	return nil
}

// trustQuestion asks about items: at start those new or changed, where no records the decline; from /trust
// every item that waits, where no only closes the question.
func (m *Model) trustQuestion(items []config.TrustItem, atStart bool) *confirm {
	q := &confirm{title: "Trust this workspace?", armedAt: m.now().Add(typeAheadGuard)}
	approvedBefore := len(m.trustItems()) - m.waitingCount()
	q.body = func(st *styles, width int) string {
		var sb strings.Builder
		sb.WriteString(wrap("This workspace's files loosen what Warden may do. Until you approve them, Warden leaves these out, and starts no server or hook they name:", width))
		sb.WriteString("\n\n")
		for _, it := range items {
			line := it.String()
			switch it.State {
			case config.TrustChanged:
				line = "(changed) " + line
			case config.TrustDeclined:
				line = "(declined before) " + line
			}
			// Wrapped under its own start, so that each item reads as one.
			sb.WriteString(st.warn.Render("•") + " " + strings.ReplaceAll(wrap(line, max(width-2, 10)), "\n", "\n  ") + "\n")
		}
		if approvedBefore > 0 {
			sb.WriteString("\n" + wrap(fmt.Sprintf("What you approved before and is unchanged (%s) still applies.", plural(approvedBefore, "item", "items")), width) + "\n")
		}
		sb.WriteString("\n" + wrap("Approve them only if you trust everyone who can change these files. Declined, they stay off and are asked about again when they change; /trust approves them later.", width))
		return sb.String()
	}
	decline := choice{keys: []key.Binding{m.keys.No}, does: "decline", msg: commandResult(func(m *Model) tea.Cmd {
		text := "Not approved: what the list named stays off, and Warden asks again when it changes; /trust approves it."
		if err := m.opts.Trust.Decline(items); err != nil {
			text = "Not approved: what the list named stays off, but the answer could not be saved (" + err.Error() + "), so Warden asks again at the next start."
		}
		m.conv.add(&item{kind: itemNotice, text: text})
		return m.pop(q)
	})}
	if !atStart {
		decline = choice{keys: []key.Binding{m.keys.No}, does: "not now", msg: commandResult(func(m *Model) tea.Cmd { return m.pop(q) })}
	}
	q.choices = []choice{
		{keys: []key.Binding{m.keys.Yes}, does: "approve", msg: commandResult(func(m *Model) tea.Cmd { return m.approve(q, items) })},
		decline,
	}
	return q
}

// approve records items as approved and applies them; when the record cannot be saved the question stays,
// saying why.
func (m *Model) approve(q *confirm, items []config.TrustItem) tea.Cmd {
	if err := m.opts.Trust.Approve(items); err != nil {
		q.note = "Could not save the trust: " + err.Error()
		return nil
	}
	m.conv.add(&item{kind: itemNotice, text: fmt.Sprintf("Approved %s: allow rules, the permission mode, commands, skills and MCP servers apply now, other settings from the next start of warden.",
		plural(len(items), "item", "items"))})
	return tea.Batch(m.pop(q), m.loadCustomCommands(), m.skillCommands())
}
