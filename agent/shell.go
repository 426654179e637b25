package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// ShellReason is the reason recorded for a command the person typed in shell mode.
const ShellReason = "typed by the user in shell mode"

// Shell runs a command the person typed themselves (`!cmd` in the TUI) through the bash tool, the same
// engine, sandbox and limits as the model's commands, without asking: the person typed it. It is reported
// and recorded like a bash call the user allowed, and its result is noted for the model's next turn so
// that the model knows what the person saw. It must not be called while Run works.
func (a *Agent) Shell(ctx context.Context, command string) tools.Result {
	a.running.Lock()
	defer a.running.Unlock()
	a.synthetic++
	id := fmt.Sprintf("shell_%d", a.synthetic)
	input, _ := json.Marshal(map[string]string{"command": command, "description": "typed by you (shell mode)"})
	start := time.Now()
	finish := func(res tools.Result) tools.Result {
		a.emit(ToolFinished{ID: id, Name: "bash", Result: res, Duration: time.Since(start)})
		a.Note(fmt.Sprintf("The user ran a command themselves (shell mode), in %s:\n$ %s\n%s", a.opts.Env.Cwd(), command, res.Output))
		return res
	}
	tool, ok := a.tools.Get("bash")
	if !ok {
		a.emit(ToolCallStarted{ID: id, Name: "bash", Input: input, Access: tools.Access{Kind: tools.AccessExec, Command: command, Summary: command}})
		return finish(tools.Errorf("this session has no bash tool to run the command with"))
	}
	access, err := tool.Access(a.opts.Env, input)
	if err != nil {
		a.emit(ToolCallStarted{ID: id, Name: "bash", Input: input, Access: tools.Access{Kind: tools.AccessExec, Command: command, Summary: command}})
		return finish(tools.Errorf("%s was not run: %v.", command, err))
	}
	a.emit(ToolCallStarted{ID: id, Name: "bash", Input: input, Access: access})
	a.emit(PermissionDecided{ID: id, Decision: permissions.Allow, By: "user", Reason: ShellReason})
	start = time.Now()
	res := a.runTool(ctx, &pendingCall{tool: tool, input: input, access: access,
		tc: openaiCall(id, "bash", string(input))})
	return finish(res)
}
