package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// panelState is where a tool call is in its life.
type panelState int

const (
	statePending panelState = iota // announced, permission not decided yet
	stateAsking                    // waiting for the person in the modal
	stateRunning
	stateDone
	stateDenied
	stateInterrupted
	stateTimedOut
	stateBackground
)

// How many output lines a panel shows.
const (
	runningTail   = 6
	collapsedTail = 4
)

// panel is one tool call: its header, its state and the tail of its output. It is also the row of the
// tool history, so that the history is built from the same events as the transcript.
type panel struct {
	// key is unique in the UI (see callKey); id is the call's id in its agent's conversation.
	key             string
	id, tool, agent string
	desc            string
	access          tools.Access
	state           panelState
	decision        permissions.Decision
	by, reason      string
	rule            string
	// told is what the person told the model when they denied the call (d in the modal); the agent
	// passes it to the model, not back in its PermissionDecided.
	told     string
	result   tools.Result
	started  time.Time // when the call was announced
	runStart time.Time // when it was allowed to run
	duration time.Duration
	out      outBuffer
	expanded bool

	// A sub-agent's call hangs under the task call that started it (parent), depth levels below the
	// transcript. A task call's own child agent is sub.
	parent *panel
	depth  int
	sub    *subAgent
	prompt string // a task's prompt, first line
	// todos is the list a todo_write call sends.
	todos []tools.TodoItem
	// bgEnd is how the background task this call started ended, once it has.
	bgEnd *bash.TaskEnd
	// changes is what the call changed in the workspace (changes.go).
	changes []checkpoint.Change

	// render cache of the body (everything below the header)
	bodyKey   bodyKey
	bodyLines []string
}

type bodyKey struct {
	version, width int
	state          panelState
	expanded       bool
}

func newPanel(e agent.ToolCallStarted, now time.Time) *panel {
	p := &panel{id: e.ID, tool: e.Name, agent: e.Agent, access: e.Access, started: now}
	var in struct {
		Description string `json:"description"`
		Prompt      string `json:"prompt"`
	}
	if json.Unmarshal(e.Input, &in) == nil {
		p.desc = in.Description
		p.prompt, _, _ = strings.Cut(strings.TrimSpace(in.Prompt), "\n")
	}
	if e.Access.Kind == tools.AccessFetch {
		p.prompt = "" // a fetch's panel names its URL, not what the model wants from the page
	}
	if e.Name == "task" {
		p.sub = &subAgent{}
	}
	if e.Name == "todo_write" {
		p.todos = todoInput(e.Input)
	}
	return p
}

func (p *panel) decided(e agent.PermissionDecided, now time.Time) {
	p.decision, p.by, p.reason, p.rule = e.Decision, e.By, e.Reason, e.Rule
	if e.Decision == permissions.Allow {
		p.state, p.runStart = stateRunning, now
		return
	}
	p.state = stateDenied
}

func (p *panel) finished(e agent.ToolFinished) {
	p.result, p.duration = e.Result, e.Duration
	p.changes = e.Changes
	r := e.Result
	switch {
	case p.state == stateDenied:
	case r.BackgroundID != "":
		p.state = stateBackground
	case r.TimedOut:
		p.state = stateTimedOut
	case r.Interrupted:
		p.state = stateInterrupted
	default:
		p.state = stateDone
	}
	if p.out.Total() == 0 && p.state != stateDenied {
		// Tools that do not stream (files, search) show what they returned.
		text := r.Display
		if text == "" {
			text = r.Output
		}
		p.out.Write(text)
	}
	p.out.version++
}

func (p *panel) active() bool {
	return p.state == statePending || p.state == stateAsking || p.state == stateRunning
}

// header is the summary line: the tool with the model's description, and its state.
func (p *panel) header(rc *renderCtx, width int) string {
	st := rc.st
	title := st.panelTitle.Render(p.tool)
	if p.agent != "" {
		title = st.dim.Render(escapeLine(p.agent)+" › ") + title
	}
	if p.desc != "" {
		title += st.dim.Render(" · " + escapeLine(p.desc))
	}
	return spread(title, p.status(rc), width)
}

func (p *panel) status(rc *renderCtx) string {
	st := rc.st
	switch p.state {
	case statePending:
		return st.dim.Render("deciding…")
	case stateAsking:
		return st.warn.Render("? waiting for approval")
	case stateRunning:
		return st.accent.Render(spinnerFrame(rc.now)) + st.dim.Render(" running "+liveDuration(rc.now, p.runStart))
	case stateDenied:
		who := p.by
		if who == "" {
			who = "policy"
		}
		return st.fail.Render("⊘ denied") + st.dim.Render(" by "+who)
	case stateInterrupted:
		return st.warn.Render("⏹ interrupted") + p.took(rc)
	case stateTimedOut:
		return st.fail.Render("⏱ timed out") + p.took(rc)
	case stateBackground:
		if e := p.bgEnd; e != nil {
			mark, style := "✓", st.ok
			if e.Signal != "" || (e.ExitCode != nil && *e.ExitCode != 0) {
				mark, style = "✗", st.fail
			}
			return style.Render(mark+" "+p.result.BackgroundID+" "+endWords(e)) + st.dim.Render(" · "+shortDuration(e.Took))
		}
		return st.accent.Render("⇥ in background") + st.dim.Render(" "+p.result.BackgroundID)
	}
	if code := p.result.ExitCode; code != nil {
		if *code == 0 {
			return st.ok.Render("✓ exit 0") + p.took(rc)
		}
		return st.fail.Render(fmt.Sprintf("✗ exit %d", *code)) + p.took(rc)
	}
	if p.result.Signal != "" {
		return st.fail.Render("✗ "+p.result.Signal) + p.took(rc)
	}
	if p.result.IsError {
		return st.fail.Render("✗ error") + p.took(rc)
	}
	return st.ok.Render("✓ done") + p.took(rc)
}

func (p *panel) took(rc *renderCtx) string {
	return rc.st.dim.Render(" · " + shortDuration(p.duration))
}

// exitText is the history's exit column.
func (p *panel) exitText() string {
	switch {
	case p.state == stateDenied:
		return "-"
	case p.result.ExitCode != nil:
		return fmt.Sprint(*p.result.ExitCode)
	case p.state == stateTimedOut:
		return "timeout"
	case p.state == stateInterrupted:
		return "intr"
	case p.bgEnd != nil && p.bgEnd.ExitCode != nil:
		return fmt.Sprint(*p.bgEnd.ExitCode)
	case p.bgEnd != nil:
		return p.bgEnd.Signal
	case p.state == stateBackground:
		return "bg"
	case p.active():
		return "…"
	case p.result.IsError:
		return "error"
	}
	return "ok"
}

// outcome says in words how the call ended, for the pager's title: "exit 0", not the history's bare 0.
func (p *panel) outcome() string {
	switch {
	case p.state == stateDenied:
		return "denied"
	case p.result.ExitCode != nil:
		return fmt.Sprintf("exit %d", *p.result.ExitCode)
	case p.result.Signal != "":
		return p.result.Signal
	case p.state == stateTimedOut:
		return "timed out"
	case p.state == stateInterrupted:
		return "interrupted"
	case p.bgEnd != nil:
		return "background task " + endWords(p.bgEnd)
	case p.state == stateBackground:
		return "in background"
	case p.active():
		return "running"
	case p.result.IsError:
		return "error"
	}
	return "done"
}

// target is the command or path the call works on, one line.
func (p *panel) target() string {
	s := p.access.Summary
	if s == "" {
		s = p.access.Command
	}
	if s == "" {
		s = p.access.Path
	}
	s = escapeLine(s)
	if p.access.Kind == tools.AccessExec {
		return "$ " + s
	}
	return s
}

// render draws the panel at width; focused panels get a highlighted frame.
func (p *panel) render(rc *renderCtx, width int, focused bool) []string {
	inner := max(width-4, 1)
	key := bodyKey{version: p.out.version, width: inner, state: p.state, expanded: p.expanded}
	// A running task's body holds its child's spinners and elapsed times, which change with the clock.
	if key != p.bodyKey || p.bodyLines == nil || (p.sub != nil && p.active()) {
		p.bodyLines = p.body(rc, inner)
		p.bodyKey = key
	}
	lines := make([]string, 0, len(p.bodyLines)+2)
	second := p.target()
	if p.prompt != "" {
		second = "“" + cleanLine(p.prompt) + "”"
	}
	lines = append(lines, p.header(rc, inner), rc.st.dim.Render(fit(second, inner)))
	lines = append(lines, p.bodyLines...)
	border := rc.st.panel
	if focused {
		border = rc.st.panelFocus
	}
	return box(lines, width, border)
}

func (p *panel) body(rc *renderCtx, width int) []string {
	st := rc.st
	var out []string
	if p.sub != nil && p.state != stateDenied {
		return p.subBody(rc, width)
	}
	if p.state == stateDenied {
		if p.reason != "" {
			out = append(out, st.dim.Render(fit(cleanLine(p.reason), width)))
		}
		if p.told != "" {
			out = append(out, st.dim.Render(fit("you said: “"+cleanLine(p.told)+"”", width)))
		}
		return out
	}
	n := collapsedTail
	switch {
	case p.expanded:
		n = maxKeptLines
	case p.active():
		n = runningTail
	}
	// A long command's live output was sampled on its way here; the result counts every line it printed.
	total := max(p.out.Total(), int(p.result.Lines))
	kept := total == p.out.Total() // every line is in the buffer, none sampled away
	if !p.expanded && !p.active() && kept && total == n+1 {
		n++ // a "+1 line" hint would take the room of the line it hides
	}
	tail := p.out.Tail(n)
	hidden := total - len(tail)
	if p.expanded && hidden > 0 {
		// Expanded is not all: say how much is above and where to read it.
		where := hintKeys(rc.keys.History) + ", " + hintKeys(rc.keys.Open) + " shows them"
		if path := p.result.OutputPath; path != "" {
			where += "; the whole output is in " + path
		}
		note := fmt.Sprintf("… %s %s not shown here; %s", commas(hidden), pluralWord(hidden, "earlier line", "earlier lines"), where)
		for _, l := range strings.Split(wrap(note, width), "\n") {
			out = append(out, st.dim.Render(l))
		}
	}
	for _, l := range tail {
		out = append(out, fit(cleanLine(l), width))
	}
	switch {
	case !p.expanded && !kept && p.result.OutputPath != "":
		out = append(out, st.dim.Render(fit(fmt.Sprintf("+%s; all of it: %s, %s", plural(hidden, "line", "lines"), hintKeys(rc.keys.History), hintKeys(rc.keys.Open)), width)))
	case !p.expanded && hidden > 0:
		out = append(out, st.dim.Render(fmt.Sprintf("+%s (%s to expand)", plural(hidden, "line", "lines"), hintKeys(rc.keys.Expand))))
	}
	return append(out, p.changesLines(rc, width)...)
}

func shortDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// clockStep is how often what moves with the clock (spinners, elapsed times) changes on screen.
const clockStep = 100 * time.Millisecond

func spinnerFrame(now time.Time) string {
	return spinnerFrames[(now.UnixMilli()/clockStep.Milliseconds())%int64(len(spinnerFrames))]
}

// liveDuration is the time since start as a running clock shows it: both ends on the clockStep grid the
// spinner turns on, so that the clock and the spinner change the screen together, ten times a second,
// and not once more every frame in between.
func liveDuration(now, start time.Time) string {
	return shortDuration(now.Truncate(clockStep).Sub(start.Truncate(clockStep)))
}

// endWords says briefly how a background task ended: "exit 0", "SIGTERM".
func endWords(e *bash.TaskEnd) string {
	if e.ExitCode != nil {
		return fmt.Sprintf("exit %d", *e.ExitCode)
	}
	if e.Signal != "" {
		return e.Signal
	}
	return "ended"
}
