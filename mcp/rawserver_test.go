package mcp

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
)

// rawServer speaks MCP by hand over pipes, so that a test can make a server misbehave in ways the SDK's own
// server never would (floods of notices, answers held back, a start that never answers). Each connection
// calls serve with the messages the client sends and a function to send one back.
type rawServer struct {
	serve func(msg rawMessage, send func(any))
	// deafen, when it returns true for a message, makes the server stop reading before it serves that
	// message, keeping its end of the answers open: the client's next write fails with EPIPE.
	deafen func(msg rawMessage) bool
}

type rawMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
}

func (m rawMessage) reply(result any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}
}

// initialized answers initialize with the given capabilities.
func (m rawMessage) initialized(caps map[string]any) map[string]any {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return m.reply(map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": caps,
		"serverInfo": map[string]any{"name": "raw", "version": "1"}})
}

func rawTools(names ...string) map[string]any {
	list := []map[string]any{}
	for _, n := range names {
		list = append(list, map[string]any{"name": n, "inputSchema": map[string]any{"type": "object"}})
	}
	return map[string]any{"tools": list}
}

// withRaw returns a manager whose servers are raw servers.
func withRaw(t *testing.T, r *rawServer, entries ...config.MCPServerEntry) *Manager {
	t.Helper()
	m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline})
	m.dialHook = func(e config.MCPServerEntry) (*conn, error) {
		// Real pipes, as a process has: a write after the other end closed fails with EPIPE.
		clientIn, serverOut, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		serverIn, clientOut, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { closeAll([]*os.File{clientIn, serverOut, serverIn, clientOut}) })
		var mu sync.Mutex
		send := func(v any) {
			data, _ := json.Marshal(v)
			mu.Lock()
			defer mu.Unlock()
			_, _ = serverOut.Write(append(data, '\n'))
		}
		go func() {
			sc := bufio.NewScanner(serverIn)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var msg rawMessage
				if json.Unmarshal(sc.Bytes(), &msg) != nil {
					continue
				}
				if msg.Method == "server/discover" {
					// The older protocol, which every server speaks: the client falls back to initialize.
					send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
					continue
				}
				if r.deafen != nil && r.deafen(msg) {
					// It stops reading what the client sends before it answers, but stays connected.
					serverIn.Close()
					r.serve(msg, send)
					return
				}
				r.serve(msg, send)
			}
			serverOut.Close()
		}()
		return &conn{transport: &sdk.IOTransport{Reader: clientIn, Writer: clientOut}}, nil
	}
	t.Cleanup(m.Close)
	if len(entries) == 0 {
		entries = []config.MCPServerEntry{{Name: "raw", MCPServer: config.MCPServer{Command: "raw"}}}
	}
	m.Add(entries)
	return m
}
