package ui

import (
	tea "charm.land/bubbletea/v2"
)

func init() {
	registerBuiltin(Command{Name: "permissions", Desc: "the rules in force and where each comes from; remove one",
		Run: func(m *Model, _ string) tea.Cmd {
			e := m.opts.Engine
			if e == nil {
				return m.setFlash("No permission engine in this session")
			}
			p := newPicker("Permission rules · mode "+string(e.Mode()), "close", []string{"LIST", "RULE", "FROM"},
				func(m *Model, r pickRow) tea.Cmd { return m.pop(m.top()) })
			p.remove, p.removeVerb = func(m *Model, r pickRow) tea.Cmd {
				list, rule := r.cells[0], r.cells[1]
				if e.RemoveRule(list, rule) {
					p.said = "Removed " + rule + " for this session"
					if from := r.cells[2]; from != granted {
						p.said += "; it is still written in " + from
					}
					m.conv.add(&item{kind: itemInfo, text: "permissions: " + list + " rule " + rule + " removed for this session"})
				}
				p.setRows(m.ruleRows())
				return nil
			}, "remove for this session"
			p.setRows(m.ruleRows())
			m.push(p)
			return nil
		}})
}

// granted is where a rule added while Warden runs comes from.
const granted = "granted in this session"

// ruleRows are the rules in force: deny first, then ask, then allow, as the engine weighs them.
func (m *Model) ruleRows() ([]pickRow, string) {
	allow, deny, ask := m.opts.Engine.Rules()
	var rows []pickRow
	add := func(list string, rules []string) {
		for _, r := range rules {
			rows = append(rows, pickRow{cells: []string{list, r, m.ruleOrigin(list, r)}, value: list + " " + r})
		}
	}
	add("deny", deny)
	add("ask", ask)
	add("allow", allow)
	if len(rows) == 0 {
		return nil, "No rule is in force: read-only commands run, everything else asks (mode " + string(m.opts.Engine.Mode()) + ")."
	}
	return rows, ""
}

func (m *Model) ruleOrigin(list, rule string) string {
	if m.opts.RuleOrigin != nil {
		if from := m.opts.RuleOrigin(list, rule); from != "" {
			return shortPath(from)
		}
	}
	return granted
}
