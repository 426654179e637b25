package agent

import (
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
)

// The TUI's /undo and /rewind go through these: each reads the session file, so that what it offers is
// exactly what `warden undo` would, and records what it did there. None may be called while Run works.

// RecNote records something Warden tells the model at its next turn (an undo done by `warden undo`,
// say); a resumed session delivers the notes recorded after its last request.
const RecNote = "note"

var errNotSaved = errors.New("this session is not being saved, so it has no checkpoints to go back to")

// loaded reads this agent's session file.
func (a *Agent) loaded() (*Loaded, error) {
	if a.opts.Store == nil {
		return nil, errNotSaved
	}
	return ReadSession(a.opts.Store.Path())
}

// Points lists the turns and calls of this session that the files or the conversation can go back to.
func (a *Agent) Points() ([]Point, error) {
	l, err := a.loaded()
	if err != nil {
		return nil, err
	}
	return Points(l), nil
}

// PlanUndo plans /undo (to empty) or a restore to just before the call to (see PlanUndo). What it finds
// changed outside Warden is recorded as such.
func (a *Agent) PlanUndo(to string) (*UndoPlan, error) {
	l, err := a.loaded()
	if err != nil {
		return nil, err
	}
	u, err := PlanUndo(a.opts.Checkpoints, l, to)
	if u != nil && len(u.Found) > 0 {
		a.emit(FilesChanged{By: ByOutside, Changes: u.Found})
	}
	return u, err
}

// PlanRestore plans restoring the files to the point p.
func (a *Agent) PlanRestore(p Point) (*UndoPlan, error) {
	l, err := a.loaded()
	if err != nil {
		return nil, err
	}
	u, err := PlanTo(a.opts.Checkpoints, l, p)
	if u != nil && len(u.Found) > 0 {
		a.emit(FilesChanged{By: ByOutside, Changes: u.Found})
	}
	return u, err
}

// Restore carries out a plan (the paths changed outside Warden only with includeOutside), records what
// it changed, and tells the model at its next turn.
func (a *Agent) Restore(u *UndoPlan, includeOutside bool) (*checkpoint.Restored, error) {
	if a.opts.Checkpoints == nil {
		return nil, errors.New("checkpoints are off in this session")
	}
	r, err := a.opts.Checkpoints.Apply(u.Plan, includeOutside)
	if err != nil {
		return nil, err
	}
	if len(r.Found) > 0 {
		a.emit(FilesChanged{By: ByOutside, Changes: r.Found})
	}
	a.emit(FilesChanged{By: ByUndo, Changes: r.Changes, UndoTo: u.Point.Pos})
	if len(r.Done) > 0 || len(r.Skipped) > 0 {
		a.tell(Describe(u.Point, r))
	}
	return r, nil
}

// RewindConversation cuts the conversation back to the point p: the model no longer sees what came
// after it, though the session file keeps it.
func (a *Agent) RewindConversation(p Point) error {
	if a.opts.Store == nil {
		return errNotSaved
	}
	keep := p.Keep
	a.opts.Store.Append(Record{Type: RecRewind, Keep: &keep}, true)
	if err := a.opts.Store.Err(); err != nil {
		return err
	}
	l, err := a.loaded()
	if err != nil {
		return err
	}
	msgs, _ := l.Conversation()
	var out []openai.ChatCompletionMessage
	if len(a.messages) > 0 && a.messages[0].Role == openai.ChatMessageRoleSystem {
		out = append(out, a.messages[0])
	}
	a.messages = append(out, msgs...)
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	return nil
}

// tell records a note for the model and delivers it at the next turn.
func (a *Agent) tell(text string) {
	a.opts.Store.Append(Record{Type: RecNote, Text: text}, true)
	a.Note(text)
}

// PendingNotes are the notes a session recorded that the model has not been told: those after the last
// message the session sent it. A resumed session tells them at its next turn (Options.Notes).
func PendingNotes(l *Loaded) []string {
	if l == nil {
		return nil
	}
	var notes []string
	for _, r := range l.Records {
		switch {
		case r.Type == RecMessage && r.Message != nil && r.Message.Role == openai.ChatMessageRoleUser:
			notes = nil
		case r.Type == RecNote && r.Text != "":
			notes = append(notes, r.Text)
		}
	}
	return notes
}

// RecordNote appends a note for the model to a session file; the session tells the model when it is
// resumed and continued.
func RecordNote(path, text string) error {
	st, err := OpenStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	st.Append(Record{Type: RecNote, Text: text}, true)
	if err := st.Err(); err != nil {
		return fmt.Errorf("recording the note: %w", err)
	}
	return nil
}

// Diff shows one change of this session's workspace (see checkpoint.Checkpoints.Diff).
func (a *Agent) Diff(c checkpoint.Change) (string, error) {
	if a.opts.Checkpoints == nil {
		return "", errors.New("checkpoints are off in this session, so its changes cannot be shown")
	}
	return a.opts.Checkpoints.Diff(c)
}
