package agent

import (
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/warden-cli/warden/tools/bash"
)

// Notes are what Warden tells the model that the person did not type: a background task that ended, a
// command the person ran themselves in shell mode. They wait for the model's next turn: at the start of
// the next request they go before the person's prompt, in the same message; during a request, they go
// after the tool results that model turn is waiting on.

// Note queues text for the model's next turn. It may be called from any goroutine.
func (a *Agent) Note(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	a.notesMu.Lock()
	defer a.notesMu.Unlock()
	a.notes = append(a.notes, text)
}

func (a *Agent) takeNotes() []string {
	a.notesMu.Lock()
	defer a.notesMu.Unlock()
	n := a.notes
	a.notes = nil
	return n
}

// The block notes are written in, so that they can be told from what the person typed.
const (
	notesOpen  = "<warden-notes>\nFrom Warden, not typed by the user:\n\n"
	notesClose = "\n</warden-notes>"
)

// withNotes puts notes before a prompt.
func withNotes(notes []string, prompt string) string {
	if len(notes) == 0 {
		return prompt
	}
	block := notesOpen + strings.Join(notes, "\n\n") + notesClose
	if prompt == "" {
		return block
	}
	return block + "\n\n" + prompt
}

// SplitNotes separates the notes Warden put before a recorded prompt from what the person typed.
func SplitNotes(content string) (notes, prompt string) {
	if !strings.HasPrefix(content, notesOpen) {
		return "", content
	}
	end := strings.Index(content, notesClose)
	if end < 0 {
		return "", content
	}
	return content[len(notesOpen):end], strings.TrimPrefix(content[end+len(notesClose):], "\n\n")
}

// deliverNotes adds the waiting notes, and the person's steering messages (steer.go), as one message
// after tool results, mid-request.
func (a *Agent) deliverNotes() {
	n := len(a.messages)
	if n == 0 || a.messages[n-1].Role != openai.ChatMessageRoleTool && !isImagesMessage(a.messages[n-1]) {
		return
	}
	notes, steers := a.takeNotes(), a.TakeSteers()
	if len(notes) == 0 && len(steers) == 0 {
		return
	}
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: withNotes(notes, strings.Join(steers, "\n\n"))})
	for _, s := range steers {
		a.emit(SteerDelivered{Text: s})
	}
}

// taskEndLines is how many of an ended background task's last lines the model is told.
const taskEndLines = 8

// NoteTaskEnd tells the model, at its next turn, that a background task ended, unless it stopped the task
// itself.
func (a *Agent) NoteTaskEnd(e bash.TaskEnd) {
	if e.ByModel {
		return
	}
	note := fmt.Sprintf("Background task %s (`%s`) %s after %s.", e.ID, strings.Join(strings.Fields(e.Command), " "),
		e.How, e.Took.Round(time.Millisecond))
	if tail := strings.TrimSpace(e.Tail(taskEndLines)); tail != "" {
		note += " Its last lines:\n" + tail
	}
	note += fmt.Sprintf("\nbash_output {\"id\": %q} returns what you have not read of its output.", e.ID)
	a.Note(note)
}
