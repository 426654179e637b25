package hooks

import (
	"encoding/json"
	"testing"

	"github.com/warden-cli/warden/tools"
)

func TestWardensToolsGoByClaudeCodesNames(t *testing.T) {
	for warden, claude := range map[string]string{
		"bash": "Bash", "read_file": "Read", "write_file": "Write", "edit_file": "Edit", "glob": "Glob", "grep": "Grep",
		"task": "Task", "web_fetch": "WebFetch", "bash_output": "BashOutput", "kill_bash": "KillShell", "todo_write": "TodoWrite",
		"mcp__github__get_issue": "mcp__github__get_issue", "something_new": "something_new",
	} {
		if got := ToolName(warden); got != claude {
			t.Errorf("ToolName(%s) = %s, want %s", warden, got, claude)
		}
	}
}

func TestToolInputUsesClaudeCodesFieldNames(t *testing.T) {
	for _, tc := range []struct {
		tool, input, path string
		want              map[string]any
	}{
		{"bash", `{"command":"ls -la","timeout":5000,"description":"list","run_in_background":true}`, "",
			map[string]any{"command": "ls -la", "timeout": json.Number("5000"), "description": "list", "run_in_background": true}},
		{"read_file", `{"path":"src/a.go","offset":10,"limit":20}`, "/ws/src/a.go",
			map[string]any{"file_path": "/ws/src/a.go", "offset": json.Number("10"), "limit": json.Number("20")}},
		{"write_file", `{"path":"b.txt","content":"hi"}`, "/ws/b.txt", map[string]any{"file_path": "/ws/b.txt", "content": "hi"}},
		{"edit_file", `{"path":"c.go","old_string":"a","new_string":"b","replace_all":true}`, "/ws/c.go",
			map[string]any{"file_path": "/ws/c.go", "old_string": "a", "new_string": "b", "replace_all": true}},
		{"glob", `{"pattern":"**/*.go","path":"src"}`, "/ws/src", map[string]any{"pattern": "**/*.go", "path": "src"}},
		{"grep", `{"pattern":"TODO","path":".","glob":"*.go","ignore_case":true}`, "/ws",
			map[string]any{"pattern": "TODO", "path": ".", "glob": "*.go", "-i": true}},
		{"bash_output", `{"id":"b1"}`, "", map[string]any{"bash_id": "b1"}},
		{"kill_bash", `{"id":"b2"}`, "", map[string]any{"shell_id": "b2"}},
		{"mcp__s__t", `{"q":1}`, "", map[string]any{"q": json.Number("1")}},
		{"bash", `not json`, "", map[string]any{}},
	} {
		got := ToolInput(tc.tool, json.RawMessage(tc.input), tc.path)
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(tc.want)
		if string(gb) != string(wb) {
			t.Errorf("%s %s: got %s, want %s", tc.tool, tc.input, gb, wb)
		}
	}
}

func TestToolResponseGivesWhatScriptsLookAt(t *testing.T) {
	code := 3
	r := ToolResponse("bash", tools.Result{Output: "out\n", IsError: true, ExitCode: &code}, "")
	if r["stdout"] != "out\n" || r["stderr"] != "" || r["exit_code"] != 3 || r["interrupted"] != false || r["is_error"] != true {
		t.Errorf("bash response = %v", r)
	}
	r = ToolResponse("write_file", tools.Result{Output: "wrote 2 lines"}, "/ws/b.txt")
	if r["filePath"] != "/ws/b.txt" || r["success"] != true || r["output"] != "wrote 2 lines" {
		t.Errorf("write_file response = %v", r)
	}
}

func TestModesGoByClaudeCodesNames(t *testing.T) {
	for w, c := range map[string]string{"default": "default", "accept-edits": "acceptEdits", "plan": "plan", "yolo": "bypassPermissions", "": "default"} {
		if got := ModeName(w); got != c {
			t.Errorf("ModeName(%q) = %q, want %q", w, got, c)
		}
	}
}
