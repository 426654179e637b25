package ui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/fileindex"
	"github.com/warden-cli/warden/tools"
)

const (
	tickEvery     = 100 * time.Millisecond
	quitWindow    = 2 * time.Second
	flashFor      = 3 * time.Second
	minWidth      = 60
	minHeight     = 15
	maxInputShare = 3 // the input grows to at most a third of the screen
	// A paste longer than this goes into the prompt as a chip (see paste).
	pasteMaxLines = 10
	pasteMaxBytes = 16 << 10
)

// Model is the root of the program: it routes messages to the parts and owns the layout.
type Model struct {
	opts  Options
	send  *sender
	agent *agent.Agent
	now   func() time.Time

	keys    keyMap
	st      styles
	theme   int // bumped when the styles change, for render caches
	isDark  bool
	noColor bool
	md      markdown

	width, height int

	// inputCache is the input's last render and inputCacheKey what it was drawn from; inputGen counts the
	// messages the textarea handled (see inputView).
	inputCache    string
	inputCacheKey inputKey
	inputGen      int
	// statusCache is the status line's last render, drawn from statusCacheKey.
	statusCache    string
	statusCacheKey statusKey

	conv conversation
	// panels are the main agent's calls, in the transcript; calls are every call, sub-agents' too, in
	// the order they were announced; byID finds a call by its key (callKey).
	panels        []*panel
	calls         []*panel
	byID          map[string]*panel
	focus         int // index into panels; -1 follows the newest
	showReasoning bool

	input   textarea.Model
	prompts []string
	// pastes are the long pastes of the session, each shown in the prompt as its label.
	pastes    []pasted
	promptIdx int
	draft     string

	overlays []overlay
	// commands are the slash commands of this session; menu completes them, and @mentions, under the
	// prompt.
	commands *commandSet
	menu     menu
	// toldCommands are the warnings about command files already shown.
	toldCommands map[string]bool
	// todos is the model's checklist, pinned above the prompt (todo.go); todosSet once a call wrote one.
	todos    []tools.TodoItem
	todosSet bool
	// files lists the workspace for @ completion.
	files *fileindex.Index
	// pendingPrompt is the first prompt (warden "PROMPT"), waiting for the questions asked at start.
	pendingPrompt string

	run    *run
	queued []request
	// steers were sent into the turn under way and wait for its next tool boundary (queue.go);
	// pendingSeq numbers what waits, queued or steering, in the order typed.
	steers     []steerEntry
	pendingSeq int
	usage      agent.UsageUpdated
	// retry is the notice of a retry in progress, shown in the rule line until the answer streams again.
	retry string
	// cutOff is an answer a failed stream left half-written, with the line that says so. It stays on
	// screen until the retry brings new text, which replaces it; if every retry fails, it stays.
	cutOff []*item

	// sel is text of the conversation being selected with the mouse (mouse.go).
	sel *selection

	// attn is how to notify the person, and the terminal's focus (notify.go).
	attn attention

	lastKey    time.Time
	quitArmed  time.Time
	flash      string
	flashUntil time.Time
	ticking    bool
}

// run is the request the agent is working on.
type run struct {
	cancel      context.CancelFunc
	done        chan struct{}
	started     time.Time
	interrupted bool
}

type (
	runEndedMsg struct{ r *run }
	tickMsg     struct{}
	// wakeMsg only makes the program render (a modal arming, a flash expiring).
	wakeMsg struct{}
)

func newModel(opts Options, now func() time.Time) *Model {
	m := &Model{
		opts: opts, send: newSender(), now: now,
		keys:   newKeyMap(),
		isDark: true, noColor: os.Getenv("NO_COLOR") != "",
		byID: map[string]*panel{}, focus: -1, conv: conversation{top: -1},
		width: 80, height: 24, commands: newCommandSet(),
		attn: attention{method: notifyMethod(opts.Notifications, os.Getenv)},
	}
	m.st = newStyles(m.isDark)
	m.input = newInput(m.isDark, m.keys)
	m.input.Focus()
	if opts.Resumed != nil {
		m.restore(opts.Resumed)
	} else if opts.SetupError == "" {
		m.addHeader()
	}
	for _, w := range opts.Warnings {
		m.conv.add(&item{kind: itemNotice, text: w})
	}
	// The first screens, the most pressing on top: without a server nothing else matters, and the
	// sandbox question comes before the workspace's settings.
	if opts.SetupError != "" {
		m.push(&setupOverlay{text: opts.SetupError})
		return m
	}
	m.askAtStart()
	if opts.SandboxProblem != "" {
		m.push(m.sandboxQuestion(opts.SandboxProblem))
	}
	return m
}

// connect builds the agent with the program's sink and approver. The sink only delivers once the
// program exists (sender.set).
func (m *Model) connect() error {
	if m.opts.NewAgent == nil || m.opts.SetupError != "" {
		return nil
	}
	a, err := m.opts.NewAgent(m.send.event, approver{m.send})
	if err != nil {
		return err
	}
	m.agent = a
	m.watchTasks()
	return nil
}

// shutdown stops the request in progress and waits a little for the agent to close its calls, then
// kills whatever the bash engine still runs. Called after the program has ended.
func (m *Model) shutdown(wait time.Duration) {
	if m.run != nil {
		m.run.cancel()
		select {
		case <-m.run.done:
		case <-time.After(wait):
		}
	}
	if k, ok := m.opts.Tasks.(interface{ KillAll() }); ok {
		k.KillAll()
	}
}

// Init asks the terminal for its background colour, to pick light or dark styles, and runs the start
// hooks (see registerOnStart).
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if q, ok := m.top().(*confirm); ok {
		// A question asked at start says its keys wait; the screen must change when they count.
		cmds = append(cmds, q.wake(m.now()))
	}
	for _, h := range startHooks {
		cmds = append(cmds, h(m))
	}
	return tea.Batch(cmds...)
}

// Update is the only place the model changes.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		wasSmall := m.tooSmall()
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		m.refreshMenu()
		for _, o := range m.overlays {
			if pg, ok := o.(*pager); ok {
				pg.resize(m.width, m.height)
			}
		}
		if wasSmall && !m.tooSmall() {
			return m, m.rearm()
		}
		return m, nil
	case tea.BackgroundColorMsg:
		m.setDark(msg.IsDark())
		return m, nil
	case tea.KeyPressMsg:
		m.sel = nil
		return m, m.key(msg)
	case tea.MouseMsg:
		return m, m.mouse(msg)
	case tea.PasteMsg:
		if m.tooSmall() {
			return m, nil // nothing on screen shows where it would go
		}
		if len(m.overlays) > 0 {
			return m, m.updateTop(msg)
		}
		return m, m.paste(msg)
	case eventMsg:
		return m, m.event(msg.Event)
	case eventsMsg:
		for _, e := range msg {
			m.apply(nil, e)
		}
		return m, m.tick()
	case tea.FocusMsg, tea.BlurMsg:
		m.attn.heard(msg, m.now())
		return m, nil
	case approvalMsg:
		cmd := m.ask(msg)
		return m, tea.Batch(cmd, m.notifyApproval(msg))
	case runEndedMsg:
		notice := m.notifyRunEnd(msg.r)
		return m, tea.Batch(m.runEnded(msg.r), notice)
	case tickMsg:
		m.ticking = false
		return m, m.tick()
	case wakeMsg:
		return m, nil
	case commandsMsg:
		return m, m.addCommands(msg)
	case promptMsg:
		return m, m.sendPrompt(msg.Text)
	case commandResult:
		return m, msg(m)
	case taskEndedMsg:
		return m, m.taskEnded(msg.TaskEnd)
	case closeOverlay:
		return m, m.pop(msg.o)
	case openOverlay:
		m.push(msg.o)
		return m, nil
	case approvalAnswered:
		return m, m.approvalAnswered(msg)
	case showChanges:
		m.push(newDiffPager(m, msg.p))
		return m, nil
	}
	if len(m.overlays) > 0 {
		return m, m.updateTop(msg)
	}
	return m, m.updateInput(msg)
}

// updateInput lets the prompt editor handle msg, and the menu follow what it now holds.
func (m *Model) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.inputGen++
	m.refreshMenu()
	return cmd
}

func (m *Model) setDark(dark bool) {
	m.isDark = dark
	m.st = newStyles(dark)
	m.input.SetStyles(inputStyles(dark))
	m.theme++
	m.conv.version++
}

// layout sizes the input for the window; the conversation takes what is left. The input's height is
// its text's rows as wrapped at this width (the textarea's DynamicHeight, recomputed by SetWidth), up to
// a third of the screen: counting lines instead would hide all but the last row of a long prompt.
func (m *Model) layout() {
	m.input.MaxHeight = max(m.height/maxInputShare, 1)
	m.input.SetWidth(max(m.width, 10))
	m.conv.version++
}

// key handles a key press: Ctrl+C everywhere, then the too-small screen (which takes only Esc), then the
// top overlay, then the main screen.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	now := m.now()
	m.lastKey = now
	if key.Matches(msg, m.keys.Quit) {
		if !m.quitArmed.IsZero() && now.Sub(m.quitArmed) < quitWindow {
			return tea.Quit
		}
		m.quitArmed = now
		if cmd, ok := m.clearDraft(); ok {
			return cmd
		}
		m.interrupt()
		// The hint lasts exactly as long as a second Ctrl+C would quit.
		hint := "Press " + sentenceKey(m.keys.Quit) + " again to quit"
		if m.opts.Tasks != nil {
			if n := m.opts.Tasks.Running(); n > 0 {
				hint += "; that stops " + plural(n, "background task", "background tasks")
			}
		}
		return m.setFlashFor(hint, quitWindow)
	}
	if m.tooSmall() {
		return m.keyWhileTooSmall(msg)
	}
	if len(m.overlays) > 0 {
		// Answering a prompt lets the work, and its spinner, go on.
		return tea.Batch(m.updateTop(msg), m.tick())
	}
	if m.menu.open() {
		if cmd, ok := m.menuKey(msg); ok {
			return cmd
		}
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Interrupt):
		if m.run != nil {
			flash := "Interrupted"
			if n := m.pendingCount(); n > 0 && !m.run.interrupted {
				them := "it"
				if n > 1 {
					them = "them"
				}
				flash += fmt.Sprintf("; %s not sent (%s recalls %s)", plural(n, "queued prompt", "queued prompts"), hintKeys(k.PrevPrompt), them)
			}
			m.interrupt()
			return m.setFlash(flash)
		}
		if text := strings.TrimSpace(m.input.Value()); text != "" {
			// Nothing to interrupt: Esc clears the prompt, which ↑ brings back.
			m.remember(text)
			m.clearInput()
			return m.setFlash("Prompt cleared: " + hintKeys(k.PrevPrompt) + " brings it back")
		}
		return nil
	case key.Matches(msg, k.History):
		m.push(newHistoryOverlay(m))
		return nil
	case key.Matches(msg, k.Expand):
		if p := m.focusedPanel(); p != nil {
			p.expanded = !p.expanded
			p.out.version++
			m.conv.version++
		}
		return nil
	case key.Matches(msg, k.Background):
		return m.background()
	case key.Matches(msg, k.Mode):
		return m.cycleMode()
	case key.Matches(msg, k.ScrollUp):
		m.conv.scrollBy(max(m.convHeight()-2, 1))
		return nil
	case key.Matches(msg, k.ScrollDown):
		m.conv.scrollBy(-max(m.convHeight()-2, 1))
		return nil
	case key.Matches(msg, k.Follow) && m.conv.scroll > 0:
		// Only while scrolled up: otherwise End moves the cursor in the prompt.
		m.conv.follow()
		return nil
	case key.Matches(msg, k.FocusPrev):
		m.moveFocus(-1)
		return nil
	case key.Matches(msg, k.FocusNext):
		m.moveFocus(1)
		return nil
	case key.Matches(msg, k.Copy):
		return m.copyFocused()
	case key.Matches(msg, k.Reasoning):
		m.showReasoning = !m.showReasoning
		m.conv.version++
		return nil
	case key.Matches(msg, k.Redraw):
		return tea.ClearScreen
	case key.Matches(msg, k.Help) && m.input.Value() == "":
		m.push(newHelpOverlay(m))
		return nil
	case key.Matches(msg, k.Send):
		if m.continueLine() {
			return nil
		}
		return m.submit()
	case key.Matches(msg, k.Steer):
		return m.steer()
	case key.Matches(msg, k.EditQueued) && m.input.Value() == "" && m.pendingCount() > 0:
		return m.editPending()
	case key.Matches(msg, k.RemoveQueued):
		return m.removePending()
	case key.Matches(msg, k.PrevPrompt) && m.input.Line() == 0:
		m.browsePrompts(-1)
		return nil
	case key.Matches(msg, k.NextPrompt) && m.input.Line() == m.input.LineCount()-1 && m.promptIdx < len(m.prompts):
		m.browsePrompts(1)
		return nil
	}
	return m.updateInput(msg)
}

// tooSmall reports a terminal below the smallest size Warden draws in: the screen only says so.
func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

// keyWhileTooSmall handles a key while the screen is too small to show anything. A key must never act
// on what the person cannot see: y would answer a hidden approval prompt, Enter would send a prompt
// they cannot read. So every key is ignored except Ctrl+C (handled before, and quitting still takes two)
// and Esc, which interrupts the request in progress as it does on the full screen: stopping can only
// make less happen, and it withdraws any hidden approval prompt without allowing anything.
func (m *Model) keyWhileTooSmall(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Interrupt) && m.run != nil {
		m.interrupt()
		return m.setFlash("Interrupted")
	}
	return nil
}

// rearm restarts the type-ahead guard of the prompt on top once the screen is big enough to show it
// again: keys typed while it was hidden must not answer it the moment it reappears.
func (m *Model) rearm() tea.Cmd {
	now := m.now()
	m.lastKey = now
	switch o := m.top().(type) {
	case *modal:
		o.armedAt = now.Add(typeAheadGuard)
		return o.wake(now)
	case *confirm:
		o.armedAt = now.Add(typeAheadGuard)
		return o.wake(now)
	case *planOverlay:
		o.ask.armedAt = now.Add(typeAheadGuard)
		return o.ask.wake(now)
	}
	return nil
}

// interrupt cancels the request in progress: the stream and the running command stop, and the approvals
// it was waiting for are withdrawn (the agent's Approve returns on the cancelled context).
func (m *Model) interrupt() {
	if m.run == nil || m.run.interrupted {
		return
	}
	m.run.interrupted = true
	m.run.cancel()
	m.queued = nil
	// Steers still waiting go with the queue; they stay in the prompt history, as queued prompts do.
	m.takeSteers()
	for _, o := range m.overlays {
		if md, ok := o.(*modal); ok {
			m.withdrawAll(md)
		}
	}
}

// tick keeps spinners and elapsed times moving while something runs. Nothing else wakes the program on
// its own: with nothing running, or only a question waiting for the person, it sleeps until a key or
// an event comes.
func (m *Model) tick() tea.Cmd {
	if m.ticking || !m.animating() {
		return nil
	}
	m.ticking = true
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

// animating reports something on screen that changes with the clock: the working spinner, or a running
// command's spinner and elapsed time.
func (m *Model) animating() bool {
	if m.run != nil && !m.run.interrupted && !m.asking() {
		return true
	}
	for _, p := range m.calls {
		if p.state == stateRunning {
			return true
		}
	}
	return false
}

// asking reports an approval prompt waiting for the person.
func (m *Model) asking() bool {
	for _, o := range m.overlays {
		if _, ok := o.(*modal); ok {
			return true
		}
	}
	return false
}

func (m *Model) busy() bool {
	if m.run != nil {
		return true
	}
	for _, p := range m.calls {
		if p.active() {
			return true
		}
	}
	return false
}

func (m *Model) setFlash(s string) tea.Cmd { return m.setFlashFor(s, flashFor) }

func (m *Model) setFlashFor(s string, d time.Duration) tea.Cmd {
	m.flash, m.flashUntil = s, m.now().Add(d)
	return tea.Tick(d, func(time.Time) tea.Msg { return wakeMsg{} })
}

func (m *Model) browsePrompts(dir int) {
	if len(m.prompts) == 0 {
		return
	}
	if m.promptIdx == len(m.prompts) {
		m.draft = m.input.Value()
	}
	m.promptIdx = min(max(m.promptIdx+dir, 0), len(m.prompts))
	if m.promptIdx == len(m.prompts) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(m.prompts[m.promptIdx])
	}
	m.layout()
	// A recalled command is shown, not offered again for completion.
	m.menu.dismissed = m.input.Value()
	m.refreshMenu()
}

func (m *Model) focusedPanel() *panel {
	if len(m.panels) == 0 {
		return nil
	}
	if m.focus < 0 || m.focus >= len(m.panels) {
		return m.panels[len(m.panels)-1]
	}
	return m.panels[m.focus]
}

func (m *Model) moveFocus(d int) {
	if len(m.panels) == 0 {
		return
	}
	i := m.focus
	if i < 0 {
		i = len(m.panels) - 1
	}
	i = min(max(i+d, 0), len(m.panels)-1)
	m.focus = i
	if i == len(m.panels)-1 {
		m.focus = -1 // back at the newest: follow new panels again
	}
	m.conv.version++
}

func (m *Model) background() tea.Cmd {
	p := m.focusedPanel()
	if p == nil || p.state != stateRunning || p.sub != nil {
		// The newest running command, a sub-agent's included.
		for i := len(m.calls) - 1; i >= 0; i-- {
			if c := m.calls[i]; c.state == stateRunning && c.sub == nil {
				p = c
				break
			}
		}
	}
	if p == nil || p.state != stateRunning || p.sub != nil {
		return m.setFlash("No running command to send to the background")
	}
	bg, ok := m.opts.Tasks.(backgrounder)
	if !ok {
		return m.setFlash("This build cannot move commands to the background")
	}
	if !bg.Background(p.id) {
		return m.setFlash("Could not move it to the background: it has ended, or too many tasks run already")
	}
	return m.setFlash("Sent to the background")
}

func (m *Model) cycleMode() tea.Cmd {
	e := m.opts.Engine
	if e == nil {
		return nil
	}
	next := e.Mode().Next()
	e.SetMode(next)
	return m.setFlash(fmt.Sprintf("Permission mode: %s", next))
}

func (m *Model) copyFocused() tea.Cmd {
	p := m.focusedPanel()
	if p == nil {
		return m.setFlash("No tool output to copy")
	}
	text, _ := fullOutput(p)
	return tea.Batch(tea.SetClipboard(text), m.setFlash(fmt.Sprintf("Copied the output of %s (%s) to the clipboard", p.tool, plural(strings.Count(text, "\n")+1, "line", "lines"))))
}
