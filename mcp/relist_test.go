package mcp

import (
	"encoding/json"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

// A server that floods "tools changed" notices costs one fetch of its lists at a time, not a goroutine and a
// request per notice; the lists it ends with are still fetched.
func TestAFloodOfListChangesIsFetchedOneAtATime(t *testing.T) {
	var gated atomic.Bool
	gate := make(chan struct{})
	pinged := make(chan struct{})
	var listings atomic.Int32
	r := &rawServer{serve: func(msg rawMessage, send func(any)) {
		switch msg.Method {
		case "initialize":
			send(msg.initialized(map[string]any{"tools": map[string]any{"listChanged": true}}))
		case "tools/list":
			if !gated.Load() {
				send(msg.reply(rawTools("churn")))
				return
			}
			listings.Add(1)
			go func() {
				<-gate
				send(msg.reply(rawTools("churn", "after")))
			}()
		case "tools/call":
			gated.Store(true)
			for range 500 {
				send(map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
			}
			// The client handles a request from the server after the notices before it.
			send(map[string]any{"jsonrpc": "2.0", "id": "ping-1", "method": "ping"})
			send(msg.reply(map[string]any{"content": []map[string]any{{"type": "text", "text": "churned"}}}))
		case "":
			if string(msg.ID) == `"ping-1"` {
				close(pinged)
			}
		}
	}}
	m := withRaw(t, r)
	list := m.Tools(ctxT(t))
	before := runtime.NumGoroutine()
	res := toolByName(t, list, "mcp__raw__churn").Run(ctxT(t), newEnv(t), tools.Call{ID: "c1", Input: json.RawMessage(`{}`)})
	if res.Output != "churned" {
		t.Fatalf("churn: %+v", res)
	}
	select {
	case <-pinged:
	case <-time.After(deadline):
		t.Fatal("the client never answered the ping sent after the notices")
	}
	if grown := runtime.NumGoroutine() - before; grown > 50 {
		t.Errorf("500 notices left %d more goroutines waiting on fetches", grown)
	}
	changed := make(chan struct{}, 1)
	m.SetOnChange(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	close(gate)
	for end := time.After(deadline); ; {
		if names := toolNamesOf(m.Tools(ctxT(t))); len(names) == 2 {
			break
		}
		select {
		case <-changed:
		case <-end:
			t.Fatalf("the lists after the notices were never fetched: %v", toolNamesOf(m.Tools(ctxT(t))))
		}
	}
	if n := listings.Load(); n > 3 {
		t.Errorf("%d fetches for 500 notices", n)
	}
}

func toolNamesOf(list []tools.Tool) []string {
	var out []string
	for _, tl := range list {
		out = append(out, tl.Name())
	}
	return out
}

// Only a server's first start holds a request (for at most toolsWait): a server that hangs whenever it is
// started again must not hold every request that follows each pause.
func TestARequestDoesNotWaitForAServerStartedAgain(t *testing.T) {
	var starts atomic.Int32
	r := &rawServer{serve: func(msg rawMessage, send func(any)) {
		if msg.Method == "initialize" && starts.Add(1) == 1 {
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32000, "message": "not today"}})
		}
		// Later starts are never answered.
	}}
	m := withRaw(t, r)
	m.toolsWait = time.Hour
	if list := m.Tools(ctxT(t)); len(list) != 0 {
		t.Fatalf("tools of a failed server: %v", toolNamesOf(list))
	}
	s := m.list()[0]
	s.mu.Lock()
	if s.state != Failed {
		t.Fatalf("state after the first start: %s", s.state)
	}
	s.retryAt = time.Now() // the pause is over
	s.mu.Unlock()
	m.Tools(ctxT(t)) // starts it again
	done := make(chan struct{})
	go func() {
		m.Tools(ctxT(t))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("a request waited for a server that hangs on its second start")
	}
	if st := m.Status()[0]; st.State != Starting {
		t.Errorf("state %s while the second start hangs", st.State)
	}
}

// A call that finds the connection broken when it writes (EPIPE: the server no longer reads) ends that
// connection, so that the next call starts the server again.
func TestABrokenPipeEndsTheConnection(t *testing.T) {
	var lists atomic.Int32
	r := &rawServer{serve: func(msg rawMessage, send func(any)) {
		switch msg.Method {
		case "initialize":
			send(msg.initialized(map[string]any{"tools": map[string]any{}}))
		case "tools/list":
			send(msg.reply(rawTools("echo")))
		case "tools/call":
			send(msg.reply(map[string]any{"content": []map[string]any{{"type": "text", "text": "answered"}}}))
		}
	}, deafen: func(msg rawMessage) bool { return msg.Method == "tools/list" && lists.Add(1) == 1 }}
	m := withRaw(t, r)
	echo := toolByName(t, m.Tools(ctxT(t)), "mcp__raw__echo")
	env := newEnv(t)
	res := echo.Run(ctxT(t), env, tools.Call{ID: "c1", Input: json.RawMessage(`{}`)})
	if !res.IsError || !strings.Contains(res.Output, "stopped during the call") {
		t.Errorf("a call on a broken pipe: %q", res.Output)
	}
	if res := echo.Run(ctxT(t), env, tools.Call{ID: "c2", Input: json.RawMessage(`{}`)}); res.Output != "answered" {
		t.Errorf("the next call: %+v", res)
	}
}
