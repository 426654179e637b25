package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/config"
)

// fakeTrust is a workspace's trust held in memory: its items, and the answers recorded.
type fakeTrust struct {
	items              []config.TrustItem
	approved, declined [][]config.TrustItem
	// err, when set, is what recording an approval returns.
	err error
}

// newFakeTrust is a workspace whose items, shown as texts, are all new.
func newFakeTrust(texts ...string) *fakeTrust {
	f := &fakeTrust{}
	for _, t := range texts {
		f.items = append(f.items, config.TrustItem{Key: t, Digest: t, Text: t, State: config.TrustNew})
	}
	return f
}

func (f *fakeTrust) Items() []config.TrustItem { return f.items }

func (f *fakeTrust) Approve(items []config.TrustItem) error {
	if f.err != nil {
		return f.err
	}
	f.approved = append(f.approved, items)
	f.answer(items, config.TrustApproved)
	return nil
}

func (f *fakeTrust) Decline(items []config.TrustItem) error {
	f.declined = append(f.declined, items)
	f.answer(items, config.TrustDeclined)
	return nil
}

func (f *fakeTrust) answer(items []config.TrustItem, st config.TrustState) {
	for i := range f.items {
		if slices.ContainsFunc(items, func(it config.TrustItem) bool { return it.Digest == f.items[i].Digest }) {
			f.items[i].State = st
		}
	}
}

func texts(items []config.TrustItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Text)
	}
	return out
}

// mixedTrust is a workspace whose items have each state: one approved, one declined, one new, one
// changed.
func mixedTrust() *fakeTrust {
	f := newFakeTrust("allow rule Bash(make:*)", "permission mode \"yolo\"", "allow rule Bash(rm:*)", `MCP server "build" would run: make serve EVIL=1`)
	f.items[0].State, f.items[1].State, f.items[3].State = config.TrustApproved, config.TrustDeclined, config.TrustChanged
	return f
}

// At start only what is new or changed since the person last answered is asked about; what they approved
// or declined is not listed, and y approves exactly what was listed.
func TestTheStartQuestionListsOnlyNewAndChangedItems(t *testing.T) {
	trust := mixedTrust()
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Trust: trust}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	s := plain(m)
	for _, want := range []string{"Trust this workspace?", "• allow rule Bash(rm:*)", `• (changed) MCP server "build" would run: make serve EVIL=1`, "(1 item) still applies"} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"Bash(make:*)", "yolo"} {
		if strings.Contains(s, not) {
			t.Errorf("the question lists %q, which was answered before:\n%s", not, s)
		}
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if len(trust.approved) != 1 || !slices.Equal(texts(trust.approved[0]), []string{"allow rule Bash(rm:*)", `MCP server "build" would run: make serve EVIL=1`}) {
		t.Errorf("approved %v", trust.approved)
	}
	if s := plain(m); !strings.Contains(s, "Approved 2 items") || len(m.overlays) != 0 {
		t.Errorf("after y:\n%s", s)
	}
}

// No at start records the decline, so that the next start does not ask again about the same items.
func TestDecliningAtStartIsRecorded(t *testing.T) {
	trust := mixedTrust()
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Trust: trust}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	clock.t = clock.t.Add(time.Second)
	press(m, "n")
	if len(trust.declined) != 1 || len(trust.declined[0]) != 2 || len(trust.approved) != 0 {
		t.Errorf("declined %v, approved %v", trust.declined, trust.approved)
	}
	if s := plain(m); !strings.Contains(s, "asks again when it changes") {
		t.Errorf("after n:\n%s", s)
	}
	m = newModel(Options{Trust: trust}, clock.now)
	if len(m.overlays) != 0 {
		t.Error("the declined items are asked about again at the next start")
	}
}

// /trust asks about every item that waits, the declined ones too, and its no records nothing.
func TestTrustAsksAboutEveryItemThatWaits(t *testing.T) {
	trust := mixedTrust()
	trust.items[2].State, trust.items[3].State = config.TrustDeclined, config.TrustDeclined
	m, clock := newTestModel(t, 120, 30)
	m.opts.Trust = trust
	typeText(m, "/trust")
	press(m, "enter")
	s := plain(m)
	for _, want := range []string{"• (declined before) permission mode \"yolo\"", "• (declined before) allow rule Bash(rm:*)"} {
		if !strings.Contains(s, want) {
			t.Errorf("/trust lacks %q:\n%s", want, s)
		}
	}
	clock.t = clock.t.Add(time.Second)
	press(m, "n")
	if len(trust.declined)+len(trust.approved) != 0 || len(m.overlays) != 0 {
		t.Errorf("not now recorded something: %v %v", trust.declined, trust.approved)
	}
	typeText(m, "/trust")
	press(m, "enter")
	clock.t = clock.t.Add(time.Second)
	press(m, "y")
	if len(trust.approved) != 1 || len(trust.approved[0]) != 3 {
		t.Errorf("approved %v", trust.approved)
	}
	typeText(m, "/trust")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Nothing in this workspace waits for approval: the 4 items its files loosen are approved") {
		t.Errorf("/trust with nothing waiting:\n%s", s)
	}
}

// A project command used before the project's commands are approved is not "unknown": Warden says they
// wait for approval and names /trust.
func TestAProjectCommandThatWaitsNamesTrust(t *testing.T) {
	trust := &fakeTrust{items: []config.TrustItem{{Key: "commands", Digest: "d", Text: "the project's commands", State: config.TrustDeclined, Commands: []string{"explain"}}}}
	m, _ := newTestModel(t, 120, 30)
	m.opts.Trust = trust
	typeText(m, "/explain the parser")
	press(m, "enter")
	s := plain(m)
	if !strings.Contains(s, "/explain is one of this project's commands, which wait for your approval: /trust") || strings.Contains(s, "Unknown command") {
		t.Errorf("/explain in a workspace whose commands wait:\n%s", s)
	}
	press(m, "ctrl+u")
	typeText(m, "/nosuch")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Unknown command /nosuch") {
		t.Errorf("another name:\n%s", s)
	}
}

// A long list scrolls: every item can be read before answering, the last one included.
func TestALongTrustQuestionScrollsToItsLastItem(t *testing.T) {
	var items []string
	for i := range 40 {
		items = append(items, fmt.Sprintf(".warden/settings.json: allow rule Bash(tool%02d:*)", i))
	}
	clock := &fixedClock{t: time.Date(2026, 11, 21, 14, 30, 0, 0, time.UTC)}
	m := newModel(Options{Trust: newFakeTrust(items...)}, clock.now)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	if s := plain(m); strings.Contains(s, "tool39") || !strings.Contains(s, "scroll") {
		t.Fatalf("a long question:\n%s", s)
	}
	for range 5 {
		press(m, "pgdown")
	}
	if s := plain(m); !strings.Contains(s, "Bash(tool39:*)") {
		t.Errorf("scrolled to the end:\n%s", s)
	}
}
