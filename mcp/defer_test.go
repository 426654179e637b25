package mcp

import (
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func offeredNames(list []tools.Tool) []string {
	var out []string
	for _, t := range list {
		out = append(out, t.Name())
	}
	slices.Sort(out)
	return out
}

func requestTools(req fakeapi.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Function.Name)
	}
	slices.Sort(out)
	return out
}

// Past the share of the window, the tools are one search: the model finds echo, which is offered from its
// next step on with nothing else, calls it and reads the answer.
func TestDeferredToolsAreSearchedLoadedAndCalled(t *testing.T) {
	m := inProcess(t)
	ap := &approvals{ans: agent.Approval{Allow: true}}
	r := runAgent(t, m.Offer(1000, 10), permissions.Policy{}, ap,
		fakeapi.ToolCall("c1", "mcp_search", `{"query":"echo its text"}`),
		fakeapi.ToolCall("c2", "mcp__test__echo", `{"text":"found you"}`),
		fakeapi.Text("done"))
	reqs := r.api.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := requestTools(reqs[0]); !slices.Equal(got, []string{"mcp_search"}) {
		t.Errorf("first request offered %v; want only the search", got)
	}
	desc := reqs[0].Tools[0].Function.Description
	if !strings.Contains(desc, "tools wait to be loaded, of the MCP servers test (") || !strings.Contains(desc, "mcp__test__echo") {
		t.Errorf("the search's description does not name what waits:\n%s", desc)
	}
	found := r.toolResult(t, "c1")
	if !strings.HasPrefix(found, "Loaded 1 tools") || !strings.Contains(found, "mcp__test__echo\nEchoes its text.") || !strings.Contains(found, `"text"`) {
		t.Errorf("search result:\n%s", found)
	}
	if got := requestTools(reqs[1]); !slices.Equal(got, []string{"mcp__test__echo", "mcp_search"}) {
		t.Errorf("after the search the request offered %v", got)
	}
	if got := r.toolResult(t, "c2"); got != "echo: found you" {
		t.Errorf("the loaded tool answered %q", got)
	}
	if asked := ap.asked(); len(asked) != 1 || asked[0].Tool != "mcp__test__echo" {
		t.Errorf("a loaded tool is decided like any: asked %+v", asked)
	}
}

// Under the share every tool is sent; a server's "defer" forces either way whatever the share says.
func TestTheShareAndEachServersDeferDecideWhatIsSent(t *testing.T) {
	yes, no := true, false
	m := inProcess(t,
		config.MCPServerEntry{Name: "auto", MCPServer: config.MCPServer{Command: "x"}},
		config.MCPServerEntry{Name: "always", MCPServer: config.MCPServer{Command: "x", Defer: &yes}},
		config.MCPServerEntry{Name: "never", MCPServer: config.MCPServer{Command: "x", Defer: &no}})
	count := func(list []string, prefix string) int {
		n := 0
		for _, s := range list {
			if strings.HasPrefix(s, prefix) {
				n++
			}
		}
		return n
	}
	roomy := offeredNames(m.Offer(1_000_000, 10).Tools(ctxT(t)))
	if count(roomy, "mcp__auto__") == 0 || count(roomy, "mcp__never__") == 0 || count(roomy, "mcp__always__") != 0 || !slices.Contains(roomy, "mcp_search") {
		t.Errorf("under the share: %v", roomy)
	}
	tight := offeredNames(m.Offer(1000, 10).Tools(ctxT(t)))
	if count(tight, "mcp__auto__") != 0 || count(tight, "mcp__never__") == 0 || count(tight, "mcp__always__") != 0 || !slices.Contains(tight, "mcp_search") {
		t.Errorf("over the share: %v", tight)
	}
	all := inProcess(t)
	if got := offeredNames(all.Offer(1_000_000, 10).Tools(ctxT(t))); slices.Contains(got, "mcp_search") || len(got) < 5 {
		t.Errorf("nothing to defer, yet %v", got)
	}
}

// A sub-agent given MCP tools calls them under the parent's rules and approver: a deny rule holds, and
// what asks is asked of the person, labelled with the sub-agent. One given none gets none.
func TestASubAgentCallsAnMCPToolUnderTheParentsGate(t *testing.T) {
	m := inProcess(t)
	ap := &approvals{ans: agent.Approval{Allow: true}}
	r := runAgentWith(t, m.Offer(1_000_000, 10), permissions.Policy{Deny: []string{"mcp__test__write_note"}}, ap,
		func(o *agent.Options) { o.SubAgents = true },
		fakeapi.ToolCall("t1", "task", `{"description":"take notes","prompt":"note it","tools":["mcp__test__echo","mcp__test__write_note"]}`),
		fakeapi.ToolCall("k1", "mcp__test__write_note", `{"text":"x"}`).ToolCall("k2", "mcp__test__echo", `{"text":"from the child"}`),
		fakeapi.Text("child done"),
		fakeapi.ToolCall("t2", "task", `{"description":"plain","prompt":"look"}`),
		fakeapi.Text("plain done"),
		fakeapi.Text("all done"))
	if got := r.toolResult(t, "k1"); !strings.Contains(got, "Permission denied") || !strings.Contains(got, "mcp__test__write_note") {
		t.Errorf("the child's call under a deny rule: %q", got)
	}
	if got := r.toolResult(t, "k2"); got != "echo: from the child" {
		t.Errorf("the child's allowed call: %q", got)
	}
	asked := ap.asked()
	if len(asked) != 1 || asked[0].Tool != "mcp__test__echo" || asked[0].Agent != "take notes" || asked[0].Access.Kind != tools.AccessMCP {
		t.Errorf("approvals %+v", asked)
	}
	reqs := r.api.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6 (the parent's three, each child's two)", len(reqs))
	}
	if got := requestTools(reqs[1]); !slices.Equal(got, []string{"mcp__test__echo", "mcp__test__write_note"}) {
		t.Errorf("the child was offered %v", got)
	}
	if got := requestTools(reqs[4]); slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, "mcp") }) {
		t.Errorf("a child given no MCP tool was offered %v", got)
	}
	if r.done.IsError {
		t.Errorf("the run failed: %+v", r.done)
	}
}

// A name that is no tool of the session is refused with what can be named.
func TestASubAgentCannotBeGivenAnMCPToolThatIsNotThere(t *testing.T) {
	m := inProcess(t)
	r := runAgentWith(t, m.Offer(1_000_000, 10), permissions.Policy{}, &approvals{}, func(o *agent.Options) { o.SubAgents = true },
		fakeapi.ToolCall("t1", "task", `{"description":"x","prompt":"y","tools":["mcp__test__nope","mcp__other"]}`),
		fakeapi.Text("ok"))
	if got := r.toolResult(t, "t1"); !strings.Contains(got, "not available: mcp__test__nope, mcp__other") || !strings.Contains(got, "by server (mcp__SERVER)") {
		t.Errorf("result %q", got)
	}
}
