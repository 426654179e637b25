package permissions

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// CheckResult is one line of `warden check` output (DESIGN.md §2).
type CheckResult struct {
	Command       string   `json:"command"`
	Decision      Decision `json:"decision"`
	ReadOnly      bool     `json:"readonly"`
	Reason        string   `json:"reason"`
	Rule          string   `json:"rule,omitempty"`
	Dangerous     bool     `json:"dangerous"`
	SuggestedRule string   `json:"suggested_rule,omitempty"`
}

// Check decides command as a bash tool call run in cwd (the workspace when empty) and reports it in the
// shape `warden check` prints.
func Check(e *Engine, command, cwd string) CheckResult {
	v := e.Decide(Request{Kind: Exec, Command: command, Cwd: cwd})
	return CheckResult{
		Command:       command,
		Decision:      v.Decision,
		ReadOnly:      v.ReadOnly,
		Reason:        v.Reason,
		Rule:          v.Rule,
		Dangerous:     v.Dangerous,
		SuggestedRule: v.SuggestedRule,
	}
}

// maxCheckLine bounds one input line of `warden check --stdin`.
const maxCheckLine = 1 << 20

// ReadCheckLines reads the `warden check --stdin` format: one command per line; a line that starts with `"`
// is a JSON string, so that multi-line commands and control characters can be given. Blank lines are
// skipped. A JSON line that does not decode is an error naming its line number.
func ReadCheckLines(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxCheckLine)
	var out []string
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, `"`) {
			var s string
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				return out, fmt.Errorf("line %d: not a JSON string: %w", n, err)
			}
			out = append(out, s)
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("line %d: %w", n+1, err)
	}
	return out, nil
}
