package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
)

// sessions gives an app the session functions main gives the TUI, over real session files.
type sessions struct {
	t    *testing.T
	s    *setup
	dir  string
	mu   sync.Mutex
	next int
}

func withSessions(t *testing.T, s *setup) (*sessions, func(*Options), func(*agent.Options)) {
	ss := &sessions{t: t, s: s, dir: t.TempDir()}
	first, err := agent.CreateStore(ss.dir, "s0", s.dir, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Close() })
	ui := func(o *Options) {
		o.SessionID = "s0"
		o.Sessions = func() ([]agent.SessionInfo, error) { return agent.ListSessions(ss.dir, s.dir) }
		o.OpenSession = ss.open
		o.ListModels = func(ctx context.Context) ([]string, error) { return agent.ListModels(ctx, s.srv.URL(), "") }
	}
	return ss, ui, func(o *agent.Options) { o.Store = first }
}

func (ss *sessions) open(id string, sink agent.Sink, ap agent.Approver) (*Session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	opts := ss.s.agentOptions(sink, ap)
	if id == "" {
		ss.next++
		id = fmt.Sprintf("s%d", ss.next)
		st, err := agent.CreateStore(ss.dir, id, ss.s.dir, "fake-model")
		if err != nil {
			return nil, err
		}
		ss.t.Cleanup(func() { st.Close() })
		opts.Store = st
		a, err := agent.New(opts)
		return &Session{Agent: a, ID: id}, err
	}
	l, msgs, st, err := agent.ResumeSession(agent.SessionPath(ss.dir, id))
	if err != nil {
		return nil, err
	}
	ss.t.Cleanup(func() { st.Close() })
	opts.Store, opts.History = st, msgs
	a, err := agent.New(opts)
	return &Session{Agent: a, ID: id, Model: l.Model, Resumed: l}, err
}

// /clear starts a fresh conversation: the screen is cleared, the model starts from nothing, and the
// earlier session can be resumed from the picker, which lists it with its first prompt and turns.
func TestAppClearAndResume(t *testing.T) {
	s := fullSetup(t, echoScript)
	_, uiOpts, agentOpts := withSessions(t, s)
	a := startAppWith(t, s, uiOpts, agentOpts)
	a.prompt("the first conversation")
	a.waitFor("You said: the first conversation")
	a.idle()
	a.prompt("/clear")
	a.waitFor("new session s1; /resume s0 goes back")
	if strings.Contains(a.screen(), "You said: the first") {
		t.Fatalf("/clear left the conversation on screen:\n%s", a.screen())
	}
	a.prompt("a second one")
	a.waitFor("You said: a second one")
	a.idle()
	reqs := a.srv.Requests()
	last := reqs[len(reqs)-1]
	if strings.Contains(string(last.Raw), "the first conversation") {
		t.Fatal("the model still saw the first conversation after /clear")
	}
	a.prompt("/resume")
	scr := a.waitFor("Resume a session", "the first conversation", "a second one")
	if !strings.Contains(scr, "● ") {
		t.Errorf("the current session is not marked:\n%s", scr)
	}
	a.tm.Type("first")
	a.waitFor("1 of 2")
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("resumed session s0", "You said: the first conversation")
	a.prompt("and again")
	a.waitFor("You said: and again")
	reqs = a.srv.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); !strings.Contains(raw, "the first conversation") || strings.Contains(raw, "a second one") {
		t.Errorf("after /resume the model saw: %s", raw)
	}
}

// /model lists the server's chat models, switches to the chosen one, and the next request uses it.
func TestAppModelPickerSwitches(t *testing.T) {
	s := fullSetup(t, echoScript)
	s.srv.SetModels("fake-model", "other-model", "text-embedding-3-small")
	_, uiOpts, agentOpts := withSessions(t, s)
	a := startAppWith(t, s, uiOpts, agentOpts)
	a.prompt("/model")
	scr := a.waitFor("Models on", "other-model", "● fake-model")
	if strings.Contains(scr, "embedding") {
		t.Errorf("an embedding model is offered:\n%s", scr)
	}
	a.key(tea.KeyPressMsg{Code: tea.KeyDown})
	a.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	a.waitFor("model: other-model from now on")
	a.prompt("hello")
	a.waitFor("You said: hello")
	a.idle()
	reqs := a.srv.Requests()
	if m := reqs[len(reqs)-1].Model; m != "other-model" {
		t.Errorf("the request used %q", m)
	}
	a.prompt("/model third-model")
	a.waitFor("model: third-model from now on")
	a.waitFor("third-model ·")
}

// warden --resume "PROMPT": the picker comes first, and the prompt goes to the session chosen.
func TestAppPickerAtStartThenThePrompt(t *testing.T) {
	s := fullSetup(t, echoScript)
	ss, uiOpts, agentOpts := withSessions(t, s)
	// An earlier session, answered, to pick.
	old, err := ss.open("", func(agent.Event) {}, agent.HeadlessApprover{})
	if err != nil {
		t.Fatal(err)
	}
	old.Agent.Run(context.Background(), "the earlier work")
	a := startAppWith(t, s, func(o *Options) {
		uiOpts(o)
		o.PickSession, o.Prompt = true, "carry on"
	}, agentOpts)
	a.waitFor("Resume a session", "the earlier work")
	if n := len(a.srv.Requests()); n != 1 {
		t.Fatalf("the prompt went before the picker closed (%d requests)", n)
	}
	a.key(keyMsg("enter"))
	a.waitFor("resumed session s1", "You said: carry on")
	reqs := a.srv.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); !strings.Contains(raw, "the earlier work") {
		t.Errorf("the prompt did not go to the session picked: %s", raw)
	}
}
