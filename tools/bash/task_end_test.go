package bash

import (
	"context"
	"strings"
	"testing"
	"time"
)

// endRecorder collects the task ends a Tasks reports.
type endRecorder struct{ ch chan TaskEnd }

func recordEnds(tasks *Tasks) *endRecorder {
	r := &endRecorder{ch: make(chan TaskEnd, 8)}
	tasks.OnEnd(func(e TaskEnd) { r.ch <- e })
	return r
}

func (r *endRecorder) next(t *testing.T) TaskEnd {
	t.Helper()
	select {
	case e := <-r.ch:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no task end was reported")
	}
	return TaskEnd{}
}

func TestAnEndedBackgroundTaskIsReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ends := recordEnds(h.tasks)
	r := h.call(context.Background(), h.bash, "t", map[string]any{"command": "echo first; echo last; exit 3",
		"run_in_background": true}, nil)
	if r.BackgroundID != "b1" {
		t.Fatalf("%+v", r)
	}
	e := ends.next(t)
	if e.ID != "b1" || e.ExitCode == nil || *e.ExitCode != 3 || e.ByModel {
		t.Errorf("end %+v", e)
	}
	if !strings.Contains(e.Output, "first") || e.Tail(1) != "last" || !strings.Contains(e.How, "status 3") {
		t.Errorf("output %q, tail %q, how %q", e.Output, e.Tail(1), e.How)
	}
}

func TestATaskTheModelOrThePersonStopsIsReportedSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ends := recordEnds(h.tasks)
	h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100", "run_in_background": true}, nil)
	h.call(context.Background(), h.kill, "k", map[string]any{"id": "b1"}, nil)
	if e := ends.next(t); !e.ByModel || !strings.Contains(e.How, "kill_bash") {
		t.Errorf("killed by the model: %+v", e)
	}
	h.call(context.Background(), h.bash, "t2", map[string]any{"command": "sleep 100", "run_in_background": true}, nil)
	if err := h.tasks.Kill("b2"); err != nil {
		t.Fatal(err)
	}
	if e := ends.next(t); e.ByModel || !strings.Contains(e.How, "stopped by the user") || e.Signal == "" {
		t.Errorf("stopped by the person: %+v", e)
	}
	if err := h.tasks.Kill("b2"); err == nil {
		t.Error("stopping an ended task again is not an error")
	}
	if err := h.tasks.Kill("b9"); err == nil {
		t.Error("stopping an unknown task is not an error")
	}
}

func TestTasksStoppedAsWardenExitsAreNotReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ends := recordEnds(h.tasks)
	h.call(context.Background(), h.bash, "t", map[string]any{"command": "sleep 100", "run_in_background": true}, nil)
	h.tasks.KillAll()
	select {
	case e := <-ends.ch:
		t.Errorf("reported %+v", e)
	default: // KillAll waits for the reports of the tasks it stopped
	}
}
