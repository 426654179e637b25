// Package ui is Warden's Bubble Tea program: the conversation, tool panels, the approval modal, the tool
// history and the status line. It drives an agent running in its own goroutine through tea messages.
//
// Only the application (package app) imports ui. It imports agent, and the packages below it whose values it
// shows or whose settings it changes (tools and the tool packages, permissions, config, checkpoint, mcp,
// hooks, commands, skills, fileindex, piped), but never changes agent state except through the agent's API.
// Every change to the model happens in Update: the agent's goroutine reaches the program only through its
// Sink (Program.Send) and the approver's reply channel. What others chose (a command, a file name, a server's
// words) reaches the screen through the leaf printable's one table of characters that must not be drawn as
// they are (text.go).
//
// # Keys
//
// Every key the program acts on is a binding of one key map (keys.go), matched with key.Matches and never
// compared as text; the prompt editor's and the pager's own key maps are set from it. The help (? and
// /help) lists every binding by group, and every hint that names a key (the footers, the status line,
// "ctrl+o to expand") writes it from the binding, so what the screen says cannot drift from what the keys
// do.
//
// # Overlays
//
// Screens on top of the conversation (the approval modal, the questions, pickers, the history, the
// pager, the help) are one stack on the root (overlay.go); the top one gets the keys. An overlay sees the
// program through a narrow overlayCtx (keys, styles, clock, size) and returns what it wants done as a
// message (close, open another, an answer's effect), which the root handles at once. Every yes/no-style
// question (trusting the workspace, running without the sandbox, restoring files, what /rewind takes
// back) is one confirm overlay, and every question, the modal included, ignores keys typed in the half
// second before it opened (typeahead.go).
//
// # Slash commands
//
// A prompt that starts with "/name" runs a Command instead of reaching the model; "/" opens a menu of
// them, and the help screen lists them, both from the session's command set (commands.go). A built-in
// command lives in a file of its own named for it, ui/cmd_NAME.go, which registers it from an init
// function; nothing else needs editing:
//
//	// ui/cmd_undo.go
//	package ui
//
//	func init() {
//		registerBuiltin(Command{Name: "undo", Args: "[CALL_ID]", Desc: "restore the files to before the last turn",
//			Idle: true, // needs no request in progress
//			Run: func(m *Model, args string) tea.Cmd {
//				// runs in Update: change the model here, or return a tea.Cmd for slow work whose
//				// result comes back as a message
//				return m.setFlash("…")
//			}})
//	}
//
// Run may push an overlay (m.push), add to the transcript (m.conv.add), send a prompt (m.sendPrompt) or
// return a tea.Cmd. Slow work (a network call) goes in the tea.Cmd, which changes nothing itself: it
// returns a commandResult, a func(*Model) tea.Cmd that Update calls to apply the outcome, or a
// promptMsg{Text} to send a prompt it built.
//
// Commands found while Warden runs, such as an MCP server's prompts (/mcp__server__prompt), are added by
// sending a commandsMsg{Source, Commands} to the program from any goroutine (m.send.Send); it replaces
// every command of that Source, so a server that reconnects sends its whole list again. A name already
// taken, by a built-in or another source, is refused with a note in the transcript: built-ins always win.
// Work that finds such commands starts from a hook registered with registerOnStart in the same file's
// init function; Init runs the hooks.
package ui

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/commands"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/piped"
	"github.com/warden-cli/warden/safefile"
)

// Options is everything the TUI needs from the application (package app), which builds the session.
type Options struct {
	// NewAgent builds the agent with the UI's sink and approver. It is nil when SetupError is set.
	NewAgent func(sink agent.Sink, approver agent.Approver) (*agent.Agent, error)
	// SetupError, when not empty, is shown as the first screen (no model server found, say) instead of
	// a conversation.
	SetupError string
	SessionID  string
	Model      string
	Workspace  string
	Engine     *permissions.Engine
	// Tasks are the bash engine's background tasks (a *bash.Tasks); nil hides the count.
	Tasks Tasks
	// Trust is the workspace's trust (trust.go): what its files loosen and the person's answers. The
	// items new or changed since the last answer are asked about at start; nil asks nothing.
	Trust Trust
	// ContextWindow is the model's window in tokens, for the status line.
	ContextWindow int
	// Warnings are shown once at start (project instructions that could not be read, say); a resumed
	// session's own warnings come with Resumed and must not be repeated here.
	Warnings []string
	// Resumed is the earlier session this one continues (--continue, --resume), nil for a new session:
	// its conversation and tool calls are shown at start, and its warnings once.
	Resumed *agent.Loaded
	// Sandbox labels how commands are confined, for the status line ("sandbox: bwrap"); "" when they
	// are not.
	Sandbox string
	// SandboxProblem, when not empty, says why the sandbox the person asked for cannot be had. It is
	// asked about before anything runs: y calls RunUnsandboxed and goes on without it, n quits.
	SandboxProblem string
	RunUnsandboxed func()
	// Wall says how commands that run unasked because they were judged read-only are jailed, for the
	// header and /status: "wall: bubblewrap", "wall: landlock", or "wall: off — ..." with why.
	Wall string
	// Settle, when set, does the start-up work the first frame need not wait for; it is called once, off
	// the program's loop, after the first frame, and returns the Wall label and warnings to show.
	Settle func() (wall string, warnings []string)
	// MCP is the session's MCP servers (cmd_mcp.go); nil when there are none.
	MCP MCPServers
	// Hooks is the session's hooks (cmd_hooks.go); nil when none are configured.
	Hooks HookList
	// BaseURL is the model server, for the header and /status.
	BaseURL string
	// ListModels lists the server's models for the /model picker; nil leaves only /model NAME.
	ListModels func(ctx context.Context) ([]string, error)
	// Sessions lists this directory's saved sessions, newest first, for /resume; OpenSession puts another
	// session in place of this one: a new one for id "" (/clear, /new), else the saved session id. Both
	// nil turn those commands off.
	Sessions    func() ([]agent.SessionInfo, error)
	OpenSession func(id string, sink agent.Sink, approver agent.Approver) (*Session, error)
	// Prompt is sent as the first request once the program starts (warden "PROMPT").
	Prompt string
	// Notifications is the ui.notifications setting: how the terminal is told, while out of focus, that an
	// approval waits or a long request ended (notify.go); "" is auto.
	Notifications string
	// Notifier hears every such moment whatever the focus (the Notification hook); nil for none.
	Notifier Notifier
	// Piped is what came on stdin with Prompt (git diff | warden "review this"), nil for nothing: the
	// model gets it after the prompt, in the same message, and the transcript shows its summary.
	Piped *piped.Input
	// PickSession opens the /resume picker at start (--resume without an id).
	PickSession bool
	// Instructions names the project instruction files the model was given (AGENTS.md, CLAUDE.md), for
	// the header.
	Instructions []string
	// SettingsFiles are the settings files that were read, in order; RuleOrigin says where a rule in
	// force was written (a settings file, --allow), "" for one granted while Warden runs.
	SettingsFiles []string
	RuleOrigin    func(list, rule string) string
	// CommandDirs are the person's folders of custom commands, ProjectCommandDirs the project's, which
	// are read only once the person approved them as they are (Trust), and before the person's: the
	// first folder that defines a name wins.
	CommandDirs, ProjectCommandDirs []commands.Dir
	// Skills are the session's skills (cmd_skills.go): /skills lists them, /NAME runs one; nil when the
	// session has none.
	Skills Skills
	// Opener reads the command files (package safefile): a folder or file of the workspace that leads out
	// of it is refused, and shown as a notice once. Nil judges only what a file is, not where it leads.
	Opener *safefile.Opener
	// MouseOff leaves the mouse to the terminal (ui.mouse false): no wheel scrolling, no selection by
	// Warden, and the terminal selects without a modifier.
	MouseOff bool
	// Transcript, when set, gets the conversation as drawn once the program has left the alternate
	// screen (transcript.go): the terminal's standard output, unless ui.transcript_on_exit is false.
	Transcript io.Writer
}

// Session is a session OpenSession opened: its agent, built with the UI's sink and approver, its id, and
// for a saved session what it held.
type Session struct {
	Agent   *agent.Agent
	ID      string
	Model   string
	Resumed *agent.Loaded
}

// Tasks is what the UI needs of the bash engine's task list: the count for the status line, and moving a
// running foreground call to the background (Ctrl+B).
type Tasks interface {
	Running() int
}

// backgrounder is a Tasks that can move the running foreground command of a tool call to the background;
// it reports false when there was no such command or no room for another background task.
type backgrounder interface {
	Background(callID string) bool
}

// Run starts the program and returns when the person quits. The terminal is restored on every way out:
// Bubble Tea restores it on quit, on a panic in Update, View or a command, and on SIGINT/SIGTERM; SIGHUP
// is turned into a quit here.
func Run(opts Options) error {
	m := newModel(opts, time.Now)
	if err := m.connect(); err != nil {
		return err
	}
	p := tea.NewProgram(m)
	m.send.set(p.Send)

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		if _, ok := <-hup; ok {
			p.Quit()
		}
	}()

	_, err := p.Run()
	if opts.Transcript != nil {
		m.printTranscript(opts.Transcript, transcriptMaxLines)
	}
	m.shutdown(3 * time.Second)
	return err
}

// sender delivers messages to the program once it exists. The agent is built before the program (so
// that the model is complete when the program starts), and its sink may only be used after set.
type sender struct {
	once  sync.Once
	ready chan struct{}
	send  func(tea.Msg)
	// events gathers the agent's streamed pieces between frames (coalesce.go).
	events *coalescer
}

func newSender() *sender {
	s := &sender{ready: make(chan struct{})}
	s.events = &coalescer{send: s.Send, every: coalesceEvery}
	return s
}

func (s *sender) set(send func(tea.Msg)) {
	s.once.Do(func() {
		s.send = send
		close(s.ready)
	})
}

// Send blocks until the program takes msg, like Program.Send, and is a no-op once the program has ended.
func (s *sender) Send(msg tea.Msg) {
	<-s.ready
	s.send(msg)
}

// event is the agent's Sink.
func (s *sender) event(e agent.Event) { s.events.event(e) }

// eventMsg carries an agent event into Update.
type eventMsg struct{ agent.Event }

// approver is the agent.Approver of the TUI: it hands the request to Update, which shows the modal, and
// waits for the person's answer or for ctx to end.
type approver struct{ s *sender }

func (a approver) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Approval, error) {
	reply := make(chan agent.Approval, 1)
	a.s.Send(approvalMsg{req: req, reply: reply})
	select {
	case ap := <-reply:
		return ap, nil
	case <-ctx.Done():
		return agent.Approval{}, ctx.Err()
	}
}
