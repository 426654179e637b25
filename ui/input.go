package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
)

// newInput is the prompt editor: it grows with its text up to a third of the screen; Enter sends, so
// new lines are Shift+Enter or Ctrl+J, and the bindings the root uses (Ctrl+B, Ctrl+T) are taken out of
// the textarea's own map.
func newInput(isDark bool, keys keyMap) textarea.Model {
	ta := textarea.New()
	ta.Prompt = "❯ "
	// Only the first row gets the mark: a second line, or a row the text wrapped to, is not a new prompt.
	ta.SetPromptFunc(2, func(info textarea.PromptInfo) string {
		if info.LineNumber == 0 {
			return "❯ "
		}
		return "  "
	})
	ta.Placeholder = "Ask Warden to do something  (? for keys)"
	ta.ShowLineNumbers = false
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.CharLimit = 0
	ta.MaxContentHeight = 0
	ta.SetVirtualCursor(false)
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "ctrl+j"))
	ta.KeyMap.CharacterBackward = key.NewBinding(key.WithKeys("left"))
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	// The editing keys the help lists are the editor's keys.
	ta.KeyMap.DeleteBeforeCursor = keys.KillToStart
	ta.KeyMap.DeleteAfterCursor = keys.KillToEnd
	ta.KeyMap.DeleteWordBackward = keys.KillWord
	ta.KeyMap.WordBackward = keys.WordLeft
	ta.KeyMap.WordForward = keys.WordRight
	ta.SetStyles(inputStyles(isDark))
	ta.SetHeight(1)
	return ta
}

func inputStyles(isDark bool) textarea.Styles {
	s := textarea.DefaultStyles(isDark)
	s.Focused.CursorLine = s.Focused.CursorLine.UnsetBackground()
	s.Focused.Base = s.Focused.Base.UnsetBorderStyle()
	s.Blurred.Base = s.Blurred.Base.UnsetBorderStyle()
	return s
}
