package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestTodoWriteChecksAndCounts(t *testing.T) {
	t.Parallel()
	tool := NewTodo()
	env := NewEnv(t.TempDir(), t.TempDir())
	in := `{"todos":[{"content":"Read the code","status":"completed"},{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},{"content":"Run the tests","status":"pending"}]}`
	ac, err := tool.Access(env, json.RawMessage(in))
	if err != nil || ac.Kind != AccessNone || ac.Summary != "1 of 3 done" {
		t.Fatalf("access %+v, %v", ac, err)
	}
	res := tool.Run(context.Background(), env, Call{ID: "c", Input: json.RawMessage(in)})
	if res.IsError || !strings.Contains(res.Output, "In progress: Fix the bug") || res.Display != "☑ Read the code\n◐ Fix the bug\n☐ Run the tests" {
		t.Errorf("result %+v", res)
	}
	for _, bad := range []string{
		`{"todos":[{"content":"x","status":"doing"}]}`,
		`{"todos":[{"content":" ","status":"pending"}]}`,
		`{}`,
	} {
		if _, err := tool.Access(env, json.RawMessage(bad)); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	var schema map[string]any
	json.Unmarshal(tool.Schema(), &schema)
	if !strings.Contains(string(tool.Schema()), `"enum":["pending","in_progress","completed"]`) {
		t.Errorf("schema %s", tool.Schema())
	}
}
