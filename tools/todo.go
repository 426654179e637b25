package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The todo_write tool: the model's checklist for a task of several steps, which the person sees pinned
// above the prompt. Each call sends the whole list, which replaces the last one; the list lives in the
// session as the calls' input, so a resumed session shows it again.

// Todo states.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// TodoItem is one entry of the list.
type TodoItem struct {
	Content string `json:"content" desc:"The step, in the imperative: \"Run the tests\"."`
	Status  string `json:"status" enum:"pending,in_progress,completed" desc:"pending, in_progress (one at a time) or completed."`
	// ActiveForm is what the person sees while the step is in progress.
	ActiveForm string `json:"activeForm,omitempty" desc:"The step as it is being done: \"Running the tests\"."`
}

// TodoParams is todo_write's input.
type TodoParams struct {
	Todos []TodoItem `json:"todos" desc:"The whole list, in order; it replaces the previous one."`
}

const todoDescription = `Keeps a checklist of the steps of the current task, which the user sees pinned above their prompt.

- Use it for tasks of three or more steps, or when the user gives several things to do; not for a single quick step.
- Send the whole list each time: it replaces the previous one. Keep exactly one step in_progress while you work, mark a step completed as soon as it is done, and add steps you discover.
- Mark a step completed only when it is fully done (tests pass, nothing left half-written).`

// NewTodo returns the todo_write tool.
func NewTodo() Tool {
	return New(Spec[TodoParams]{
		Name:        "todo_write",
		Description: todoDescription,
		Access: func(env *Env, p *TodoParams) (Access, error) {
			if err := CheckTodos(p.Todos); err != nil {
				return Access{}, err
			}
			return Access{Kind: AccessNone, Summary: TodoSummary(p.Todos)}, nil
		},
		Run: func(ctx context.Context, env *Env, call Call, p *TodoParams) Result {
			if err := CheckTodos(p.Todos); err != nil {
				return Errorf("%v", err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "The todo list is updated (%s); the user sees it.", TodoSummary(p.Todos))
			for _, t := range p.Todos {
				if t.Status == TodoInProgress {
					fmt.Fprintf(&b, " In progress: %s.", t.Content)
				}
			}
			return Result{Output: b.String(), Display: todoChecklist(p.Todos)}
		},
	})
}

// CheckTodos refuses a list the person could not read: an empty step or an unknown state.
func CheckTodos(items []TodoItem) error {
	for i, t := range items {
		switch {
		case strings.TrimSpace(t.Content) == "":
			return fmt.Errorf("todos[%d] has no content; say what the step is", i)
		case t.Status != TodoPending && t.Status != TodoInProgress && t.Status != TodoCompleted:
			return fmt.Errorf("todos[%d] has status %q; use pending, in_progress or completed", i, t.Status)
		}
	}
	if len(items) > 100 {
		return errors.New("the list has more than 100 steps; keep it to the steps of the current task")
	}
	return nil
}

// TodoSummary counts a list: "2 of 5 done".
func TodoSummary(items []TodoItem) string {
	if len(items) == 0 {
		return "the list is empty"
	}
	done := 0
	for _, t := range items {
		if t.Status == TodoCompleted {
			done++
		}
	}
	return fmt.Sprintf("%d of %d done", done, len(items))
}

// todoChecklist is the list as the person reads it in the call's panel and the history.
func todoChecklist(items []TodoItem) string {
	var b strings.Builder
	for _, t := range items {
		mark := "☐"
		switch t.Status {
		case TodoCompleted:
			mark = "☑"
		case TodoInProgress:
			mark = "◐"
		}
		fmt.Fprintf(&b, "%s %s\n", mark, t.Content)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
