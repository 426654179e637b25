package agent

import (
	"errors"
	"fmt"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/tools"
)

// Checkpoints: every call that may change files (write_file, edit_file, a bash command not judged
// read-only, an MCP tool whose server is not trusted to say it only reads, whoever allowed it, a
// sub-agent's too) runs between two snapshots of the workspace, and what it changed is recorded with
// its result. The tools know nothing of this; the snapshots run here, in Warden's own process.

// FilesChanged reports changes that no call's result carries: made outside Warden between calls
// (ByOutside), by a background task while no call ran, given to the call that started it when the task
// ended (ByTask), or by a restore (ByUndo).
type FilesChanged struct {
	By string
	// CallID is the call a background task's changes belong to; BeforeCall, for changes made outside,
	// is the call whose snapshot found them.
	CallID, BeforeCall string
	TaskID             string
	Changes            []checkpoint.Change
	// Later is, for a background task, what it changed after its call returned (Changes holds all it
	// changed from the call's start, for the history).
	Later []checkpoint.Change
	// UndoTo is, for a restore, the position of the point it went back to (Point.Pos).
	UndoTo int
}

func (FilesChanged) isEvent() {}

// What made a FilesChanged.
const (
	ByOutside = "outside"
	ByTask    = "task"
	ByUndo    = "undo"
)

// mayChangeFiles reports whether a call can change files, and so must be checkpointed.
func mayChangeFiles(p *pendingCall) bool {
	switch p.access.Kind {
	case tools.AccessEdit, tools.AccessWrite:
		return true
	case tools.AccessExec:
		return !p.verdict.ReadOnly
	case tools.AccessMCP:
		t := p.access.MCP
		return t == nil || !(t.ReadOnlyHint && t.HintTrusted)
	}
	return false
}

// checkpointed runs a call between two snapshots when it may change files, and puts what it changed in
// *changes.
func (a *Agent) checkpointed(p *pendingCall, changes *[]checkpoint.Change, run func() tools.Result) tools.Result {
	cp := a.opts.Checkpoints
	if cp == nil || !mayChangeFiles(p) {
		return run()
	}
	w, outside := cp.Before()
	// On a way out that skips After (a panic, recovered by the loop), the window is given up, or every
	// later call would wait for it.
	defer w.Abandon()
	if len(outside) > 0 {
		a.emit(FilesChanged{By: ByOutside, BeforeCall: p.tc.ID, Changes: outside})
	}
	res := run()
	// A call that went to the background goes on changing files; what it changes from now on is given
	// to it when it ends, through whichever agent made it.
	ch, err := w.After(res.BackgroundID, func(taskID string, all, later []checkpoint.Change) {
		a.emit(FilesChanged{By: ByTask, CallID: p.tc.ID, TaskID: taskID, Changes: all, Later: later})
	})
	*changes = ch
	for _, n := range cp.Notes() {
		a.emit(Notice{Message: n})
	}
	if err != nil && !errors.Is(err, checkpoint.ErrOff) {
		a.emit(Notice{Message: fmt.Sprintf("the changes of %s could not be checkpointed, so they cannot be undone: %v", p.tc.Function.Name, err)})
	}
	return res
}

// settleCheckpoints records, as a request starts, what changed outside Warden since the last snapshot,
// so that an undo of this request leaves it alone.
func (a *Agent) settleCheckpoints() {
	if cp := a.opts.Checkpoints; cp != nil && a.opts.Depth == 0 {
		if outside := cp.Settle(); len(outside) > 0 {
			a.emit(FilesChanged{By: ByOutside, Changes: outside})
		}
	}
}
