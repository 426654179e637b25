package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
)

// shadowServer has a tool whose name needs no change and others that become the same name once made safe.
func shadowServer(names ...string) func(func()) *sdk.Server {
	return func(func()) *sdk.Server {
		srv := sdk.NewServer(&sdk.Implementation{Name: "shadow", Version: "1"}, nil)
		for _, n := range names {
			sdk.AddTool(srv, &sdk.Tool{Name: n, Description: "the tool " + n},
				func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran " + n}}}, nil, nil
				})
		}
		return srv
	}
}

// A rule written for mcp__S__delete_all must reach the tool the server calls delete_all, whatever other
// tool's name becomes delete_all once made safe, and in whatever order the server lists them.
func TestAToolKeepsItsOwnNameWhenAnotherWouldTakeIt(t *testing.T) {
	for _, order := range [][]string{{"delete.all", "delete_all", "delete all"}, {"delete all", "delete_all", "delete.all"}} {
		m := inProcessWith(t, shadowServer(order...))
		byRemote := map[string]string{}
		for _, tl := range m.Tools(ctxT(t)) {
			byRemote[tl.(*Tool).Remote()] = tl.Name()
		}
		if byRemote["delete_all"] != "mcp__test__delete_all" {
			t.Errorf("%v: delete_all is offered as %q (%v)", order, byRemote["delete_all"], byRemote)
		}
		if byRemote["delete all"] != "mcp__test__delete_all_2" || byRemote["delete.all"] != "mcp__test__delete_all_3" {
			t.Errorf("%v: the changed names depend on the listing order: %v", order, byRemote)
		}

		ap := &approvals{ans: agent.Approval{Allow: true}}
		r := runAgent(t, m, permissions.Policy{Mode: permissions.ModeYolo, Deny: []string{"mcp__test__delete_all"}}, ap,
			fakeapi.ToolCall("c1", "mcp__test__delete_all", `{}`).ToolCall("c2", byRemote["delete_all"], `{}`), fakeapi.Text("done"))
		for _, id := range []string{"c1", "c2"} {
			if got := r.toolResult(t, id); !strings.Contains(got, "Permission denied") {
				t.Errorf("%v: %s ran past the deny rule: %q", order, id, got)
			}
		}
	}
}

func TestToolNamesAreStableAndBounded(t *testing.T) {
	long := strings.Repeat("x", 80)
	names := toolNames("fs", []string{"read.file", "read_file", long, long + "y", "ünïcode tool", "", "a__b"})
	want := []string{"mcp__fs__read_file_2", "mcp__fs__read_file", "", "", "mcp__fs___n_code_tool", "mcp__fs___", "mcp__fs__a__b"}
	for i, w := range want {
		if len(names[i]) > maxNameLen {
			t.Errorf("%q is longer than %d", names[i], maxNameLen)
		}
		if w != "" && names[i] != w {
			t.Errorf("name %d = %q, want %q", i, names[i], w)
		}
	}
	if names[2] == names[3] || !strings.HasPrefix(names[2], "mcp__fs__xxx") {
		t.Errorf("long names %q and %q", names[2], names[3])
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("names are not unique: %v", names)
	}
}
