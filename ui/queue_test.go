package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// waitForFile is a bash command that runs until the test creates name in the workspace: a call that is
// surely still running while the test types.
func waitForFile(name string) string {
	return `{"command":"while [ ! -e ` + name + ` ]; do sleep 0.05; done; echo released"}`
}

// release lets a waitForFile command end.
func (a *app) release(name string) {
	a.t.Helper()
	if err := os.WriteFile(filepath.Join(a.dir, name), nil, 0o644); err != nil {
		a.t.Fatal(err)
	}
}

// Messages typed while the agent works wait above the prompt; the newest can be taken back to edit (↑
// with the prompt empty) or dropped (ctrl+x), and what is left goes when the request ends.
func TestAppQueuedMessagesShowAndCanBeEditedOrRemoved(t *testing.T) {
	a := startApp(t)
	a.srv.Reply(
		fakeapi.ToolCall("call_w", "bash", waitForFile("go")),
		fakeapi.Text("First done."),
		fakeapi.Text("Second done."),
	)
	a.prompt("start the work")
	a.waitFor("running")
	a.prompt("then the tests")
	a.waitFor("▸ queued then the tests", "↑ edit · ctrl+x remove")
	a.prompt("and a typo")
	a.waitFor("▸ queued then the tests", "▸ queued and a typo")

	a.key(tea.KeyPressMsg{Code: tea.KeyUp})
	s := a.waitUntil("the newest taken back into the prompt", func(s string) bool {
		return strings.Contains(s, "❯ and a typo") && !strings.Contains(s, "▸ queued and a typo")
	})
	if !strings.Contains(s, "▸ queued then the tests") {
		t.Fatalf("taking the newest back took the other too:\n%s", s)
	}
	a.key(ctrl('u'))
	a.prompt("and the docs")
	a.waitFor("▸ queued and the docs")
	a.key(ctrl('x'))
	a.waitUntil("the newest dropped", func(s string) bool {
		return !strings.Contains(s, "queued and the docs") && strings.Contains(s, "▸ queued then the tests")
	})

	a.release("go")
	a.waitFor("Second done.")
	reqs := a.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the turn's two and the one queued prompt", len(reqs))
	}
	if last := reqs[2].LastUser(); last != "then the tests" {
		t.Errorf("the request after the turn carried %q", last)
	}
	for _, r := range reqs {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "typo") || strings.Contains(m.Content, "docs") {
				t.Errorf("a message taken back or dropped reached the model: %q", m.Content)
			}
		}
	}
	if s := a.screen(); strings.Contains(s, "▸ queued") {
		t.Errorf("the queue still shows after it went:\n%s", s)
	}
}

// The steer key sends the draft into the turn under way: it waits above the prompt until the running call
// returns, then goes to the model right after the call's result, and the transcript shows it there.
func TestAppSteerReachesTheModelAtTheNextToolBoundary(t *testing.T) {
	a := startApp(t)
	a.srv.Reply(
		fakeapi.ToolCall("call_w", "bash", waitForFile("go")),
		fakeapi.Text("Steered: using printf."),
	)
	a.prompt("print the greeting")
	a.waitFor("running")
	a.tm.Type("use printf instead")
	a.key(ctrl('s'))
	a.waitFor("↳ steer  use printf instead")
	if n := len(a.srv.Requests()); n != 1 {
		t.Fatalf("the steer did not wait for the tool boundary: %d requests", n)
	}
	a.release("go")
	s := a.waitFor("Steered: using printf.", "↳ steer: use printf instead")
	if strings.Contains(s, "↳ steer  use printf") {
		t.Errorf("the steer still waits above the prompt after it went:\n%s", s)
	}
	msgs := a.srv.Requests()[1].Messages
	last, before := msgs[len(msgs)-1], msgs[len(msgs)-2]
	if last.Role != "user" || last.Content != "use printf instead" || before.Role != "tool" || !strings.Contains(before.Content, "released") {
		t.Errorf("the model read %+v after %+v", last, before)
	}
	// The transcript shows it after the call, where the model read it.
	if strings.Index(s, "↳ steer: use printf") < strings.Index(s, "released") {
		t.Errorf("the steer shows before the call's output:\n%s", s)
	}
}

// A steer sent while the model only writes text finds no tool boundary: it goes as the next request
// when the turn ends, before what was queued.
func TestAppASteerWithoutABoundaryIsTheNextRequest(t *testing.T) {
	a := startApp(t)
	a.srv.Reply(
		fakeapi.Text(strings.Repeat("words ", 40)).Chunk(2).Delay(30*time.Millisecond),
		fakeapi.Text("Heard the steer."),
		fakeapi.Text("Heard the queued one."),
	)
	a.prompt("tell a long story")
	a.waitFor("words words")
	a.prompt("queued after")
	a.tm.Type("shorter please")
	a.key(ctrl('s'))
	a.waitFor("↳ steer  shorter please", "▸ queued queued after")
	a.waitFor("Heard the queued one.")
	reqs := a.srv.Requests()
	if len(reqs) != 3 || reqs[1].LastUser() != "shorter please" || reqs[2].LastUser() != "queued after" {
		var got []string
		for _, r := range reqs {
			got = append(got, r.LastUser())
		}
		t.Errorf("requests carried %q, want the story, the steer, the queued prompt", got)
	}
}

// Esc drops what waits, steers included, and says so.
func TestAppInterruptDropsWaitingSteers(t *testing.T) {
	a := startApp(t)
	a.srv.Reply(fakeapi.ToolCall("call_w", "bash", waitForFile("never")))
	a.prompt("start the work")
	a.waitFor("running")
	a.tm.Type("use printf")
	a.key(ctrl('s'))
	a.waitFor("↳ steer  use printf")
	a.key(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.waitFor("1 queued prompt not sent")
	a.idle()
	if s := a.screen(); strings.Contains(s, "↳ steer") {
		t.Errorf("the steer still waits after the interrupt:\n%s", s)
	}
	if n := len(a.srv.Requests()); n != 1 {
		t.Errorf("%d requests: the dropped steer was sent", n)
	}
}
