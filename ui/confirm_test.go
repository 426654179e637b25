package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/checkpoint"
)

// restorePlan is a plan that puts back one file a call wrote and, when outside is set, one changed outside
// Warden since.
func restorePlan(outside bool) *agent.UndoPlan {
	steps := []checkpoint.Step{{Path: "made-by-a-call.txt"}}
	if outside {
		steps = append(steps, checkpoint.Step{Path: "edited-by-hand.txt", Outside: true})
	}
	return &agent.UndoPlan{Point: agent.Point{Kind: agent.PointTurn, Turn: 2, Prompt: "make x"}, Plan: &checkpoint.Plan{Steps: steps}}
}

// question is one of the program's questions, opened the way the program opens it.
type question struct {
	name string
	// open starts a program at clock's time and opens the question just after the person typed (or, for
	// the questions asked at start, as Warden starts).
	open func(t *testing.T, clock *fixedClock) *Model
	// answer is a key that answers it, and shown what the hint says of it once answers count.
	answer, shown string
}

func questions() []question {
	start := func(opts Options) func(*testing.T, *fixedClock) *Model {
		return func(t *testing.T, clock *fixedClock) *Model {
			m := newModel(opts, clock.now)
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			return m
		}
	}
	return []question{
		{name: "trust", answer: "y", shown: "y approve",
			open: start(Options{Trust: newFakeTrust(".warden/settings.json: allow Bash(make:*)")})},
		{name: "sandbox", answer: "y", shown: "y run unsandboxed",
			open: start(Options{SandboxProblem: "bubblewrap is not installed", RunUnsandboxed: func() {}})},
		{name: "restore", answer: "n", shown: "y restore 1 path", open: func(t *testing.T, clock *fixedClock) *Model {
			m, _ := newTestModel(t, 80, 24)
			m.now = clock.now
			typeText(m, "/undo")
			m.askRestore(restorePlan(false), nil)
			return m
		}},
		{name: "rewind", answer: "esc", shown: "b both · f files · c conversation", open: func(t *testing.T, clock *fixedClock) *Model {
			m, _ := newTestModel(t, 80, 24)
			m.now = clock.now
			m.push(newRewindPicker(m, []agent.Point{{Kind: agent.PointTurn, Turn: 1, Prompt: "make x", Time: clock.now()}}))
			press(m, "enter")
			return m
		}},
	}
}

// Every question ignores the keys typed in the half second before it opened, and each key typed while it
// waits pushes the wait on; once the person pauses, the same key answers it.
func TestAQuestionIgnoresKeysTypedJustBeforeItOpened(t *testing.T) {
	for _, tc := range questions() {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
			m := tc.open(t, clock)
			q, ok := m.top().(*confirm)
			if !ok {
				t.Fatalf("the question is not a confirm: %T", m.top())
			}
			press(m, tc.answer)
			if !slices.Contains(m.overlays, overlay(q)) {
				t.Fatal("a key typed as the question opened answered it")
			}
			clock.t = clock.t.Add(typeAheadGuard - 100*time.Millisecond)
			press(m, tc.answer)
			if !slices.Contains(m.overlays, overlay(q)) {
				t.Fatal("a key typed while the person was still typing answered it")
			}
			if s := plain(m); !strings.Contains(s, "keys paused") || strings.Contains(s, tc.shown) {
				t.Errorf("while keys typed a moment ago hold it back, the hint names the answers:\n%s", s)
			}
			clock.t = clock.t.Add(typeAheadGuard)
			if s := plain(m); !strings.Contains(s, tc.shown) {
				t.Errorf("once answers count the hint does not name them (%q):\n%s", tc.shown, s)
			}
			press(m, tc.answer)
			if slices.Contains(m.overlays, overlay(q)) {
				t.Errorf("%s did not answer the question once the person paused", tc.answer)
			}
		})
	}
}

// A question hidden by a terminal too small to show it waits again when it comes back: keys typed blind
// must not answer it the moment it reappears.
func TestAQuestionHiddenByATooSmallScreenWaitsAgain(t *testing.T) {
	for _, tc := range questions() {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
			m := tc.open(t, clock)
			q := m.top()
			clock.t = clock.t.Add(2 * typeAheadGuard)
			m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
			press(m, tc.answer)
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			press(m, tc.answer)
			if !slices.Contains(m.overlays, q) {
				t.Fatal("a key typed as the question reappeared answered it")
			}
			clock.t = clock.t.Add(2 * typeAheadGuard)
			press(m, tc.answer)
			if slices.Contains(m.overlays, q) {
				t.Error("the question did not take its answer after the wait")
			}
		})
	}
}

// Restoring asks separately about the files changed outside Warden, and the y that answered the first
// question does not answer the second.
func TestTheOutsideQuestionWaitsForItsOwnAnswer(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m, _ := newTestModel(t, 80, 24)
	m.now = clock.now
	m.askRestore(restorePlan(true), nil)
	clock.t = clock.t.Add(time.Second)
	if s := plain(m); !strings.Contains(s, "y restore 1 path") || !strings.Contains(s, "edited-by-hand.txt") {
		t.Fatalf("the first question:\n%s", s)
	}
	press(m, "y", "y")
	if s := plain(m); !strings.Contains(s, "keys paused") || len(m.overlays) != 1 {
		t.Fatalf("a second y answered the question about files changed outside Warden:\n%s", s)
	}
	clock.t = clock.t.Add(time.Second)
	if s := plain(m); !strings.Contains(s, "y also restore the 1 path changed outside Warden · n/esc leave them") {
		t.Errorf("the second question:\n%s", s)
	}
}

// The trust question keeps asking when the trust cannot be saved, and says why.
func TestATrustThatCannotBeSavedKeepsTheQuestion(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	trust := newFakeTrust("x")
	trust.err = errTest("the state directory is read-only")
	m := newModel(Options{Trust: trust}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if s := plain(m); len(m.overlays) != 1 || !strings.Contains(s, "Could not save the trust: the state directory is read-only") {
		t.Errorf("the failed trust:\n%s", s)
	}
	if m.trusted() {
		t.Error("the workspace counts as trusted")
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }
