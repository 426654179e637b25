package ui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/permissions"
)

func TestTheWayToNotifyIsTheSettingsOrFollowsTheTerminalsName(t *testing.T) {
	for _, tc := range []struct {
		setting string
		env     map[string]string
		want    string
	}{
		{"off", map[string]string{"TERM_PROGRAM": "iTerm.app"}, NotifyOff},
		{"osc777", nil, NotifyOSC777},
		{"", map[string]string{"TERM_PROGRAM": "iTerm.app"}, NotifyOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "WezTerm"}, NotifyOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "ghostty"}, NotifyOSC9},
		{"auto", map[string]string{"TERM": "foot"}, NotifyOSC777},
		{"auto", map[string]string{"TERM": "rxvt-unicode-256color"}, NotifyOSC777},
		{"auto", map[string]string{"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"}, NotifyBell},
		{"auto", map[string]string{"TERM": "xterm-kitty"}, NotifyBell},
		{"auto", nil, NotifyBell},
	} {
		if got := notifyMethod(tc.setting, func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%q with %v: %q, want %q", tc.setting, tc.env, got, tc.want)
		}
	}
}

// notices records what a Notifier hears.
type notices struct {
	mu   sync.Mutex
	list []Notice
}

func (n *notices) Notify(x Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, x)
}

func (n *notices) all() []Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Notice(nil), n.list...)
}

// written runs cmd and the commands it batches, as the program would, and returns what they write to
// the terminal as it is (tea.Raw). A command that waits (a tick) is given a moment and then left.
func written(cmd tea.Cmd) string {
	var mu sync.Mutex
	var out strings.Builder
	var wg sync.WaitGroup
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch msg := c().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					run(c)
				}
			case tea.RawMsg:
				mu.Lock()
				fmt.Fprint(&out, msg.Msg)
				mu.Unlock()
			}
		}()
	}
	run(cmd)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	return out.String()
}

// notifyModel is a model that notifies by setting, with a Notifier, at a clock the test moves.
func notifyModel(t *testing.T, setting string) (*Model, *fixedClock, *notices) {
	t.Helper()
	clock := &fixedClock{t: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}
	eng, _ := permissions.NewEngine(permissions.Policy{})
	heard := &notices{}
	m := newModel(Options{Model: "fake-model", Workspace: "/work/project", Engine: eng, Notifications: setting, Notifier: heard,
		SessionID: "20261127-090000-abcdef"}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m, clock, heard
}

func TestAnApprovalNotifiesTheTerminalOnlyWhileItIsOutOfFocus(t *testing.T) {
	const osc9 = "\x1b]9;Warden needs your permission to use bash\a"
	for _, tc := range []struct {
		name    string
		setting string
		before  []tea.Msg
		want    string
	}{
		{"out of focus", "osc9", []tea.Msg{tea.BlurMsg{}}, osc9},
		{"out of focus, osc777", "osc777", []tea.Msg{tea.BlurMsg{}}, "\x1b]777;notify;Warden;Warden needs your permission to use bash\a"},
		{"out of focus, bell", "bell", []tea.Msg{tea.BlurMsg{}}, "\a"},
		{"focus never reported", "osc9", nil, ""},
		{"back in focus", "osc9", []tea.Msg{tea.BlurMsg{}, tea.FocusMsg{}}, ""},
		{"a key typed since", "osc9", []tea.Msg{tea.BlurMsg{}, keyMsg("x")}, ""},
		{"turned off", "off", []tea.Msg{tea.BlurMsg{}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, clock, heard := notifyModel(t, tc.setting)
			for _, msg := range tc.before {
				clock.t = clock.t.Add(time.Second)
				m.Update(msg)
			}
			clock.t = clock.t.Add(time.Second)
			req, _ := touchRequest("c1", "")
			_, cmd := m.Update(req)
			if got := written(cmd); got != tc.want {
				t.Errorf("written %q, want %q", got, tc.want)
			}
			// The hook hears of it whatever the focus and the setting.
			if got := heard.all(); len(got) != 1 || got[0] != (Notice{Kind: NoticePermission, Message: "Warden needs your permission to use bash", SessionID: "20261127-090000-abcdef"}) {
				t.Errorf("the Notifier heard %+v", got)
			}
			if m.View().ReportFocus != (tc.setting != "off") {
				t.Errorf("ReportFocus %v with %q", m.View().ReportFocus, tc.setting)
			}
		})
	}
}

// An approval queued behind the one on screen is no news: the person is already called.
func TestAQueuedApprovalDoesNotNotifyAgain(t *testing.T) {
	m, clock, heard := notifyModel(t, "osc9")
	m.Update(tea.BlurMsg{})
	clock.t = clock.t.Add(time.Second)
	first, _ := touchRequest("c1", "")
	if _, cmd := m.Update(first); written(cmd) == "" {
		t.Fatal("the first approval did not notify")
	}
	second, _ := touchRequest("c2", "")
	if _, cmd := m.Update(second); written(cmd) != "" {
		t.Error("the second approval notified")
	}
	if n := len(heard.all()); n != 1 {
		t.Errorf("the Notifier heard %d notices", n)
	}
}

func TestALongRequestNotifiesWhenItEnds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(m *Model, clock *fixedClock, r *run)
		want  string
	}{
		{"long", func(m *Model, clock *fixedClock, r *run) { clock.t = clock.t.Add(42 * time.Second) },
			"\x1b]9;Warden finished (42.0s) and is waiting for your input\a"},
		{"short", func(m *Model, clock *fixedClock, r *run) { clock.t = clock.t.Add(longRun - time.Second) }, ""},
		{"long, but the person typed lately", func(m *Model, clock *fixedClock, r *run) {
			clock.t = clock.t.Add(time.Minute)
			m.lastKey = clock.t
			clock.t = clock.t.Add(3 * time.Second)
		}, ""},
		{"interrupted", func(m *Model, clock *fixedClock, r *run) {
			clock.t = clock.t.Add(time.Minute)
			r.interrupted = true
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, clock, heard := notifyModel(t, "osc9")
			m.Update(tea.BlurMsg{})
			clock.t = clock.t.Add(time.Second)
			r := &run{cancel: func() {}, done: make(chan struct{}), started: clock.t}
			m.run = r
			tc.setup(m, clock, r)
			m.Update(tea.BlurMsg{}) // a key in the setup would have brought the person back
			_, cmd := m.Update(runEndedMsg{r})
			if got := written(cmd); got != tc.want {
				t.Errorf("written %q, want %q", got, tc.want)
			}
			if n := len(heard.all()); (n == 1) != (tc.want != "") {
				t.Errorf("the Notifier heard %+v", heard.all())
			}
		})
	}
}

func TestANotificationCarriesNoControlCharacters(t *testing.T) {
	a := attention{method: NotifyOSC9}
	got := a.sequence(Notice{Message: "Warden needs your permission to use mcp__evil\x1b]0;owned\a\u202e"})
	if got != "\x1b]9;Warden needs your permission to use mcp__evil]0;owned\a" {
		t.Errorf("%q", got)
	}
}
