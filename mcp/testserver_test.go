package mcp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
)

// The tests run two kinds of server built on the SDK: one in this process, connected through in-memory
// transports (fast), and the same server in a child process, this test binary started again with
// serverEnv set, so that the real stdio transport, process groups and stderr logs are exercised.

const serverEnv = "WARDEN_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		// Run as a stdio MCP server until stdin closes.
		fmt.Fprintln(os.Stderr, "test server starting")
		if os.Getenv(serverEnv) == "parent" {
			runParent()
		}
		if os.Getenv(serverEnv) == "fail" {
			fmt.Fprintln(os.Stderr, "fatal: cannot open the database at /nonexistent")
			os.Exit(2)
		}
		if os.Getenv(serverEnv) == "noisy" {
			// 20 MB on stderr before it serves.
			line := strings.Repeat("noise ", 20) + "\n"
			for range (20 << 20) / len(line) {
				os.Stderr.WriteString(line)
			}
			fmt.Fprintln(os.Stderr, "the last noisy line")
		}
		srv := newTestServer(func() {
			fmt.Fprintln(os.Stderr, "panic: the crash tool was called")
			os.Exit(3)
		})
		if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
		}
		if os.Getenv(serverEnv) == "stubborn" {
			// Like servers whose timers keep them alive after stdin closes.
			select {}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runParent stands for a Warden that starts a stdio server and is then killed: it prints the server's pid
// and waits to be killed.
func runParent() {
	m := New(Options{Workspace: os.TempDir(), LogDir: os.TempDir(), StartTimeout: deadline})
	e := stdioEntry("child", "stubborn")
	m.Add([]config.MCPServerEntry{e})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	m.Tools(ctx)
	for _, s := range m.list() {
		s.mu.Lock()
		if s.conn != nil && s.conn.proc != nil {
			fmt.Println(s.conn.proc.proc.Pid())
		}
		s.mu.Unlock()
	}
	select {}
}

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type floodIn struct {
	Lines int `json:"lines"`
}

// newTestServer has a tool for each behaviour the client must survive; crash ends the server abruptly.
func newTestServer(crash func()) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "warden-test", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echoes its text.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "write.note", Description: "Writes a note (pretends to)."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "written"}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "hang", Description: "Never answers."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			<-ctx.Done()
			select {} // ignores the cancellation too
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "crash", Description: "Ends the server."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			crash()
			select {}
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "flood", Description: "Answers with many lines."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in floodIn) (*sdk.CallToolResult, any, error) {
			var b strings.Builder
			for i := range in.Lines {
				fmt.Fprintf(&b, "line %d of the flood, with some padding to make it longer\n", i+1)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "fail", Description: "Reports an error."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "the record does not exist"}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "picture", Description: "Returns an image and a resource."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG fake")},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "the notes"}},
				&sdk.ResourceLink{URI: "file:///big.bin", Name: "big"},
			}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "env", Description: "Tells a variable."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			v, ok := os.LookupEnv(in.Text)
			if !ok {
				v = "(unset)"
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: v}}}, nil, nil
		})
	srv.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a file.", Arguments: []*sdk.PromptArgument{
		{Name: "path", Required: true}, {Name: "focus"}}},
		func(ctx context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := r.Params.Arguments
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user",
				Content: &sdk.TextContent{Text: fmt.Sprintf("Review %s, looking at %s.", a["path"], a["focus"])}}}}, nil
		})
	return srv
}
