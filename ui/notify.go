package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/printable"
)

// Telling a person in another window that Warden needs them: an approval waits, or a long request
// ended. The terminal reports when it loses and regains focus (focus reporting, which the view turns on);
// while it is known to be out of focus, Warden writes a notification the terminal turns into a desktop
// notice or an urgency hint, in the way the ui.notifications setting picks. A terminal that never
// reports focus is taken to be in focus: it gets no notifications rather than one for every question
// asked in front of the person.
//
// Every such moment also goes to Options.Notifier, whatever the focus and the setting: it runs the
// Notification hook, whose program decides for itself (a hook is how tmux users without focus-events,
// or a phone, hear of it).

// The ways to notify (ui.notifications).
const (
	NotifyAuto   = "auto"   // chosen from the terminal's name (notifyMethod)
	NotifyOSC9   = "osc9"   // ESC ] 9 ; text BEL: iTerm2, WezTerm, Ghostty
	NotifyOSC777 = "osc777" // ESC ] 777 ; notify ; title ; text BEL: foot, rxvt-unicode, Ghostty
	NotifyBell   = "bell"   // BEL: every terminal; most turn it into a badge or a bounce
	NotifyOff    = "off"
)

// longRun is how long a request must have worked on its own (since it started or since the person's
// last key, whichever is later) for its end to be worth a notification.
const longRun = 10 * time.Second

// The kinds of notice, in the words of Claude Code's notification_type, which the Notification hook's
// matcher and input use.
const (
	NoticePermission = "permission_prompt"
	NoticeIdle       = "idle_prompt"
)

// Notice is one moment Warden wants the person back.
type Notice struct {
	Kind    string // NoticePermission or NoticeIdle
	Message string // "Warden needs your permission to use bash"
	// SessionID is the session on screen when it happened (the hook's session_id).
	SessionID string
}

// Notifier hears every Notice, off the program's loop: it may take its time (a hook runs a program).
type Notifier interface {
	Notify(Notice)
}

// attention is what the model knows of the person's attention: how to notify, and the terminal's focus
// as last reported.
type attention struct {
	method          string
	blurAt, focusAt time.Time
}

// notifyMethod is the way setting names, with auto resolved from the terminal's name in the environment.
// Inside tmux the bell is the one that reaches the terminal outside (tmux keeps other sequences to
// itself unless allow-passthrough is set); a terminal not known to show OSC 9 or OSC 777 gets the bell.
func notifyMethod(setting string, getenv func(string) string) string {
	if setting != "" && setting != NotifyAuto {
		return setting
	}
	term := getenv("TERM")
	switch {
	case getenv("TMUX") != "":
		return NotifyBell
	case strings.HasPrefix(term, "foot"), strings.Contains(term, "rxvt"):
		return NotifyOSC777
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return NotifyOSC9
	}
	return NotifyBell
}

// reportFocus says whether the terminal should report focus: only to notify is it needed.
func (a *attention) reportFocus() bool { return a.method != NotifyOff }

// heard records a focus report.
func (a *attention) heard(msg tea.Msg, now time.Time) {
	switch msg.(type) {
	case tea.FocusMsg:
		a.focusAt = now
	case tea.BlurMsg:
		a.blurAt = now
	}
}

// away says the terminal reported losing focus and nothing since says the person is back: no focus
// report, no key.
func (a *attention) away(lastKey time.Time) bool {
	return !a.blurAt.IsZero() && a.blurAt.After(a.focusAt) && a.blurAt.After(lastKey)
}

// sequence is what the terminal is sent to notify of n.
func (a *attention) sequence(n Notice) string {
	text := notificationText(n.Message)
	switch a.method {
	case NotifyOSC9:
		return "\x1b]9;" + text + "\a"
	case NotifyOSC777:
		return "\x1b]777;notify;Warden;" + text + "\a"
	case NotifyBell:
		return "\a"
	}
	return ""
}

// notificationText is msg as it may stand inside an escape sequence: no character that would end or
// bend it (control characters, invisible ones), and short, as a notice is.
func notificationText(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if printable.Hidden(r) {
			return -1
		}
		return r
	}, msg)
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:199]) + "…"
	}
	return msg
}

// notify is the one place Warden asks for the person: the terminal is told when it is out of focus,
// and the Notifier always.
func (m *Model) notify(n Notice) tea.Cmd {
	n.SessionID = m.opts.SessionID
	var cmds []tea.Cmd
	if seq := m.attn.sequence(n); seq != "" && m.attn.away(m.lastKey) {
		cmds = append(cmds, tea.Raw(seq))
	}
	if nf := m.opts.Notifier; nf != nil {
		cmds = append(cmds, func() tea.Msg {
			nf.Notify(n)
			return nil
		})
	}
	return tea.Batch(cmds...)
}

// notifyApproval notifies of an approval the modal has just put in front of the person; one queued
// behind another already on screen is not news.
func (m *Model) notifyApproval(msg approvalMsg) tea.Cmd {
	md, ok := m.top().(*modal)
	if !ok || len(md.queue) == 0 || md.queue[0].reply != msg.reply {
		return nil
	}
	return m.notify(Notice{Kind: NoticePermission, Message: "Warden needs your permission to use " + msg.req.Tool})
}

// notifyRunEnd notifies of the end of r, the request in progress, when it worked long on its own and
// nothing follows it: an interrupted request was ended by the person, and a queued one goes on at once.
func (m *Model) notifyRunEnd(r *run) tea.Cmd {
	if m.run != r || r.interrupted || len(m.queued) > 0 {
		return nil
	}
	since := r.started
	if m.lastKey.After(since) {
		since = m.lastKey
	}
	took := m.now().Sub(r.started)
	if m.now().Sub(since) < longRun {
		return nil
	}
	return m.notify(Notice{Kind: NoticeIdle, Message: fmt.Sprintf("Warden finished (%s) and is waiting for your input", shortDuration(took))})
}
