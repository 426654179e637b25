package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// Quitting stops background tasks; the hint says so before the second Ctrl+C.
func TestQuitHintNamesTheBackgroundTasksItStops(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	m.opts.Tasks = &fakeTasks{running: 2}
	press(m, "ctrl+c")
	if s := plain(m); !strings.Contains(s, "Press Ctrl+C again to quit; that stops 2 background tasks") {
		t.Errorf("hint:\n%s", s)
	}
}

// The first Ctrl+C says what the second will do even on the too-small screen.
func TestQuitHintShowsOnTheTooSmallScreen(t *testing.T) {
	m, _ := newTestModel(t, 50, 10)
	m.opts.Tasks = &fakeTasks{running: 1}
	press(m, "ctrl+c")
	if s := plain(m); !strings.Contains(strings.Join(strings.Fields(s), " "), "that stops 1 background task") {
		t.Errorf("screen:\n%s", s)
	}
}

// A prompt that opens while the person reads further up brings the conversation back to what asks.
func TestModalBringsTheAskingCallIntoView(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	for i := range 40 {
		send(m, agent.AssistantText{Text: fmt.Sprintf("paragraph %d", i)})
	}
	m.View()
	press(m, "pgup", "pgup")
	if m.conv.scroll == 0 {
		t.Fatal("PgUp did not scroll")
	}
	startCall(m, "c1", "touch st")
	msg, _ := touchRequest("c1", "")
	m.Update(msg)
	if m.conv.scroll != 0 {
		t.Errorf("the conversation stayed scrolled up (%d) behind the modal", m.conv.scroll)
	}
	if s := plain(m); !strings.Contains(s, "$ touch st") {
		t.Errorf("the asking panel is not in sight:\n%s", s)
	}
}

// A paste with tabs reaches the model with its tabs: the editor would turn them into spaces.
func TestPasteWithTabsKeepsThem(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m.Update(tea.PasteMsg{Content: "all:\n\tgo build ./...\n"})
	if len(m.pastes) != 1 || m.pastes[0].text != "all:\n\tgo build ./...\n" {
		t.Errorf("pastes = %+v", m.pastes)
	}
}

// Ctrl+C twice quits from every full-screen view, and the first says so there too: the history, the
// pager on one call's output, the help and the session picker hide the line where the hint usually shows.
func TestCtrlCTwiceQuitsFromFullScreenViews(t *testing.T) {
	for _, open := range [][]string{{"ctrl+t"}, {"ctrl+t", "enter"}, {"?"}, {"ctrl+t", "/"}} {
		t.Run(strings.Join(open, " "), func(t *testing.T) {
			m, _ := newTestModel(t, 100, 24)
			startCall(m, "c1", "ls")
			press(m, open...)
			if o := m.top(); o == nil || !o.fullScreen() {
				t.Fatalf("%v opened no full-screen view:\n%s", open, plain(m))
			}
			press(m, "ctrl+c")
			if s := plain(m); !strings.Contains(s, "Press Ctrl+C again to quit") {
				t.Errorf("the first ctrl+c says nothing:\n%s", s)
			}
			if _, cmd := m.Update(keyMsg("ctrl+c")); cmd == nil || !isQuit(cmd) {
				t.Errorf("the second ctrl+c did not quit")
			}
		})
	}
}
