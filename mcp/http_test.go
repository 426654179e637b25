package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
)

// An HTTP server reached by streamable HTTP or SSE, with the configured headers (${VAR} expanded) on every
// request.
func TestHTTPAndSSEServersWithHeaders(t *testing.T) {
	for _, kind := range []string{"http", "sse"} {
		t.Run(kind, func(t *testing.T) {
			var mu sync.Mutex
			var auth []string
			getServer := func(*http.Request) *sdk.Server { return newTestServer(func() {}) }
			var handler http.Handler = sdk.NewStreamableHTTPHandler(getServer, nil)
			if kind == "sse" {
				handler = sdk.NewSSEHandler(getServer, nil)
			}
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				auth = append(auth, r.Header.Get("Authorization"))
				mu.Unlock()
				handler.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline,
				Getenv: func(k string) string { return map[string]string{"API_TOKEN": "tok-123", "HOST": ts.URL}[k] }})
			t.Cleanup(m.Close)
			m.Add([]config.MCPServerEntry{{Name: "remote", MCPServer: config.MCPServer{Type: kind, URL: "${HOST}/mcp",
				Headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}}}})
			list := m.Tools(ctxT(t))
			if res := call(t, ctxT(t), toolByName(t, list, "mcp__remote__echo"), newEnv(t), `{"text":"over the wire"}`); res.Output != "echo: over the wire" {
				t.Errorf("echo: %+v (status %+v)", res, m.Status())
			}
			mu.Lock()
			defer mu.Unlock()
			if len(auth) == 0 {
				t.Fatal("no request reached the server")
			}
			for _, a := range auth {
				if a != "Bearer tok-123" {
					t.Errorf("a request carried Authorization %q", a)
				}
			}
		})
	}
}

func TestAnUnsetVariableFailsTheServerNamingIt(t *testing.T) {
	m := New(Options{Workspace: t.TempDir(), LogDir: t.TempDir(), StartTimeout: deadline, Getenv: func(string) string { return "" }})
	t.Cleanup(m.Close)
	m.Add([]config.MCPServerEntry{{Name: "remote", MCPServer: config.MCPServer{Type: "http", URL: "https://example.invalid/mcp",
		Headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}}}})
	m.Tools(ctxT(t))
	st := m.Status()[0]
	if st.State != Failed || !strings.Contains(st.Error, "API_TOKEN, which is not set") {
		t.Errorf("%s: %q", st.State, st.Error)
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"A": "1", "EMPTY": ""}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"${A}-${A}", "1-1", ""},
		{"${B:-two}", "two", ""},
		{"${EMPTY:-d}", "d", ""},
		{"$A stays", "$A stays", ""},
		{"${B}", "", "B, which is not set"},
		{"${A", "", "without a closing }"},
		{"${1x}", "", "not a variable name"},
	} {
		got, err := expand(tc.in, getenv)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestToolNames(t *testing.T) {
	taken := map[string]bool{}
	for _, tc := range []struct{ tool, want string }{
		{"read_file", "mcp__fs__read_file"},
		{"read.file", "mcp__fs__read_file_2"},
		{"ünïcode tool", "mcp__fs___n_code_tool"},
		{strings.Repeat("x", 80), "mcp__fs__" + strings.Repeat("x", 46)},
	} {
		got := toolName("fs", tc.tool, taken)
		if len(got) > maxNameLen || !strings.HasPrefix(got, tc.want[:min(len(tc.want), len(got))]) {
			t.Errorf("toolName(%q) = %q, want %q…", tc.tool, got, tc.want)
		}
	}
}
