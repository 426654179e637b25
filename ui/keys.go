package ui

import "charm.land/bubbles/v2/key"

// keyMap is every binding the program acts on. The help overlay renders FullHelp (the bubbles/help
// KeyMap shape), so what `?` shows can never drift from what the keys do.
type keyMap struct {
	Send, Newline, PrevPrompt, NextPrompt key.Binding
	Interrupt, Quit                       key.Binding
	History, Expand, Background, Mode     key.Binding
	ScrollUp, ScrollDown, Follow          key.Binding
	FocusPrev, FocusNext, Copy, Reasoning key.Binding
	Help                                  key.Binding

	// The completion menu under the prompt, and the pickers (/model, /resume, /tasks, /permissions).
	MenuUp, MenuDown, Complete, PickerRemove key.Binding

	// Editing the prompt: the prompt editor's own bindings are set from these (newInput), and Redraw.
	KillToStart, KillToEnd, KillWord, WordLeft, WordRight, Redraw key.Binding

	// The approval modal.
	Allow, AllowSession, AllowProject, Deny, DenyWithReason, Confirm, ModalScroll key.Binding

	// The tool history and the pager.
	Filter, Open, Back, Up, Down  key.Binding
	PageUp, PageDown, Top, Bottom key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Send:       b("enter", "send", "enter"),
		Newline:    b("shift+enter/ctrl+j", "new line", "shift+enter", "ctrl+j"),
		PrevPrompt: b("↑", "previous prompt", "up"),
		NextPrompt: b("↓", "next prompt", "down"),
		Interrupt:  b("esc", "interrupt, or clear prompt", "esc"),
		Quit:       b("ctrl+c ×2", "quit", "ctrl+c"),
		History:    b("ctrl+t", "tool history", "ctrl+t"),
		Expand:     b("ctrl+o", "expand output", "ctrl+o"),
		Background: b("ctrl+b", "run in background", "ctrl+b"),
		Mode:       b("shift+tab", "permission mode", "shift+tab"),
		ScrollUp:   b("pgup", "scroll up", "pgup"),
		ScrollDown: b("pgdn", "scroll down", "pgdown"),
		Follow:     b("end", "back to the newest (scrolled up)", "end"),
		FocusPrev:  b("alt+↑", "previous panel", "alt+up"),
		FocusNext:  b("alt+↓", "next panel", "alt+down"),
		Copy:       b("ctrl+y", "copy panel output", "ctrl+y"),
		Reasoning:  b("ctrl+r", "show/hide reasoning", "ctrl+r"),
		Help:       b("?", "keys and commands (empty input)", "?"),

		MenuUp:       b("↑/↓", "choose in / and @ menus", "up"),
		MenuDown:     b("↓", "next in the menu", "down"),
		Complete:     b("tab", "complete command or file", "tab"),
		PickerRemove: b("del/ctrl+d", "remove/stop (pickers)", "delete", "ctrl+d"),

		KillToStart: b("ctrl+u", "delete to line start", "ctrl+u"),
		KillToEnd:   b("ctrl+k", "delete to line end", "ctrl+k"),
		KillWord:    b("ctrl+w", "delete word before", "ctrl+w", "alt+backspace"),
		WordLeft:    b("alt+←", "word left", "alt+left", "alt+b", "ctrl+left"),
		WordRight:   b("alt+→", "word right", "alt+right", "alt+f", "ctrl+right"),
		Redraw:      b("ctrl+l", "redraw the screen", "ctrl+l"),

		Allow:          b("y", "allow once", "y"),
		AllowSession:   b("a", "always allow (session)", "a"),
		AllowProject:   b("p", "always allow (project)", "p"),
		Deny:           b("n/esc", "deny", "n", "esc"),
		DenyWithReason: b("d", "deny and say why", "d"),
		Confirm:        b("enter", "confirm", "enter"),
		ModalScroll:    b("↑↓ pgup/pgdn", "read a long command", "up", "down", "pgup", "pgdown", "home", "end"),

		Filter: b("/", "filter (pickers: just type)", "/"),
		Open:   b("enter", "open output; choose (pickers)", "enter"),
		Back:   b("esc/q", "back (pickers: esc)", "esc", "q"),
		Up:     b("↑/k", "up (pickers: ↑)", "up", "k"),
		Down:   b("↓/j", "down (pickers: ↓)", "down", "j"),

		PageUp:   b("pgup", "page up", "pgup"),
		PageDown: b("pgdn", "page down", "pgdown"),
		Top:      b("g/home", "top (output)", "g", "home"),
		Bottom:   b("G/end", "bottom (output)", "G", "end"),
	}
}

// ShortHelp is the status line's hint.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.History, k.Interrupt}
}

// FullHelp is the `?` overlay, one column per area.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.PrevPrompt, k.NextPrompt, k.MenuUp, k.Complete, k.Help},
		{k.KillToStart, k.KillToEnd, k.KillWord, k.WordLeft, k.WordRight, k.Redraw},
		{k.Interrupt, k.Background, k.Mode, k.History, k.Expand, k.FocusPrev, k.FocusNext, k.Copy, k.Reasoning,
			k.ScrollUp, k.ScrollDown, k.Follow, k.Quit},
		{k.Allow, k.AllowSession, k.AllowProject, k.Deny, k.DenyWithReason, k.Confirm, k.ModalScroll},
		{k.Filter, k.Open, k.Back, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.PickerRemove},
	}
}
