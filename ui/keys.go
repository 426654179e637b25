package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyMap is every key the program acts on, declared once. Every key press is matched against these with
// key.Matches, the prompt editor's and the pager's own bindings are set from them (newInput, newTextPager),
// and what the screen says about keys is written from them: the help overlay lists every group of
// helpGroups, and the hints name a binding's keys (hintKey, hintKeys). A key changed here changes what it
// does, what `?` lists and what the hints say, together.
type keyMap struct {
	// The prompt. PrevPrompt and NextPrompt move between the lines of a prompt, and past its first or last
	// line recall the prompts sent before.
	Send, Newline, PrevPrompt, NextPrompt, CharLeft, Help key.Binding

	// Typing while the agent works (queue.go): Steer sends the prompt into the turn under way, at its next
	// tool boundary, instead of queueing it; EditQueued (with the prompt empty) takes the newest waiting
	// message back into the prompt, RemoveQueued drops it.
	Steer, EditQueued, RemoveQueued key.Binding

	// Editing the prompt: the prompt editor's own bindings are set from these (newInput), and Redraw.
	KillToStart, KillToEnd, KillWord, WordLeft, WordRight, Redraw key.Binding

	// The session, from the main screen.
	Interrupt, Quit, History, Expand, Background, Mode key.Binding
	ScrollUp, ScrollDown, Follow, FocusPrev, FocusNext key.Binding
	Copy, Reasoning                                    key.Binding

	// The completion menu under the prompt, and the pickers (/model, /resume, /tasks, /permissions), whose
	// filter takes every key that types.
	MenuUp, MenuDown, Complete, PickerRemove key.Binding

	// The approval modal. ModalScroll are the keys that scroll a long command (they type nothing, so
	// they are never an answer); which way each goes is the reading bindings' (Up, Down, PageUp...).
	Allow, AllowSession, AllowProject, Deny, DenyWithReason, ModalScroll key.Binding

	// Confirming and going back where letters are typed: the modal's rule and reason, the history's
	// filter.
	Confirm, Cancel key.Binding

	// The questions (confirm): trusting the workspace, running without the sandbox, restoring files,
	// and what /rewind takes back.
	Yes, No, RewindBoth, RewindFiles, RewindConversation key.Binding

	// The plan the model presents in plan mode (plan.go): approve it into default or accept-edits mode,
	// or keep planning and tell the model why.
	PlanApprove, PlanAcceptEdits, PlanKeep key.Binding

	// Reading: the tool history, the pager, /mcp, this help, a long question. Letters are keys here,
	// not a filter.
	Filter, Open, Diff, Back, Up, Down key.Binding
	PageUp, PageDown, Top, Bottom      key.Binding
	HalfPageUp, HalfPageDown           key.Binding
}

// defaultKeys is the key map of every program; the commands' descriptions, written before any program
// exists, name their keys from it.
var defaultKeys = newKeyMap()

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Send:       b("enter", "send", "enter"),
		Newline:    b("shift+enter/ctrl+j", "new line", "shift+enter", "ctrl+j"),
		PrevPrompt: b("↑", "line up, or previous prompt", "up"),
		NextPrompt: b("↓", "line down, or next prompt", "down"),
		CharLeft:   b("←", "character left", "left"),
		Help:       b("?", "this help (empty input)", "?"),

		Steer:        b("ctrl+s", "steer: send it now", "ctrl+s"),
		EditQueued:   b("↑", "edit last queued", "up"),
		RemoveQueued: b("ctrl+x", "drop last queued", "ctrl+x"),

		KillToStart: b("ctrl+u", "delete to line start", "ctrl+u"),
		KillToEnd:   b("ctrl+k", "delete to line end", "ctrl+k"),
		KillWord:    b("ctrl+w", "delete word before", "ctrl+w", "alt+backspace"),
		WordLeft:    b("alt+←", "word left", "alt+left", "alt+b", "ctrl+left"),
		WordRight:   b("alt+→", "word right", "alt+right", "alt+f", "ctrl+right"),
		Redraw:      b("ctrl+l", "redraw the screen", "ctrl+l"),

		Interrupt:  b("esc", "stop, or clear prompt", "esc"),
		Quit:       b("ctrl+c ×2", "quit", "ctrl+c"),
		History:    b("ctrl+t", "tool history", "ctrl+t"),
		Expand:     b("ctrl+o", "expand output", "ctrl+o"),
		Background: b("ctrl+b", "run in background", "ctrl+b"),
		Mode:       b("shift+tab", "permission mode", "shift+tab"),
		ScrollUp:   b("pgup", "scroll up", "pgup"),
		ScrollDown: b("pgdn", "scroll down", "pgdown"),
		Follow:     b("end", "follow the newest", "end"),
		FocusPrev:  b("alt+↑", "previous panel", "alt+up"),
		FocusNext:  b("alt+↓", "next panel", "alt+down"),
		Copy:       b("ctrl+y", "copy panel output", "ctrl+y"),
		Reasoning:  b("ctrl+r", "show/hide reasoning", "ctrl+r"),

		MenuUp:       b("↑", "menu or picker: previous", "up"),
		MenuDown:     b("↓", "menu or picker: next", "down"),
		Complete:     b("tab", "complete command or file", "tab"),
		PickerRemove: b("del/ctrl+d", "remove/stop (pickers)", "delete", "ctrl+d"),

		Allow:          b("y", "allow once", "y"),
		AllowSession:   b("a", "always allow (session)", "a"),
		AllowProject:   b("p", "always allow (project)", "p"),
		Deny:           b("n/esc", "deny", "n", "esc"),
		DenyWithReason: b("d", "deny and say why", "d"),
		ModalScroll:    b("↑↓ PgUp/PgDn Home/End", "read it all", "up", "down", "pgup", "pgdown", "home", "end"),

		Confirm: b("enter", "save rule / send reason", "enter"),
		Cancel:  b("esc", "back from rule or reason", "esc"),

		Yes:                b("y", "yes", "y"),
		No:                 b("n/esc", "no", "n", "esc"),
		RewindBoth:         b("b", "/rewind: both", "b"),
		RewindFiles:        b("f", "/rewind: the files", "f"),
		RewindConversation: b("c", "/rewind: conversation", "c"),

		PlanApprove:     b("y", "plan: approve", "y"),
		PlanAcceptEdits: b("a", "plan: accept edits", "a"),
		PlanKeep:        b("n/esc", "plan: keep planning", "n", "esc"),

		Filter: b("/", "filter (pickers: just type)", "/"),
		Open:   b("enter", "open; choose (pickers)", "enter"),
		Diff:   b("d", "the call's diff", "d"),
		Back:   b("esc/q", "back (pickers: esc)", "esc", "q"),
		Up:     b("↑/k", "up (pickers: ↑)", "up", "k"),
		Down:   b("↓/j", "down (pickers: ↓)", "down", "j"),

		PageUp:       b("pgup/b", "page up", "pgup", "b"),
		PageDown:     b("pgdn/f/space", "page down", "pgdown", "f", "space"),
		Top:          b("g/home", "top", "g", "home"),
		Bottom:       b("G/end", "bottom", "G", "end"),
		HalfPageUp:   b("u/ctrl+u", "half a page up (output)", "u", "ctrl+u"),
		HalfPageDown: b("d/ctrl+d", "half a page down (output)", "d", "ctrl+d"),
	}
}

// keyGroup is one column of the help: a title and its bindings.
type keyGroup struct {
	title    string
	bindings []key.Binding
}

// helpGroups are the help overlay's columns, one per place the keys act; together they hold every
// binding of the map (TestHelpListsEveryBindingOfTheKeyMap).
func (k keyMap) helpGroups() []keyGroup {
	return []keyGroup{
		{"Input", []key.Binding{k.Send, k.Newline, k.PrevPrompt, k.NextPrompt, k.CharLeft, k.Complete, k.Help,
			k.MenuUp, k.MenuDown, k.PickerRemove}},
		{"Approval modal", []key.Binding{k.Allow, k.AllowSession, k.AllowProject, k.Deny, k.DenyWithReason, k.ModalScroll,
			k.Confirm, k.Cancel}},
		{"Questions", []key.Binding{k.Yes, k.No, k.RewindBoth, k.RewindFiles, k.RewindConversation,
			k.PlanApprove, k.PlanAcceptEdits, k.PlanKeep}},
		{"Editing; while it works", []key.Binding{k.KillToStart, k.KillToEnd, k.KillWord, k.WordLeft, k.WordRight, k.Redraw,
			k.Steer, k.EditQueued, k.RemoveQueued}},
		{"Session", []key.Binding{k.Interrupt, k.Background, k.Mode, k.History, k.Expand, k.FocusPrev, k.FocusNext, k.Copy,
			k.Reasoning, k.ScrollUp, k.ScrollDown, k.Follow, k.Quit}},
		{"History and output", []key.Binding{k.Filter, k.Open, k.Diff, k.Back, k.Up, k.Down, k.PageUp, k.PageDown,
			k.Top, k.Bottom, k.HalfPageUp, k.HalfPageDown}},
	}
}

// FullHelp is the help overlay's bindings, one column per group (the bubbles/help KeyMap shape).
func (k keyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.helpGroups() {
		out = append(out, g.bindings)
	}
	return out
}

// keyNames are how a hint writes the keys whose names are words.
var keyNames = map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn", "delete": "del"}

// hintKeys writes bindings for a hint by their first keys, "/" between: "↑/↓", "g/G", "esc".
func hintKeys(bs ...key.Binding) string {
	names := make([]string, 0, len(bs))
	for _, b := range bs {
		if ks := b.Keys(); len(ks) > 0 {
			k := ks[0]
			if n, ok := keyNames[k]; ok {
				k = n
			}
			names = append(names, k)
		}
	}
	return strings.Join(names, "/")
}

// hintKey writes a binding for a hint as the help lists it ("n/esc"): where every key of it answers.
func hintKey(b key.Binding) string { return b.Help().Key }

// sentenceKey writes a binding's first key for the start of a sentence: "Ctrl+C".
func sentenceKey(b key.Binding) string {
	parts := strings.Split(hintKeys(b), "+")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}

// hint joins the parts of a key hint: "↑/↓ select · enter full output · esc back".
func hint(parts ...string) string { return strings.Join(parts, " · ") }
