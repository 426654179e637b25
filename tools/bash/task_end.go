package bash

import (
	"fmt"
	"strings"
	"time"
)

// A background task must never end unseen: whoever runs the Tasks hears of each one that ends, with how
// it ended and what it printed, so that the person sees it and the model is told.

// TaskEnd describes a background task that has ended.
type TaskEnd struct {
	ID, Command string
	// ExitCode is set when it exited; Signal names the signal that killed it.
	ExitCode *int
	Signal   string
	// How says how it ended, in words ("exited with status 1", "was stopped by kill_bash (…)").
	How string
	// ByModel is set when the model stopped it with kill_bash: the model knows already.
	ByModel bool
	Took    time.Duration
	// Output is what it printed, whole when short, else its head and tail with a marker that names
	// OutputPath, the file holding all of it.
	Output     string
	OutputPath string
}

// Tail is the last n lines of the output.
func (e TaskEnd) Tail(n int) string {
	lines := strings.Split(strings.TrimRight(e.Output, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// endOutputBudget bounds TaskEnd.Output.
const endOutputBudget = 256 << 10

// OnEnd makes f hear of every background task that ends from now on, except those Warden stops because
// it is exiting; each f given hears, in the order given (the TUI, the checkpoints). f is called from the
// task's own goroutine.
func (t *Tasks) OnEnd(f func(TaskEnd)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onEnd = append(t.onEnd, f)
}

// Kill stops a background task, as kill_bash does but on the person's word, and waits for it to end.
func (t *Tasks) Kill(id string) error {
	j, err := t.lookup(id)
	if err != nil {
		return err
	}
	if j.isDone() {
		return fmt.Errorf("task %s has already ended", id)
	}
	j.kill(stopUser)
	<-j.done
	return nil
}

// watchEnd waits for a background task to end and reports it.
func (t *Tasks) watchEnd(j *job) {
	<-j.done
	t.mu.Lock()
	fs, closing := t.onEnd, t.closed
	t.mu.Unlock()
	if len(fs) == 0 || (closing && j.stopped == stopShutdown) {
		return
	}
	v := j.out.View(cursor{}, endOutputBudget)
	e := TaskEnd{ID: j.id, Command: j.command, How: endedHow(j), ByModel: j.stopped == stopKill,
		Took: j.ended.Sub(j.started), Output: v.text, OutputPath: viewPath(v)}
	e.ExitCode, e.Signal = exitOf(j.status)
	for _, f := range fs {
		f(e)
	}
}

// Output is a background task's output from its start, as TaskEnd.Output gives it, without moving what
// bash_output has read; path is the file holding all of it when the text is shortened.
func (t *Tasks) Output(id string) (text, path string, err error) {
	j, err := t.lookup(id)
	if err != nil {
		return "", "", err
	}
	v := j.out.View(cursor{}, endOutputBudget)
	return v.text, viewPath(v), nil
}
