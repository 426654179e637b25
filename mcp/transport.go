package mcp

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is one running connection to a server: the SDK's transport and, for a program Warden started, its
// process.
type conn struct {
	transport sdk.Transport
	proc      *process
	// cancel ends the context the connection was made with.
	cancel context.CancelFunc
}

// terminateAfter is how long a stdio server is given to exit after its stdin closes before it is signalled,
// and again after SIGTERM before SIGKILL: short, since quitting Warden waits for it.
const terminateAfter = 500 * time.Millisecond

// dial builds the transport for a server from its configuration, with ${VAR} expanded.
func (s *server) dial() (*conn, error) {
	e := s.entry
	if s.m.dialHook != nil {
		return s.m.dialHook(e)
	}
	getenv := s.m.opts.Getenv
	switch e.Transport() {
	case "stdio":
		command, err := expand(e.Command, getenv)
		if err != nil {
			return nil, fmt.Errorf("command: %w", err)
		}
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			if args[i], err = expand(a, getenv); err != nil {
				return nil, fmt.Errorf("args: %w", err)
			}
		}
		env, err := expandMap(e.Env, getenv)
		if err != nil {
			return nil, fmt.Errorf("env: %w", err)
		}
		dir := s.m.opts.Workspace
		full := s.m.opts.ChildEnv(dir)
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			full = append(full, k+"="+env[k])
		}
		start := s.m.opts.Start
		if start == nil {
			start = startExec
		}
		p, err := startProcess(start, command, args, full, dir, s.stderr)
		if err != nil {
			return nil, err
		}
		return &conn{transport: p.transport(), proc: p}, nil
	case "http", "sse":
		url, err := expand(e.URL, getenv)
		if err != nil {
			return nil, fmt.Errorf("url: %w", err)
		}
		headers, err := expandMap(e.Headers, getenv)
		if err != nil {
			return nil, fmt.Errorf("headers: %w", err)
		}
		client := &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}}
		if e.Transport() == "sse" {
			return &conn{transport: &sdk.SSEClientTransport{Endpoint: url, HTTPClient: client}}, nil
		}
		return &conn{transport: &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client}}, nil
	}
	return nil, fmt.Errorf("unknown transport %q", e.Transport())
}

// stop ends the connection's process, if it has one, and all it started in its group.
func (c *conn) stop() {
	if c != nil && c.proc != nil {
		c.proc.stop()
	}
}

// exitStatus describes how a stdio server's process ended, if it has.
func (c *conn) exitStatus() string {
	if c == nil || c.proc == nil {
		return ""
	}
	return c.proc.exitStatus()
}

// headerTransport adds the configured headers to every request to an HTTP server.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// withTimeout runs f, but returns when ctx ends even if f does not: a server that hangs must not hold its
// caller. f gets ctx too and is expected to end soon after it.
func withTimeout[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
