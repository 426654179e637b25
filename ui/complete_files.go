package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/fileindex"
)

// @ completion: typing @ opens the menu on the workspace's files, from an index built in the background
// as the program starts (package fileindex), and built again after a request, which may have changed
// the tree.

// fileMatches is how many files the menu keeps for a query.
const fileMatches = 50

func init() {
	registerOnStart(func(m *Model) tea.Cmd {
		if m.opts.Workspace == "" {
			return nil
		}
		return afterFirstFrame(func(m *Model) tea.Cmd { return m.indexFiles() })
	})
}

// indexFiles builds the file index again in the background; the menu keeps the last one until it is done.
func (m *Model) indexFiles() tea.Cmd {
	ix := fileindex.Build(m.opts.Workspace)
	if m.files == nil {
		m.files = ix
	}
	return func() tea.Msg {
		<-ix.Ready()
		return commandResult(func(m *Model) tea.Cmd {
			m.files = ix
			m.refreshMenu()
			return nil
		})
	}
}

// reindexMinAge is how old the file index must be before a finished request builds it again.
const reindexMinAge = 5 * time.Second

// reindexFiles builds the file index again after a request, which may have added or removed files.
func (m *Model) reindexFiles() tea.Cmd {
	if m.files == nil {
		return nil
	}
	if built := m.files.Built(); built.IsZero() || time.Since(built) < reindexMinAge {
		return nil
	}
	return m.indexFiles()
}

// mentionAtCursor finds the @word the cursor is in: where its @ is on the line (in runes) and what
// follows it up to the cursor.
func (m *Model) mentionAtCursor() (at int, typed string, ok bool) {
	lines := strings.Split(m.input.Value(), "\n")
	row := m.input.Line()
	if row < 0 || row >= len(lines) {
		return 0, "", false
	}
	line := []rune(lines[row])
	col := min(m.input.Column(), len(line))
	for i := col - 1; i >= 0; i-- {
		switch r := line[i]; {
		case r == ' ' || r == '\t':
			return 0, "", false
		case r == '@' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return i, string(line[i+1 : col]), true
		}
	}
	return 0, "", false
}

// refreshFileMenu opens the menu on the files that match the @word being typed.
func (m *Model) refreshFileMenu() {
	mn := &m.menu
	at, typed, ok := m.mentionAtCursor()
	if !ok || m.files == nil {
		return
	}
	mn.kind, mn.typed, mn.mentionAt = menuFiles, typed, at
	mn.items = mn.items[:0]
	for _, p := range m.files.Match(typed, fileMatches) {
		it := menuItem{value: p, label: escapeLine(p)}
		if strings.HasSuffix(p, "/") {
			it.desc = "folder"
		}
		mn.items = append(mn.items, it)
	}
	done, partial, count, err := m.files.State()
	switch {
	case err != nil:
		mn.note = "the workspace's files could not be listed: " + err.Error()
	case !done:
		mn.note = "indexing the workspace… " + plural(count, "file", "files") + " so far"
	case len(mn.items) == 0:
		mn.note = "no file matches @" + typed
	case partial:
		mn.note = "only the first " + commas(count) + " files are indexed"
	}
}

// replaceMention puts path in place of the @word being completed. A folder keeps the menu open on its
// contents; a file ends the mention with a space.
func (m *Model) replaceMention(path string) {
	_, typed, ok := m.mentionAtCursor()
	if !ok {
		return
	}
	for range []rune(typed) {
		m.input, _ = m.input.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	text := path
	if strings.ContainsAny(path, " \t") {
		text = `"` + path + `"`
	}
	if !strings.HasSuffix(path, "/") {
		text += " "
	}
	m.input.InsertString(text)
}
