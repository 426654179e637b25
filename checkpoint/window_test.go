package checkpoint

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hangBound is how long something that must not hang may take on a loaded machine.
const hangBound = 30 * time.Second

// within runs f and reports whether it returned within hangBound.
func within(f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-time.After(hangBound):
		return false
	}
}

// Warden quitting while a call runs that does not stop (a tool that ignores being stopped) closes the
// checkpoints without waiting for the call; a task's end heard meanwhile does not hold Close either, and
// the call, when it returns at last, records nothing and holds nothing.
func TestCloseDoesNotWaitForACallInProgress(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	c := openTest(t, ws)
	w, _ := c.Before()
	c.EndTask("t1")
	var closeErr error
	if !within(func() { closeErr = c.Close() }) {
		w.After("", nil) // lets Close, and the test's cleanup, go on
		t.Fatal("Close waited for the call in progress")
	}
	if closeErr != nil {
		t.Fatal(closeErr)
	}
	if err := os.WriteFile(filepath.Join(ws, "late.txt"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var changes []Change
	var err error
	if !within(func() { changes, err = w.After("", nil) }) {
		t.Fatal("the call's After waited")
	}
	if !errors.Is(err, ErrOff) || len(changes) != 0 {
		t.Errorf("After once closed: %q, %v", changeLines(changes), err)
	}
	if !within(func() {
		w2, _ := c.Before()
		_, err = w2.After("", nil)
	}) {
		t.Fatal("a call after Close waited")
	}
	if !errors.Is(err, ErrOff) {
		t.Errorf("a call after Close: %v", err)
	}
}

// A window given up without After (a panic between the snapshots, recovered further up) lets the next
// call in; what the first call changed is found by the next snapshot, as no call's.
func TestAnAbandonedWindowLetsTheNextCallIn(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	c := openTest(t, ws)
	w, _ := c.Before()
	sh(t, ws, "echo lost > lost.txt")
	w.Abandon()
	var next *Window
	var outside []Change
	if !within(func() { next, outside = c.Before() }) {
		t.Fatal("the next call waited for the abandoned window")
	}
	if got := changeLines(outside); got != "A lost.txt (+1 −0)" {
		t.Errorf("found before the next call: %q", got)
	}
	sh(t, ws, "echo next > next.txt")
	changes, err := next.After("", nil)
	if got := changeLines(changes); err != nil || got != "A next.txt (+1 −0)" {
		t.Errorf("the next call's changes: %q, %v", got, err)
	}
	// Abandon after After does nothing (giving the turn back twice would block).
	if !within(next.Abandon) {
		t.Fatal("Abandon after After waited")
	}
}
