package hooks

import (
	"bytes"
	"encoding/json"

	"github.com/warden-cli/warden/tools"
)

// Claude Code's names for Warden's tools and their fields, so that matchers and scripts written for it
// find what they expect. A tool Claude Code does not have (an MCP server's is named alike in both) keeps
// Warden's name, and a field it does not have keeps Warden's.

// toolNames maps Warden's tool names to Claude Code's.
var toolNames = map[string]string{
	"bash":        "Bash",
	"bash_output": "BashOutput",
	"kill_bash":   "KillShell",
	"read_file":   "Read",
	"write_file":  "Write",
	"edit_file":   "Edit",
	"glob":        "Glob",
	"grep":        "Grep",
	"task":        "Task",
	"web_fetch":   "WebFetch",
	"web_search":  "WebSearch",
	"todo_write":  "TodoWrite",
}

// ToolName is Claude Code's name for the tool Warden calls name.
func ToolName(name string) string {
	if n, ok := toolNames[name]; ok {
		return n
	}
	return name
}

// renamed are the input fields Claude Code names otherwise, by Warden's tool.
var renamed = map[string]map[string]string{
	"read_file":   {"path": "file_path"},
	"write_file":  {"path": "file_path"},
	"edit_file":   {"path": "file_path"},
	"bash_output": {"id": "bash_id"},
	"kill_bash":   {"id": "shell_id"},
	"grep":        {"ignore_case": "-i"},
}

// ToolInput is a call's input as Claude Code would give it for the tool Warden calls name. path, when not
// empty, is the file the call touches, absolute (Claude Code's file_path always is); the model may have
// written it relative.
func ToolInput(name string, input json.RawMessage, path string) map[string]any {
	m := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber() // a number goes on as the model wrote it
	if err := dec.Decode(&m); err != nil || m == nil {
		m = map[string]any{}
	}
	for from, to := range renamed[name] {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	if _, ok := m["file_path"]; ok && path != "" {
		m["file_path"] = path
	}
	return m
}

// ToolResponse is what a call returned, for PostToolUse: Warden's output and whether it is an error
// (output, is_error), and the fields Claude Code gives for the tools scripts look at most: a command's
// stdout (Warden's output, in which stderr is merged), stderr (empty), interrupted and isImage; a file
// tool's filePath and success.
func ToolResponse(name string, r tools.Result, path string) map[string]any {
	m := map[string]any{"output": r.Output, "is_error": r.IsError}
	switch name {
	case "bash":
		m["stdout"], m["stderr"], m["interrupted"], m["isImage"] = r.Output, "", r.Interrupted, false
		if r.ExitCode != nil {
			m["exit_code"] = *r.ExitCode
		}
		if r.TimedOut {
			m["timed_out"] = true
		}
		if r.BackgroundID != "" {
			m["backgroundTaskId"] = r.BackgroundID
		}
	case "read_file", "write_file", "edit_file":
		m["filePath"], m["success"] = path, !r.IsError
	}
	return m
}

// ModeName is Claude Code's name for a Warden permission mode, as permission_mode gives it.
func ModeName(mode string) string {
	switch mode {
	case "accept-edits":
		return "acceptEdits"
	case "yolo":
		return "bypassPermissions"
	case "plan":
		return "plan"
	}
	return "default"
}
