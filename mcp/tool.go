package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/tools"
)

// Tool is one tool of an MCP server as the model sees it.
type Tool struct {
	s *server
	// name is mcp__SERVER__TOOL; remote is the tool's own name on its server.
	name, remote string
	desc         string
	schema       json.RawMessage
	readOnly     bool
}

// maxDescription bounds a tool's description: it is sent with every request.
const maxDescription = 2000

func newTool(s *server, t *sdk.Tool, name string) *Tool {
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = t.Title
	}
	if len(desc) > maxDescription {
		desc = strings.ToValidUTF8(desc[:maxDescription], "") + "…"
	}
	readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
	return &Tool{s: s, name: name, remote: t.Name,
		desc: fmt.Sprintf("%s (a tool of the MCP server %q)", desc, s.entry.Name), schema: inputSchema(t.InputSchema),
		readOnly: readOnly}
}

// maxSchema bounds a tool's parameters schema, which is sent with every request; the server still checks
// the arguments against its own.
const maxSchema = 16 << 10

// inputSchema is the tool's parameters schema as the model APIs want it: a JSON object schema.
func inputSchema(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) || len(b) > maxSchema {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	var m map[string]any
	if json.Unmarshal(b, &m) == nil && m["type"] == nil {
		m["type"] = "object"
		b, _ = json.Marshal(m)
	}
	return b
}

// Name implements tools.Tool.
func (t *Tool) Name() string { return t.name }

// Description implements tools.Tool.
func (t *Tool) Description() string { return t.desc }

// Schema implements tools.Tool.
func (t *Tool) Schema() json.RawMessage { return t.schema }

// Server and Remote name the server and the tool on it; ReadOnly is the server's readOnlyHint.
func (t *Tool) Server() string { return t.s.entry.Name }
func (t *Tool) Remote() string { return t.remote }
func (t *Tool) ReadOnly() bool { return t.readOnly }

// hintTrusted says whether the person trusts this server's read-only marks.
func (t *Tool) hintTrusted() bool {
	return t.s.entry.TrustReadOnly != nil && *t.s.entry.TrustReadOnly
}

// arguments checks that the input is a JSON object (an absent one is empty) and returns it.
func arguments(input json.RawMessage) (json.RawMessage, error) {
	in := bytes.TrimSpace(input)
	if len(in) == 0 || string(in) == "null" {
		return json.RawMessage("{}"), nil
	}
	if in[0] != '{' || !json.Valid(in) {
		return nil, errors.New("the arguments must be a JSON object")
	}
	return in, nil
}

// Access implements tools.Tool: a call may do anything its server can, so it is decided as an MCP call.
func (t *Tool) Access(env *tools.Env, input json.RawMessage) (tools.Access, error) {
	args, err := arguments(input)
	if err != nil {
		return tools.Access{}, err
	}
	summary := fmt.Sprintf("%s · %s %s", t.Server(), t.remote, compact(args))
	if r := []rune(summary); len(r) > 120 {
		summary = string(r[:119]) + "…"
	}
	return tools.Access{Kind: tools.AccessMCP, Cwd: env.Cwd(), Summary: summary,
		MCP: &tools.MCPTarget{Server: t.Server(), Tool: strings.TrimPrefix(t.name, "mcp__"+t.Server()+"__"),
			ReadOnlyHint: t.readOnly, HintTrusted: t.hintTrusted()}}, nil
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// timeout is how long one call may take.
func (t *Tool) timeout() time.Duration {
	ms := config.DefaultMCPTimeoutMS
	if p := t.s.entry.TimeoutMS; p != nil && *p > 0 {
		ms = *p
	}
	return time.Duration(ms) * time.Millisecond
}

// Run implements tools.Tool: the call goes to the server (started again if it died), bounded by the
// timeout and by ctx (Esc), and the answer comes back bounded like command output.
func (t *Tool) Run(ctx context.Context, env *tools.Env, call tools.Call) tools.Result {
	args, err := arguments(call.Input)
	if err != nil {
		return tools.Errorf("%s was not called: %v.", t.name, err)
	}
	timeout := t.timeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cs, err := t.s.use(cctx)
	if err != nil {
		return t.failed(ctx, cctx, timeout, fmt.Errorf("the server is not available: %w", err))
	}
	res, err := withTimeout(cctx, func(ctx context.Context) (*sdk.CallToolResult, error) {
		return cs.CallTool(ctx, &sdk.CallToolParams{Name: t.remote, Arguments: args})
	})
	var answered *jsonrpc.Error
	switch {
	case err == nil:
	case cctx.Err() != nil:
		return t.failed(ctx, cctx, timeout, err)
	case connectionLost(err):
		why := t.s.ended(cs, err)
		return tools.Errorf("%s failed: the MCP server %q stopped during the call; it is started again on the next call.\n%s",
			t.name, t.Server(), why)
	case errors.As(err, &answered):
		return tools.Errorf("%s failed: the server answered with an error: %s", t.name, answered.Message)
	default:
		// If the connection broke in some other way, its watcher notices and the next call starts it again.
		return tools.Errorf("%s failed: %v", t.name, err)
	}
	return t.result(env, call.ID, res)
}

// connectionLost reports an error that means the connection is gone: closed, cut off, or (EPIPE) a server
// that no longer reads what it is sent, which a call may notice before the connection's watcher does.
func connectionLost(err error) bool {
	return errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

// failed turns an error of a call into the model's result, telling a timeout and an interruption apart.
func (t *Tool) failed(ctx, cctx context.Context, timeout time.Duration, err error) tools.Result {
	switch {
	case ctx.Err() != nil:
		return tools.Result{Output: fmt.Sprintf("Interrupted by the user while %s was running.", t.name), IsError: true, Interrupted: true}
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return tools.Result{Output: fmt.Sprintf("%s did not answer within %s, so the call was abandoned; the server may still be working on it. "+
			"Try a smaller request, or tell the user the server seems stuck.", t.name, timeout), IsError: true, TimedOut: true}
	}
	return tools.Errorf("%s failed: %v", t.name, err)
}
