package mcp

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/printable"
)

// What a server says of itself (its errors, tool and prompt names and descriptions) is drawn by /mcp, the
// / menu and `warden mcp list` on a terminal: a control character in it must arrive as an escape.
func TestWhatAServerSaysIsShownWithControlCharactersEscaped(t *testing.T) {
	evil := "x\x1b[2J\ry\u202e"
	ok := &rawServer{serve: func(msg rawMessage, send func(any)) {
		switch msg.Method {
		case "initialize":
			send(msg.initialized(map[string]any{"tools": map[string]any{}, "prompts": map[string]any{}}))
		case "tools/list":
			send(msg.reply(rawTools("tool" + evil)))
		case "prompts/list":
			send(msg.reply(map[string]any{"prompts": []map[string]any{{"name": "p", "description": "about " + evil,
				"arguments": []map[string]any{{"name": "arg" + evil, "description": "d" + evil}}}}}))
		}
	}}
	failing := &rawServer{serve: func(msg rawMessage, send func(any)) {
		if msg.Method == "initialize" {
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32000, "message": "no: " + evil}})
		}
	}}
	for _, r := range []*rawServer{ok, failing} {
		m := withRaw(t, r)
		m.Tools(ctxT(t))
		var shown []string
		for _, st := range m.Status() {
			shown = append(shown, st.Error, Format(m.Status()))
			for _, tl := range st.Tools {
				shown = append(shown, tl.Remote)
			}
		}
		for _, p := range m.Prompts() {
			shown = append(shown, p.Description)
			for _, a := range p.Args {
				shown = append(shown, a.Label(), a.Description)
			}
		}
		text := strings.Join(shown, "\n")
		if strings.ContainsAny(text, "\x1b\r\u202e") {
			t.Errorf("control characters reach the screen: %q", text)
		}
		if !strings.Contains(text, printable.Escape(evil)) {
			t.Errorf("the escaped text is missing: %q", text)
		}
	}
}

// A server that waits for trust is listed (/mcp must not say none is configured) and never started, and
// holds no request; once trusted, Add starts it in its place.
func TestAServerWaitingForTrustIsListedAndNeverStarted(t *testing.T) {
	var dials atomic.Int32
	m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline})
	m.dialHook = func(config.MCPServerEntry) (*conn, error) {
		dials.Add(1)
		return nil, errors.New("not this time")
	}
	t.Cleanup(m.Close)
	e := config.MCPServerEntry{Name: "fs", File: ".mcp.json", Project: true, MCPServer: config.MCPServer{Command: "npx", Args: []string{"fs"}}}
	m.AddUntrusted([]config.MCPServerEntry{e})
	m.Release()
	if list := m.Tools(ctxT(t)); len(list) != 0 {
		t.Errorf("tools %v", toolNamesOf(list))
	}
	st := m.Status()
	if len(st) != 1 || st[0].State != Untrusted || !strings.Contains(st[0].Error, "not trusted") || st[0].Target != "npx fs" {
		t.Errorf("status %+v", st)
	}
	if ready, total := m.Counts(); ready != 0 || total != 1 {
		t.Errorf("counts %d/%d", ready, total)
	}
	if !strings.Contains(Format(st), "fs  untrusted  (stdio) npx fs") {
		t.Errorf("format:\n%s", Format(st))
	}
	if dials.Load() != 0 {
		t.Fatal("a server waiting for trust was started")
	}
	m.Add([]config.MCPServerEntry{e})
	m.Wait(ctxT(t))
	if st := m.Status(); len(st) != 1 || st[0].State != Failed || dials.Load() != 1 {
		t.Errorf("after trust: %+v, %d starts", st, dials.Load())
	}
}

// warden mcp list keeps its servers' logs in one directory: each run's log replaces the last, so that the
// cap on one run's log bounds the file.
func TestAServersLogIsReplacedByTheNextRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db.log")
	if err := os.WriteFile(path, bytes.Repeat([]byte("old run\n"), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	l := newStderrLog(dir, "db")
	l.begin("db-server")
	l.Write([]byte("new run\n"))
	l.close()
	data, err := os.ReadFile(path)
	if err != nil || strings.Contains(string(data), "old run") || !strings.Contains(string(data), "new run") {
		t.Errorf("log after a new run: %d bytes, %v", len(data), err)
	}
}
