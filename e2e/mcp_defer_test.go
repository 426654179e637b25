package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The MCP tools of a heavy set-up, the reference server-everything configured twice and a server of 100
// tools, sent with every request or deferred behind mcp_search.

// bulkTools is how many tools the bulk server has.
const bulkTools = 100

type bulkIn struct {
	ID      string   `json:"id" jsonschema:"the record's identifier, as the list operation returns it"`
	Fields  []string `json:"fields,omitempty" jsonschema:"the fields to return; all of them when left out"`
	Limit   int      `json:"limit,omitempty" jsonschema:"how many records at most, from 1 to 500"`
	Comment string   `json:"comment,omitempty" jsonschema:"a note kept in the audit log with the operation"`
}

// bulkServer serves, from this process over streamable HTTP, a server shaped like the large ones people
// connect (an issue tracker's, a cloud's): 100 tools, each with a paragraph of description and a schema of
// a few parameters. It returns the server's URL.
func bulkServer(tb testing.TB) string {
	tb.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "bulk", Version: "1"}, nil)
	for i := range bulkTools {
		sdk.AddTool(srv, &sdk.Tool{Name: fmt.Sprintf("records-op-%03d", i),
			Description: fmt.Sprintf("Runs operation %d on the records of the inventory service: it reads the record the id names, "+
				"applies the operation's rules to the fields asked for, and returns the result as JSON. Use it when the user "+
				"asks about stock levels, reservations or the history of a record; it never deletes anything.", i)},
			func(ctx context.Context, _ *sdk.CallToolRequest, in bulkIn) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "record " + in.ID}}}, nil, nil
			})
	}
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	tb.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// everythingBin is the reference server's program, which .ci/run installs from npm.
func everythingBin(tb testing.TB) string {
	tb.Helper()
	bin, err := exec.LookPath("mcp-server-everything")
	if err != nil {
		tb.Fatalf("mcp-server-everything is not installed: npm install -g @modelcontextprotocol/server-everything@2026.8.31 (.ci/run does it)")
	}
	return bin
}

// writeHeavyMCP writes the person's settings with server-everything twice and the bulk server at url; with
// full, each server says "defer": false, so that every tool is sent.
func writeHeavyMCP(tb testing.TB, configHome, bin, url string, full bool) {
	tb.Helper()
	servers := map[string]map[string]any{
		"everything":  {"command": bin},
		"everything2": {"command": bin},
		"bulk":        {"type": "http", "url": url},
	}
	if full {
		for _, s := range servers {
			s["defer"] = false
		}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.MkdirAll(filepath.Join(configHome, "warden"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(configHome, "warden", "settings.json"), data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// headless runs one headless request in dir with env and returns its stream-json output.
func headless(tb testing.TB, dir string, env []string, server *fakeapi.Server, extra ...string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"-p", "go", "--trust", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json"}, extra...)
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("warden %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

func toolNamesOf(req fakeapi.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// With the heavy set-up the first request holds mcp_search in place of the servers' tools, and a deferred
// tool still works: the model searches, the tool is loaded, the model calls it and reads its answer; the
// conversation resumed goes on with it. With every server set to "defer": false, all of their tools are
// sent again.
func TestDeferredMCPToolsWorkEndToEnd(t *testing.T) {
	bin, url := everythingBin(t), bulkServer(t)
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	writeHeavyMCP(t, configOf(r), bin, url, false)
	server.Reply(
		fakeapi.ToolCall("c1", "mcp_search", `{"query":"echo"}`),
		fakeapi.ToolCall("c2", "mcp__everything__echo", `{"message":"deferred hello"}`),
		fakeapi.Text("done"))
	out := headless(t, r.workspace, r.env, server, "--allow", "mcp__everything__echo")
	reqs := server.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests\n%s", len(reqs), out)
	}
	first := toolNamesOf(reqs[0])
	if !slices.Contains(first, "mcp_search") || slices.ContainsFunc(first, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Errorf("the first request offered %v; want mcp_search in place of the MCP tools", first)
	}
	results := map[string]string{}
	for _, ev := range events(t, out) {
		if ev["type"] == "tool_result" {
			results[ev["id"].(string)], _ = ev["output"].(string)
		}
	}
	if !strings.Contains(results["c1"], "\nmcp__everything__echo\n") {
		t.Errorf("the search did not load echo:\n%s", results["c1"])
	}
	if !slices.Contains(toolNamesOf(reqs[1]), "mcp__everything__echo") {
		t.Errorf("after the search the request offered %v", toolNamesOf(reqs[1]))
	}
	if results["c2"] != "Echo: deferred hello" {
		t.Errorf("the loaded tool answered %q", results["c2"])
	}

	// The conversation resumed goes on with the tool it loaded.
	server.Reply(fakeapi.ToolCall("c3", "mcp__everything__echo", `{"message":"again"}`), fakeapi.Text("done"))
	out = headless(t, r.workspace, r.env, server, "--continue", "--allow", "mcp__everything__echo")
	if got := toolNamesOf(server.Requests()[3]); !slices.Contains(got, "mcp__everything__echo") {
		t.Errorf("the resumed conversation was offered %v", got)
	}
	if !strings.Contains(out, "Echo: again") {
		t.Errorf("the resumed call did not answer:\n%s", out)
	}

	writeHeavyMCP(t, configOf(r), bin, url, true)
	server.Reply(fakeapi.Text("done"))
	headless(t, r.workspace, r.env, server)
	all := toolNamesOf(server.Requests()[5])
	n := 0
	for _, name := range all {
		if strings.HasPrefix(name, "mcp__") {
			n++
		}
	}
	if slices.Contains(all, "mcp_search") || n < bulkTools+2 || !slices.Contains(all, "mcp__everything2__echo") {
		t.Errorf("with defer false: %d MCP tools, %v", n, all)
	}
}

// BenchmarkMCPFirstRequest: the size of the first request, with the heavy set-up's tools deferred (the
// default, as they pass 10% of the window) and with every server set to send them all.
func BenchmarkMCPFirstRequest(b *testing.B) {
	bin, url := everythingBin(b), bulkServer(b)
	server := fakeapi.New()
	defer server.Close()
	dir, env := benchEnv(b)
	configHome := strings.TrimPrefix(env[slices.IndexFunc(env, func(e string) bool { return strings.HasPrefix(e, "XDG_CONFIG_HOME=") })], "XDG_CONFIG_HOME=")
	size := func(full bool) int {
		writeHeavyMCP(b, configHome, bin, url, full)
		before := len(server.Requests())
		server.Reply(fakeapi.Text("done"))
		headless(b, dir, env, server)
		req := server.Requests()[before]
		searched := slices.Contains(toolNamesOf(req), "mcp_search")
		if searched == full {
			b.Fatalf("full %v, yet mcp_search offered %v", full, searched)
		}
		return len(req.Raw)
	}
	var deferred, full int
	for b.Loop() {
		deferred, full = size(false), size(true)
	}
	b.ReportMetric(float64(deferred)/1024, "deferred-KB")
	b.ReportMetric(float64(full)/1024, "full-KB")
	b.ReportMetric(float64(deferred)/float64(full), "ratio")
}
