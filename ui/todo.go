package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warden-cli/warden/tools"
)

// The model's checklist (the todo_write tool) is pinned above the prompt, as the latest successful call of
// the main agent left it, while it has steps left or the request that wrote it runs.

// todoRows is how many lines the pinned list takes at most, its title included; a short screen gives it
// a quarter of its rows.
const todoRows = 8

// todoInput reads the list a todo_write call sends.
func todoInput(input json.RawMessage) []tools.TodoItem {
	var p tools.TodoParams
	if json.Unmarshal(input, &p) != nil || tools.CheckTodos(p.Todos) != nil {
		return nil
	}
	return p.Todos
}

// takeTodos pins the list of a finished todo_write call of the main agent.
func (m *Model) takeTodos(p *panel) {
	if p.tool != "todo_write" || p.parent != nil || p.result.IsError || p.state != stateDone {
		return
	}
	m.todos, m.todosSet = p.todos, true
}

// todoView is the pinned list's lines; nil when there is nothing to show.
func (m *Model) todoView(width int) []string {
	items := m.todos
	if !m.todosSet || len(items) == 0 {
		return nil
	}
	done := 0
	for _, t := range items {
		if t.Status == tools.TodoCompleted {
			done++
		}
	}
	if done == len(items) && m.run == nil {
		return nil
	}
	st := m.st
	lines := []string{st.bold.Render("Todo") + st.dim.Render(fmt.Sprintf(" · %d of %d done", done, len(items)))}
	// A short screen keeps most of its rows for the conversation.
	rows := min(todoRows, max(m.height/4, 3))
	shown := items
	if len(items) > rows-1 && done > 0 {
		// Short of room, the finished steps give way first, counted on one line.
		shown = nil
		for _, t := range items {
			if t.Status != tools.TodoCompleted {
				shown = append(shown, t)
			}
		}
		if rows > 4 {
			// The title counts them already: on a short screen that is enough.
			lines = append(lines, st.dim.Render(fit(fmt.Sprintf("  ✓ %d done", done), width)))
		}
	}
	room := rows - len(lines)
	for i, t := range shown {
		if i == room-1 && len(shown) > room {
			lines = append(lines, st.dim.Render(fmt.Sprintf("  … %d more", len(shown)-i)))
			break
		}
		lines = append(lines, fit(todoLine(st, t), width))
	}
	return lines
}

func todoLine(st styles, t tools.TodoItem) string {
	switch t.Status {
	case tools.TodoCompleted:
		return st.dim.Render("  ☑ " + flatten(t.Content))
	case tools.TodoInProgress:
		text := t.ActiveForm
		if text == "" {
			text = t.Content
		}
		return st.accent.Render("  ◐ " + flatten(text))
	}
	return "  ☐ " + flatten(t.Content)
}

// flatten puts text on one line.
func flatten(s string) string { return strings.Join(strings.Fields(s), " ") }
