package bash

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warden-cli/warden/tools"
)

// The bash tool. Each call is a fresh `bash -c` in the session's directory (a `cd` carries over to the next
// call), with empty stdin, no terminal, pagers and editors disabled, the environment an allow-list
// (tools.ChildEnv) and WARDEN=1 set. A call returns when its shell exits; whatever the command left running in the background is
// killed then. Output streams to the display as it comes and reaches the model cleaned and, if long, as head
// and tail with the whole of it in a file.

type bashParams struct {
	Command string `json:"command" desc:"The bash command to run."`
	Timeout int    `json:"timeout,omitempty" desc:"Timeout in milliseconds (default 120000, at most 600000). Not used with run_in_background."`
	// Description is for the person watching; the model is asked for it so that panels read well.
	Description     string `json:"description,omitempty" desc:"What the command does, in 5-10 words, shown to the user."`
	RunInBackground bool   `json:"run_in_background,omitempty" desc:"Start the command in the background and return its task id at once; read its output later with bash_output."`
	// DangerouslyUnsandboxed always asks the person (Access.Unsandboxed), whatever the rules and mode say.
	DangerouslyUnsandboxed bool `json:"dangerously_unsandboxed,omitempty" desc:"Run outside the sandbox or the read-only jail. Only when a command failed because of one of them (the result says so); the user is always asked to approve."`
}

type taskParams struct {
	ID string `json:"id" desc:"The background task id, as returned by bash (for example b1)."`
}

const bashDescription = `Runs a bash command and returns its output (stdout and stderr merged) and exit status.

- Each call is a fresh bash in the current working directory; a cd carries over to later calls, variables and aliases do not.
- There is no terminal and stdin is empty: interactive programs (editors, pagers, REPLs without a script, ssh without a command, git add -p, git rebase -i) cannot be used; pass input as arguments, files or heredocs. Editors are disabled, so give commit messages with -m.
- Output is cleaned (colours and progress-bar redraws removed). Long output is shortened to its head and tail; the marker gives the path of a file with all of it, which read_file can read.
- The default timeout is 120000 ms; set timeout (at most 600000 ms) for longer commands.
- Processes a command leaves running (cmd &) are stopped when it finishes. For servers, watchers and long jobs use run_in_background: true, then bash_output to read new output and kill_bash to stop it.
- Prefer the file tools over cat/sed/echo for reading and editing files. Quote paths with spaces.`

const bashOutputDescription = `Returns the output a background task (started by bash with run_in_background, or moved to the background) printed since the last call, and whether it is still running or how it ended.`

const killBashDescription = `Stops a background task and the processes it started (TERM, then KILL), and returns its last output.`

// NewTools returns the bash, bash_output and kill_bash tools, running their commands through tasks.
func NewTools(tasks *Tasks) []tools.Tool {
	return []tools.Tool{
		tools.New(tools.Spec[bashParams]{
			Name:        "bash",
			Description: bashDescription,
			Access: func(env *tools.Env, p *bashParams) (tools.Access, error) {
				if _, err := checkBash(env, p); err != nil {
					return tools.Access{}, err
				}
				return tools.Access{Kind: tools.AccessExec, Command: p.Command, Cwd: env.Cwd(), Summary: summarize(p.Command),
					Unsandboxed: p.DangerouslyUnsandboxed && (env.Bash.Sandbox.Enabled || env.Bash.Jail)}, nil
			},
			Run: tasks.runBash,
		}),
		tools.New(tools.Spec[taskParams]{
			Name:        "bash_output",
			Description: bashOutputDescription,
			Access: func(env *tools.Env, p *taskParams) (tools.Access, error) {
				return tools.Access{Kind: tools.AccessNone, Summary: p.ID}, nil
			},
			Run: tasks.runOutput,
		}),
		tools.New(tools.Spec[taskParams]{
			Name:        "kill_bash",
			Description: killBashDescription,
			Access: func(env *tools.Env, p *taskParams) (tools.Access, error) {
				return tools.Access{Kind: tools.AccessNone, Summary: p.ID}, nil
			},
			Run: tasks.runKill,
		}),
	}
}

const (
	defaultTimeoutMS = 120_000
	maxTimeoutMS     = 600_000
	defaultMaxOutput = 30_000
	// markerRoom is kept out of the output budget for the truncation marker and the status notes.
	markerRoom = 600
)

// maxCommandBytes keeps a command, with the few hundred bytes Warden puts before it, under the 128 KiB the
// kernel allows one argument of exec (MAX_ARG_STRLEN); past it bash could not even be started.
const maxCommandBytes = 120 << 10

// checkBash validates a call and returns its timeout.
func checkBash(env *tools.Env, p *bashParams) (time.Duration, error) {
	switch {
	case strings.TrimSpace(p.Command) == "":
		return 0, errors.New("command is empty; give the bash command to run")
	case !utf8.ValidString(p.Command):
		return 0, errors.New("command is not valid UTF-8")
	case strings.ContainsRune(p.Command, 0):
		return 0, errors.New("command contains a NUL character, which bash cannot take; remove it")
	case len(p.Command) > maxCommandBytes:
		return 0, fmt.Errorf("command is %s bytes; bash -c takes at most %s (the kernel's limit on one argument). "+
			"Write the script to a file with write_file and run it with `bash FILE`", tools.Commas(int64(len(p.Command))),
			tools.Commas(maxCommandBytes))
	}
	def, most := env.Bash.TimeoutMS, maxTimeout(env)
	if def <= 0 {
		def = defaultTimeoutMS
	}
	ms := p.Timeout
	if ms == 0 {
		ms = min(def, most)
	}
	if ms < 0 || ms > most {
		return 0, fmt.Errorf("timeout %d ms is out of range: give 1 to %d ms, or leave it out for the default %d ms",
			p.Timeout, most, min(def, most))
	}
	if why := interactiveProblem(p.Command); why != "" {
		return 0, errors.New(why)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// summarize is the command's first line, shortened, for panels and the history.
func summarize(command string) string {
	s := strings.TrimSpace(command)
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = strings.TrimSpace(s[:i]), true
	}
	if utf8.RuneCountInString(s) > 80 {
		s, more = string([]rune(s)[:79]), true
	}
	if more {
		s += "…"
	}
	return s
}

// contentBudget is how many bytes of output the model gets, before markers and notes.
func contentBudget(env *tools.Env) int {
	limit := env.Bash.MaxOutputChars
	if limit <= 0 {
		limit = defaultMaxOutput
	}
	return max(limit-markerRoom, 1000)
}

func (t *Tasks) runBash(ctx context.Context, env *tools.Env, call tools.Call, p *bashParams) tools.Result {
	timeout, err := checkBash(env, p)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	if p.RunInBackground {
		return t.startBackground(env, p.Command, p.DangerouslyUnsandboxed, call.Jailed)
	}
	t.mu.Lock()
	t.initLocked()
	t.startingFg[call.ID] = true
	t.mu.Unlock()
	j, note, err := t.start(env, p.Command, "call-"+safeName(call.ID), p.DangerouslyUnsandboxed, call.Jailed, call.Output)
	t.mu.Lock()
	delete(t.startingFg, call.ID)
	if err != nil {
		delete(t.wantBackground, call.ID)
		t.mu.Unlock()
		return tools.Errorf("%v", err)
	}
	t.fg[call.ID] = j
	if t.closed {
		// KillAll ran while this command was starting and did not see it.
		j.kill(stopShutdown)
	}
	if t.wantBackground[call.ID] {
		// Ctrl+B came while the command was starting.
		delete(t.wantBackground, call.ID)
		j.promoteMu.Do(func() { close(j.promoteCh) })
	}
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		if t.fg[call.ID] == j {
			delete(t.fg, call.ID)
		}
		t.mu.Unlock()
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var auto <-chan time.Time
	if ms := env.Bash.AutoBackgroundAfterMS; ms > 0 {
		at := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer at.Stop()
		auto = at.C
	}
	expired, cancelled, promote := timer.C, ctx.Done(), j.promoteCh
	for {
		select {
		case <-j.done:
			return t.finalResult(env, j, timeout, note)
		case <-expired:
			j.kill(stopTimeout)
			expired = nil
		case <-cancelled:
			j.kill(stopInterrupt)
			cancelled = nil
		case <-promote:
			promote = nil
			if r, ok := t.promote(env, j, note, "sent to the background by the user"); ok {
				return r
			}
		case <-auto:
			auto = nil
			if r, ok := t.promote(env, j, note, fmt.Sprintf("still running after %s, so moved to the background",
				time.Duration(env.Bash.AutoBackgroundAfterMS)*time.Millisecond)); ok {
				return r
			}
		}
	}
}

// promote turns a running foreground job into a background task, if there is room and it is still running,
// and returns the call's result: the output so far and the task id.
func (t *Tasks) promote(env *tools.Env, j *job, note, why string) (tools.Result, bool) {
	t.mu.Lock()
	if t.closed || j.isDone() || t.runningLocked()+t.starting >= t.maxBackground() {
		t.mu.Unlock()
		return tools.Result{}, false
	}
	t.nextID++
	id := fmt.Sprintf("b%d", t.nextID)
	t.addBackgroundLocked(j, id)
	t.mu.Unlock()
	j.out.Detach()
	v := j.out.View(cursor{}, contentBudget(env))
	t.mu.Lock()
	j.read = v.end
	t.mu.Unlock()
	var b strings.Builder
	writeText(&b, v.text)
	writeNote(&b, note)
	writeNote(&b, fmt.Sprintf("[%s: it keeps running as task %s. Read its new output with bash_output "+
		"{\"id\": %q}; stop it with kill_bash.]", why, id, id))
	return tools.Result{Output: b.String(), BackgroundID: id, Truncated: v.truncated, OutputPath: viewPath(v)}, true
}

func (t *Tasks) startBackground(env *tools.Env, command string, unsandboxed, jailed bool) tools.Result {
	// The slot and the id are taken before the task starts, so that calls made at once cannot together
	// pass the limit, and the spool file is named by the id the task gets.
	t.mu.Lock()
	if n := t.runningLocked() + t.starting; n >= t.maxBackground() {
		t.mu.Unlock()
		return tools.Errorf("%d background tasks are already running, the most allowed; stop one with kill_bash or "+
			"wait for one to finish", n)
	}
	t.nextID++
	id := fmt.Sprintf("b%d", t.nextID)
	t.starting++
	t.mu.Unlock()
	j, note, err := t.start(env, command, id, unsandboxed, jailed, nil)
	t.mu.Lock()
	t.starting-- // in the same hold of the lock as the task's registration below: no moment counts it in neither
	if err != nil {
		t.mu.Unlock()
		return tools.Errorf("%v", err)
	}
	if t.closed {
		t.mu.Unlock()
		j.kill(stopShutdown)
		<-j.done
		return tools.Errorf("%v", errShuttingDown)
	}
	t.addBackgroundLocked(j, id)
	t.mu.Unlock()
	var b strings.Builder
	writeNote(&b, note)
	fmt.Fprintf(&b, "Started in the background as task %s (process group %d). Read its output with bash_output "+
		"{\"id\": %q}; stop it with kill_bash.", id, j.proc.pgid, id)
	return tools.Result{Output: b.String(), BackgroundID: id}
}

func (t *Tasks) runOutput(ctx context.Context, env *tools.Env, call tools.Call, p *taskParams) tools.Result {
	j, err := t.lookup(p.ID)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	return t.taskResult(env, j, "")
}

func (t *Tasks) runKill(ctx context.Context, env *tools.Env, call tools.Call, p *taskParams) tools.Result {
	j, err := t.lookup(p.ID)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	if j.isDone() {
		return t.taskResult(env, j, fmt.Sprintf("[task %s had already finished]", j.id))
	}
	j.kill(stopKill)
	select {
	case <-j.done:
	case <-ctx.Done():
		return tools.Result{Output: fmt.Sprintf("Task %s is being stopped.", j.id), Interrupted: true, BackgroundID: j.id}
	}
	return t.taskResult(env, j, "")
}

// taskResult is a background task's new output and its state.
func (t *Tasks) taskResult(env *tools.Env, j *job, note string) tools.Result {
	t.mu.Lock()
	from := j.read
	t.mu.Unlock()
	done := j.isDone() // before the view, so that a finished task's view has all of its output
	v := j.out.View(from, contentBudget(env))
	t.mu.Lock()
	j.read = v.end
	t.mu.Unlock()
	var b strings.Builder
	if v.text == "" {
		b.WriteString("(no new output)\n")
	}
	writeText(&b, v.text)
	writeNote(&b, note)
	r := tools.Result{BackgroundID: j.id, Truncated: v.truncated, OutputPath: viewPath(v)}
	if !done {
		writeNote(&b, fmt.Sprintf("[task %s is running (%s so far)]", j.id, roundDuration(time.Since(j.started))))
	} else {
		r.ExitCode, r.Signal = exitOf(j.status)
		r.IsError = r.Signal != "" || (r.ExitCode != nil && *r.ExitCode != 0)
		writeNote(&b, fmt.Sprintf("[task %s %s after %s]", j.id, endedHow(j), roundDuration(j.ended.Sub(j.started))))
		writeNote(&b, j.confinementNote(v.text, r.ExitCode, r.Signal))
	}
	r.Output = strings.TrimRight(b.String(), "\n")
	return r
}

// finalResult is a foreground call's result once its job is done.
func (t *Tasks) finalResult(env *tools.Env, j *job, timeout time.Duration, note string) tools.Result {
	v := j.out.View(cursor{}, contentBudget(env))
	r := tools.Result{Truncated: v.truncated, OutputPath: viewPath(v), Lines: v.end.lines}
	r.ExitCode, r.Signal = exitOf(j.status)
	var b strings.Builder
	writeText(&b, v.text)
	writeNote(&b, note)
	switch j.stopped {
	case stopTimeout:
		r.TimedOut = true
		writeNote(&b, fmt.Sprintf("[timed out after %s: the command and its processes were stopped; the output "+
			"above is what it printed until then. Give a larger timeout (at most %d ms) or use run_in_background.]",
			roundDuration(timeout), maxTimeout(env)))
	case stopInterrupt:
		r.Interrupted = true
		writeNote(&b, "[interrupted by the user: the command and its processes were stopped]")
	case stopShutdown:
		r.Interrupted = true
		writeNote(&b, "[stopped because Warden is exiting]")
	default:
		switch {
		case r.Signal != "":
			writeNote(&b, "[killed by "+r.Signal+"]")
		case r.ExitCode != nil && *r.ExitCode != 0:
			writeNote(&b, fmt.Sprintf("[exit status %d]", *r.ExitCode))
		}
	}
	writeNote(&b, j.confinementNote(v.text, r.ExitCode, r.Signal))
	if j.cwd == "" && j.stopped == "" && r.Signal == "" && movesDir.MatchString(j.command) {
		writeNote(&b, fmt.Sprintf("[the final directory could not be read back (the command replaced the EXIT "+
			"trap, or ended in exec), so the next command runs in %s as this one began]", env.Cwd()))
	}
	if j.cwd != "" && j.cwd != env.Cwd() {
		env.SetCwd(j.cwd)
		if !insideWorkspace(env.Workspace, j.cwd) {
			writeNote(&b, fmt.Sprintf("[the working directory is now %s, outside the workspace %s]",
				j.cwd, env.Workspace))
		}
	}
	r.IsError = r.TimedOut || r.Interrupted || r.Signal != "" || (r.ExitCode != nil && *r.ExitCode != 0)
	r.Output = strings.TrimRight(b.String(), "\n")
	if r.Output == "" {
		r.Output = "(no output)"
	}
	return r
}

// movesDir finds a command that may change directory, for which a directory that was not read back is
// worth a word.
var movesDir = regexp.MustCompile(`(^|[\s;&|({])(cd|pushd|popd)(\s|;|&|\||\)|$)`)

func maxTimeout(env *tools.Env) int {
	if env.Bash.MaxTimeoutMS > 0 {
		return env.Bash.MaxTimeoutMS
	}
	return maxTimeoutMS
}

// endedHow says how a finished job ended, for the model.
func endedHow(j *job) string {
	code, sig := exitOf(j.status)
	how := ""
	switch {
	case sig != "":
		how = "was killed by " + sig
	case code != nil:
		how = fmt.Sprintf("exited with status %d", *code)
	default:
		how = "ended"
	}
	switch j.stopped {
	case stopKill:
		how = "was stopped by kill_bash (" + how + ")"
	case stopShutdown:
		how = "was stopped because Warden is exiting (" + how + ")"
	case stopUser:
		how = "was stopped by the user (" + how + ")"
	}
	return how
}

func viewPath(v view) string {
	if v.truncated {
		return v.path
	}
	return ""
}

func writeText(b *strings.Builder, s string) {
	if s == "" {
		return
	}
	b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
}

func writeNote(b *strings.Builder, s string) {
	if s != "" {
		b.WriteString(s)
		b.WriteByte('\n')
	}
}

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// safeName keeps the letters, digits, '-' and '_' of a call id, for a file name.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "call"
	}
	return b.String()
}
