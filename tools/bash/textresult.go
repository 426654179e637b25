package bash

import "github.com/warden-cli/warden/tools"

// TextResult is the model's result for text that arrived whole rather than from a process (an MCP
// server's answer): cleaned and shortened exactly as a command's output is, with the full text kept in a
// file of the session, named after name, when it had to be shortened.
func TextResult(env *tools.Env, name, text string) tools.Result {
	budget := contentBudget(env)
	c := newCapture(budget, spoolDir(env), name, nil)
	_, _ = c.Write([]byte(text))
	c.Finish()
	v := c.View(cursor{}, budget)
	return tools.Result{Output: v.text, Truncated: v.truncated, OutputPath: viewPath(v)}
}
