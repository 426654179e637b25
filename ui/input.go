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
	ta.Placeholder = "Ask Warden to do something  (" + hintKeys(keys.Help) + " for keys)"
	ta.ShowLineNumbers = false
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.CharLimit = 0
	ta.MaxContentHeight = 0
	ta.SetVirtualCursor(false)
	// The editing keys the help lists are the editor's keys; those it would share with the root (Ctrl+B,
	// Ctrl+T, Ctrl+N/P) are left out.
	ta.KeyMap.InsertNewline = keys.Newline
	ta.KeyMap.CharacterBackward = keys.CharLeft
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	ta.KeyMap.LineNext = keys.NextPrompt
	ta.KeyMap.LinePrevious = keys.PrevPrompt
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
