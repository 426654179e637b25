package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// Typing while the agent works. Enter queues the prompt: it is sent when the request in progress ends.
// The steer key sends it into the turn under way instead: the agent hands it to the model at the next tool
// boundary, with the results of the calls running now (agent.Steer), and the transcript shows it there;
// a turn that ends without another call sends it as the next request, before the queued ones. Both wait
// above the prompt, newest last, until they go; the newest can be taken back into the prompt to edit
// (EditQueued, with the prompt empty) or dropped (RemoveQueued).

// pendingRows is how many lines the waiting messages take at most, their hint included.
const pendingRows = 5

// steerEntry is a steering message handed to the agent and not yet delivered: text is what the model
// gets, shown what was typed (pastes as their labels).
type steerEntry struct {
	text, shown string
	seq         int
}

// pendingCount is how many messages wait: queued prompts and steers.
func (m *Model) pendingCount() int { return len(m.queued) + len(m.steers) }

// steer sends the prompt into the turn under way; with nothing running it is sent as Enter sends it.
func (m *Model) steer() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return nil
	}
	if m.run == nil || m.run.interrupted || m.agent == nil {
		return m.submit()
	}
	if parseSlash(text).kind == slashCommand {
		return m.setFlash("A command cannot steer the model: " + hintKeys(m.keys.Send) + " runs it when the request ends")
	}
	if _, ok := shellCommand(text); ok {
		return m.setFlash("A shell command cannot steer the model: " + hintKeys(m.keys.Send) + " queues it")
	}
	m.remember(text)
	m.clearInput()
	m.pendingSeq++
	e := steerEntry{text: m.expandPastes(text), shown: text, seq: m.pendingSeq}
	m.steers = append(m.steers, e)
	m.agent.Steer(e.text)
	return m.setFlash("Steer: the model reads it at the next tool boundary")
}

// steerDelivered moves a steering message from the waiting list to the transcript, where the model read
// it.
func (m *Model) steerDelivered(e agent.SteerDelivered) {
	shown := e.Text
	for i, s := range m.steers {
		if s.text == e.Text {
			shown = s.shown
			m.steers = append(m.steers[:i], m.steers[i+1:]...)
			break
		}
	}
	m.endStreaming()
	m.conv.add(&item{kind: itemUser, text: "↳ steer: " + shown})
}

// takeSteers returns the steers the agent never delivered, as one request, and forgets them; nil when
// there are none.
func (m *Model) takeSteers() *request {
	if m.agent != nil {
		m.agent.TakeSteers()
	}
	if len(m.steers) == 0 {
		return nil
	}
	var text, shown []string
	for _, s := range m.steers {
		text, shown = append(text, s.text), append(shown, s.shown)
	}
	m.steers = nil
	return &request{text: strings.Join(text, "\n\n"), shown: strings.Join(shown, "\n\n")}
}

// newestPending is where the newest waiting message is: in queued (steer false) or steers, at index i;
// i is -1 when nothing waits.
func (m *Model) newestPending() (i int, steer bool) {
	i, seq := -1, -1
	for j, r := range m.queued {
		if r.seq > seq {
			i, seq, steer = j, r.seq, false
		}
	}
	for j, s := range m.steers {
		if s.seq > seq {
			i, seq, steer = j, s.seq, true
		}
	}
	return i, steer
}

// takePending removes the newest waiting message and returns what was typed for it; ok is false when
// nothing waits, or when the steer reached the model meanwhile.
func (m *Model) takePending() (typed string, ok bool) {
	i, steer := m.newestPending()
	switch {
	case i < 0:
		return "", false
	case steer:
		s := m.steers[i]
		if m.agent != nil && !m.agent.Unsteer(s.text) {
			return "", false // delivered: its SteerDelivered event is on its way
		}
		m.steers = append(m.steers[:i], m.steers[i+1:]...)
		return s.shown, true
	}
	r := m.queued[i]
	m.queued = append(m.queued[:i], m.queued[i+1:]...)
	if r.shown != "" {
		return r.shown, true
	}
	return r.text, true
}

// editPending takes the newest waiting message back into the (empty) prompt.
func (m *Model) editPending() tea.Cmd {
	typed, ok := m.takePending()
	if !ok {
		return m.setFlash("It has reached the model already")
	}
	m.input.SetValue(typed)
	m.inputGen++
	m.layout()
	m.menu.dismissed = m.input.Value()
	m.refreshMenu()
	return m.setFlash(fmt.Sprintf("Taken back to edit: %s queues it again, %s steers", hintKeys(m.keys.Send), hintKeys(m.keys.Steer)))
}

// removePending drops the newest waiting message.
func (m *Model) removePending() tea.Cmd {
	if m.pendingCount() == 0 {
		return m.setFlash("Nothing is queued")
	}
	typed, ok := m.takePending()
	if !ok {
		return m.setFlash("It has reached the model already")
	}
	return m.setFlash("Removed: " + oneLine(typed))
}

// pendingView is the waiting messages' lines above the rule line; nil when none wait.
func (m *Model) pendingView(width int) []string {
	if m.pendingCount() == 0 {
		return nil
	}
	st := m.st
	type line struct {
		seq  int
		text string
	}
	var all []line
	for _, r := range m.queued {
		shown := r.shown
		if shown == "" {
			shown = r.text
		}
		all = append(all, line{r.seq, st.accent.Render("▸ queued ") + st.user.Render(oneLine(shown))})
	}
	for _, s := range m.steers {
		all = append(all, line{s.seq, st.accent.Render("↳ steer  ") + st.user.Render(oneLine(s.shown))})
	}
	// In the order they were typed, steers among the queued.
	slices.SortStableFunc(all, func(a, b line) int { return a.seq - b.seq })
	var lines []string
	if len(all) > pendingRows-1 {
		lines = append(lines, st.dim.Render(fmt.Sprintf("  … %d earlier", len(all)-(pendingRows-2))))
		all = all[len(all)-(pendingRows-2):]
	}
	for _, l := range all {
		lines = append(lines, fit(l.text, width))
	}
	h := hint(hintKeys(m.keys.EditQueued)+" edit", hintKeys(m.keys.RemoveQueued)+" remove", hintKeys(m.keys.Steer)+" steer instead of queueing")
	return append(lines, st.dim.Render(fit("  "+h, width)))
}
