package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

// What calls changed in the workspace: each checkpointed call's panel ends with a line saying so
// ("changed 3 files (+12 −4)", one line per file when expanded), the history has a column for it and
// shows each file's diff (d), and changes made outside Warden between calls are said in the
// transcript as such.

// maxChangeLines bounds the files an expanded panel lists.
const maxChangeLines = 20

// changesLines are the lines a panel ends with for what its call changed.
func (p *panel) changesLines(rc *renderCtx, width int) []string {
	shown := checkpoint.Shown(p.changes)
	if len(shown) == 0 {
		return nil
	}
	st := rc.st
	out := []string{st.accent.Render("±") + " " + st.dim.Render(fit(checkpoint.Summary(p.changes)+changesHint(rc, p), max(width-2, 1)))}
	if !p.expanded {
		return out
	}
	for i, c := range shown {
		if i == maxChangeLines {
			out = append(out, st.dim.Render(fmt.Sprintf("  … and %d more (%s, %s shows them all)", len(shown)-i, hintKeys(rc.keys.History), hintKeys(rc.keys.Diff))))
			break
		}
		out = append(out, "  "+changeLine(rc.st, c, width-2))
	}
	return out
}

func changesHint(rc *renderCtx, p *panel) string {
	if p.expanded {
		return ""
	}
	return " · " + hintKeys(rc.keys.Expand) + " lists them"
}

// changeLine is one file: its letter coloured by what happened, its path and counts.
func changeLine(st *styles, c checkpoint.Change, width int) string {
	line := c.String()
	letter, rest, _ := strings.Cut(line, " ")
	style := st.warn
	switch c.Status {
	case checkpoint.Added:
		style = st.ok
	case checkpoint.Deleted:
		style = st.fail
	}
	return style.Render(letter) + " " + fit(escapeLine(rest), max(width-2, 1))
}

// changesCell is the history's changes column: "3 files +12 −4", or "-".
func changesCell(p *panel) string {
	shown := checkpoint.Shown(p.changes)
	if len(shown) == 0 {
		return "-"
	}
	added, removed := 0, 0
	for _, c := range shown {
		added += c.Added
		removed += c.Removed
	}
	s := plural(len(shown), "file", "files")
	if added > 0 || removed > 0 {
		s += fmt.Sprintf(" +%d −%d", added, removed)
	}
	return s
}

// filesChanged applies a FilesChanged event of the agent of scope.
func (m *Model) filesChanged(scope *panel, e agent.FilesChanged) {
	switch e.By {
	case agent.ByTask:
		if p := m.call(scope, e.CallID); p != nil {
			p.changes = e.Changes
			p.out.version++
			m.conv.version++
		}
	case agent.ByOutside:
		if len(e.Changes) > 0 {
			// Said before the call whose snapshot found it: it happened before that call ran.
			m.addBefore(scope, e.BeforeCall, &item{kind: itemNotice, text: "changed outside Warden since the last call: " + changeList(e.Changes)})
		}
	case agent.ByUndo:
		if len(e.Changes) > 0 {
			m.conv.add(&item{kind: itemInfo, text: "↶ files restored: " + changeList(e.Changes)})
		}
	}
}

// changeList names the files of changes, a few of them, with the summary.
func changeList(changes []checkpoint.Change) string {
	shown := checkpoint.Shown(changes)
	var names []string
	for i, c := range shown {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(shown)-i))
			break
		}
		name := c.Path
		if c.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ") + " · " + strings.TrimPrefix(checkpoint.Summary(changes), "changed ")
}

// addBefore puts it in the transcript just before the panel of the call callID (of the agent of scope;
// a sub-agent's call is inside its task's panel, so before that), or at the end when there is none.
func (m *Model) addBefore(scope *panel, callID string, it *item) {
	p := m.call(scope, callID)
	for p != nil && p.parent != nil {
		p = p.parent
	}
	if p != nil {
		for i, x := range m.conv.items {
			if x.panel == p {
				m.conv.items = slices.Insert(m.conv.items, i, it)
				m.conv.version++
				return
			}
		}
	}
	m.conv.add(it)
}

// newDiffPager shows every file a call changed, each with its diff.
func newDiffPager(m *Model, p *panel) *pager {
	st := m.st
	width := max(m.width, 20)
	var lines []string
	for _, c := range checkpoint.Shown(p.changes) {
		lines = append(lines, st.bold.Render(fit("── "+escapeLine(c.String())+" ", width)))
		text, err := "", error(nil)
		if m.agent != nil {
			text, err = m.agent.Diff(c)
		} else {
			err = fmt.Errorf("no session")
		}
		if err != nil {
			lines = append(lines, st.errText.Render(cleanLine(err.Error())))
		} else {
			lines = append(lines, diffLines(text, width, st)...)
		}
		lines = append(lines, "")
	}
	title := fmt.Sprintf("%s · %s · %s", p.tool, fit(p.target(), 50), checkpoint.Summary(p.changes))
	return newLinesPager(m.overlayCtx(), title, "what the call changed in the workspace", "", lines)
}

// restoreChanges shows a recorded FilesChanged of a resumed session; p is the call a task's changes
// belong to.
func (m *Model) restoreChanges(p *panel, r agent.Record) {
	if r.By == agent.ByTask {
		if p != nil {
			p.changes = r.Changes
			p.out.version++
		}
		return
	}
	m.filesChanged(nil, agent.FilesChanged{By: r.By, BeforeCall: r.BeforeCall, Changes: r.Changes})
}

// anyChanges reports whether a call changed anything: only then has the history a changes column.
func anyChanges(calls []*panel) bool {
	for _, p := range calls {
		if len(p.changes) > 0 {
			return true
		}
	}
	return false
}
