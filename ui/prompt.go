package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/piped"
)

// What happens to what the person types: long pastes kept aside, slash commands run, prompts sent or
// queued behind the request in progress.

// pasted is a long paste kept out of the editor: the prompt holds label, and text replaces it when the
// prompt is sent.
type pasted struct{ label, text string }

// paste puts pasted text into the prompt. A paste of more than a few lines (a log, a file, a diff) would
// push what the person types out of sight, and the editor rewraps and redraws every line of its text on
// each key and keeps at most 10,000 lines: so it is kept here instead and shown in the prompt as a chip
// like "[pasted 60 lines]", which is replaced by the whole text when the prompt is sent; the prompt
// history keeps the chip.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	if cmd, ok := m.pastePictures(msg.Content); ok {
		return cmd
	}
	text := strings.ReplaceAll(msg.Content, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	// The editor turns tabs into spaces; a paste with tabs (a Makefile, gofmt'd code) is kept whole outside
	// it like a long one, so that it reaches the model as it was.
	if lines <= pasteMaxLines && len(text) <= pasteMaxBytes && !strings.Contains(text, "\t") {
		return m.updateInput(msg)
	}
	label, flash := plural(lines, "line", "lines"), "Long paste: it is sent whole in place of its chip"
	switch {
	case len(text) > pasteMaxBytes && lines <= pasteMaxLines:
		label += fmt.Sprintf(", %d KB", len(text)>>10)
	case lines <= pasteMaxLines:
		label += ", tabs kept"
		flash = "Pasted text with tabs is kept as it is: it is sent whole in place of its chip"
	}
	p := pasted{label: m.pasteLabel("[pasted " + label), text: text}
	m.pastes = append(m.pastes, p)
	m.input.InsertString(p.label)
	m.inputGen++
	m.refreshMenu()
	return m.setFlash(flash)
}

// pasteLabel closes a chip's label, numbered when an earlier paste of the session has the same one, so
// that each is replaced by its own text.
func (m *Model) pasteLabel(open string) string {
	label := open + "]"
	for n := 2; slices.ContainsFunc(m.pastes, func(p pasted) bool { return p.label == label }); n++ {
		label = fmt.Sprintf("%s #%d]", open, n)
	}
	return label
}

// expandPastes replaces the labels of long pastes in a prompt by their text.
func (m *Model) expandPastes(s string) string {
	for _, p := range m.pastes {
		s = strings.ReplaceAll(s, p.label, p.text)
	}
	return s
}

// submit handles the prompt on Enter: a slash command runs (an unknown one is refused and stays in the
// prompt to be fixed), anything else is sent as a request, or queued behind the one in progress.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return nil
	}
	in := parseSlash(text)
	if in.kind == slashCommand {
		if _, ok := m.commands.lookup(in.name); !ok {
			return m.runCommand(in)
		}
	}
	if cmd, ok := shellCommand(text); ok && cmd == "" {
		return m.setFlash("Type a command after the ! to run it in your shell")
	}
	m.remember(text)
	m.clearInput()
	switch in.kind {
	case slashCommand:
		return m.runCommand(in)
	case literalSlash:
		text = in.text
	}
	return m.sendPrompt(text)
}

// remember adds a prompt to the history that ↑ recalls.
func (m *Model) remember(text string) {
	if len(m.prompts) == 0 || m.prompts[len(m.prompts)-1] != text {
		m.prompts = append(m.prompts, text)
	}
	m.promptIdx, m.draft = len(m.prompts), ""
}

// clearInput empties the prompt.
func (m *Model) clearInput() {
	m.input.Reset()
	m.inputGen++
	m.layout()
	m.refreshMenu()
}

// request is a prompt on its way: text is what the model gets (long pastes still as their labels until it
// starts) and shown what the transcript shows, when they differ (a command's expansion is shown as the
// command typed); piped is the input piped with the first prompt, which follows text in the same message.
// seq orders it among the messages waiting while the agent works (queue.go).
type request struct {
	text, shown string
	piped       *piped.Input
	seq         int
}

// sendPrompt sends text to the model, or queues it behind the request in progress.
func (m *Model) sendPrompt(text string) tea.Cmd { return m.sendRequest(request{text: text}) }

// sendRequest sends a request, or queues it behind the one in progress.
func (m *Model) sendRequest(r request) tea.Cmd {
	m.conv.follow()
	if m.agent == nil {
		return m.setFlash("No model server: see the setup screen")
	}
	if m.run != nil {
		m.pendingSeq++
		r.seq = m.pendingSeq
		m.queued = append(m.queued, r)
		return m.setFlash(fmt.Sprintf("Queued: it is sent when the current request ends (%s sends a message into it instead)", hintKeys(m.keys.Steer)))
	}
	return m.start(r)
}

// start sends a request: a shell command (!cmd) runs in the person's name; anything else goes to the
// model with the files it mentions (@path) attached.
func (m *Model) start(r request) tea.Cmd {
	r.text = m.expandPastes(r.text)
	shown := r.shown
	if shown == "" {
		shown = r.text
	}
	m.conv.add(&item{kind: itemUser, text: shown})
	if !r.piped.Empty() {
		m.conv.add(&item{kind: itemInfo, text: r.piped.Summary()})
	}
	a, prompt := m.agent, r.text
	if command, ok := shellCommand(prompt); ok && r.shown == "" && r.piped.Empty() {
		return m.startWork(func(ctx context.Context) { a.Shell(ctx, command) })
	}
	// What came on stdin is the person's data, not their words: the files it names are not attached.
	attach := m.mentions(prompt)
	prompt = r.piped.Message(prompt)
	return m.startWork(func(ctx context.Context) { a.RunWith(ctx, prompt, attach) })
}

// startWork runs work as the request in progress: Esc cancels its context, and the program hears when
// it ends.
func (m *Model) startWork(work func(ctx context.Context)) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, done: make(chan struct{}), started: m.now()}
	m.run = r
	return tea.Batch(func() tea.Msg {
		defer close(r.done)
		work(ctx)
		return runEndedMsg{r}
	}, m.tick())
}

// shellCommand reads a prompt of shell mode: "!" and a command.
func shellCommand(prompt string) (string, bool) {
	if !strings.HasPrefix(prompt, "!") {
		return "", false
	}
	return strings.TrimSpace(prompt[1:]), true
}

func (m *Model) runEnded(r *run) tea.Cmd {
	r.cancel()
	if m.run != r {
		return nil
	}
	m.run = nil
	m.conv.version++
	reindex := m.reindexFiles()
	if r.interrupted {
		m.takeSteers()
	} else if s := m.takeSteers(); s != nil {
		// The turn ended before a tool boundary took them: they go first, as the next request.
		m.queued = append([]request{*s}, m.queued...)
	}
	if len(m.queued) > 0 {
		next := m.queued[0]
		m.queued = m.queued[1:]
		return tea.Batch(reindex, m.start(next))
	}
	return reindex
}
