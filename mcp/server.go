package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
)

// State is where a server is in its life.
type State string

// The states of a server. A server that failed to start is tried again (with a growing pause) when tools
// are next wanted; one that died after it was ready keeps its tools offered and is started again by the
// next call to one of them.
const (
	Starting State = "starting"
	Ready    State = "ready"
	Failed   State = "failed"
	Exited   State = "exited"
	Stopped  State = "stopped"
	// Untrusted is a server that waits for the workspace to be trusted; it is never started.
	Untrusted State = "untrusted"
)

// server is one configured MCP server and its current connection, if any.
type server struct {
	m      *Manager
	entry  config.MCPServerEntry
	stderr *stderrLog

	mu      sync.Mutex
	state   State
	err     string // why it failed or exited, with the tail of its stderr
	session *sdk.ClientSession
	conn    *conn
	gen     int // counts connections, so that a late report of an old one's end is ignored
	// attempt is closed when the start under way ends; nil when none is.
	attempt chan struct{}
	// retryAt is when a server that failed to start may be tried again; pause doubles each failure.
	retryAt time.Time
	pause   time.Duration
	// lastEnd is the end of the latest connection that ended, for a call that noticed it second.
	lastEnd *connEnd
	tools   []*Tool
	prompts []*sdk.Prompt
	// dropped counts tools the server listed beyond maxTools.
	dropped int
	// tried is set once the first start has ended, either way.
	tried bool
	// relisting is set while the lists are fetched again after the server said they changed; relistAgain
	// when it said so again meanwhile.
	relisting, relistAgain bool
}

const (
	firstRetryPause = 10 * time.Second
	maxRetryPause   = 5 * time.Minute
	// maxTools bounds the tools one server may offer: each costs context in every request.
	maxTools = 128
)

// startLocked begins a connection in the background and returns the channel closed when it ends.
func (s *server) startLocked() chan struct{} {
	if s.attempt != nil {
		return s.attempt
	}
	done := make(chan struct{})
	s.attempt = done
	s.state = Starting
	s.gen++
	gen := s.gen
	go func() {
		defer close(done)
		s.connect(gen)
	}()
	return done
}

// connect starts the server, lists its tools and prompts, and watches for its end.
func (s *server) connect(gen int) {
	// The connection lives in its own context, ended when it closes: the SDK ties an SSE stream to the
	// context it was connected with. The start is bounded separately.
	connCtx, connCancel := context.WithCancel(s.m.ctx)
	ctx, cancel := context.WithTimeout(connCtx, s.m.opts.StartTimeout)
	defer cancel()
	s.stderr.begin(s.entry.Target())
	c, err := s.dial()
	if c == nil {
		c = &conn{}
	}
	c.cancel = connCancel
	var cs *sdk.ClientSession
	if err == nil {
		cs, err = withTimeout(ctx, func(context.Context) (*sdk.ClientSession, error) {
			return s.m.client(s).Connect(connCtx, c.transport, nil)
		})
	}
	var tools []*Tool
	var prompts []*sdk.Prompt
	dropped := 0
	if err == nil {
		tools, dropped, err = s.listTools(ctx, cs)
	}
	if err == nil {
		prompts = s.listPrompts(ctx, cs)
	}
	s.mu.Lock()
	if gen != s.gen || s.state == Stopped {
		s.mu.Unlock()
		closeSession(cs, c)
		return
	}
	s.attempt, s.tried = nil, true
	if err != nil {
		s.mu.Unlock()
		closeSession(cs, c)
		s.mu.Lock()
		if gen == s.gen && s.state != Stopped {
			s.state, s.err = Failed, s.describe("could not start", err, c)
			s.pause = min(max(s.pause*2, firstRetryPause), maxRetryPause)
			s.retryAt = time.Now().Add(s.pause)
		}
		s.mu.Unlock()
		s.m.changed()
		return
	}
	s.state, s.err, s.session, s.conn = Ready, "", cs, c
	s.tools, s.prompts, s.dropped, s.pause = tools, prompts, dropped, 0
	s.mu.Unlock()
	s.m.changed()
	go s.watch(cs)
}

// watch notices a connection's end: the server exited or the connection broke.
func (s *server) watch(cs *sdk.ClientSession) {
	s.ended(cs, cs.Wait())
}

// ended handles the end of connection cs, noticed by its watcher or by a call that failed on it, whichever
// comes first: the server is marked exited at once (so the next call starts it again), the connection is
// closed and its process stopped, and the reason, with the process's exit status and stderr, is recorded.
// It returns that reason; the second to notice waits for the first to finish it.
func (s *server) ended(cs *sdk.ClientSession, err error) string {
	s.mu.Lock()
	if s.session != cs || s.state != Ready {
		end := s.lastEnd
		s.mu.Unlock()
		if end != nil && end.cs == cs {
			<-end.done
			return end.why
		}
		return ""
	}
	end := &connEnd{cs: cs, done: make(chan struct{})}
	c, gen := s.conn, s.gen
	s.session, s.conn, s.lastEnd = nil, nil, end
	s.state, s.err = Exited, "stopped"
	s.mu.Unlock()
	s.m.changed()
	closeSession(cs, c)
	end.why = s.describe("stopped", err, c)
	s.mu.Lock()
	if s.gen == gen && s.state == Exited {
		s.err = end.why
	}
	s.mu.Unlock()
	close(end.done)
	s.m.changed()
	return end.why
}

// connEnd is the end of one connection: why it ended, known once done is closed.
type connEnd struct {
	cs   *sdk.ClientSession
	done chan struct{}
	why  string
}

// describe says why a server is not working: the error, how its process ended, and its last stderr lines.
func (s *server) describe(what string, err error, c *conn) string {
	var b strings.Builder
	b.WriteString(what)
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(&b, ": no answer within %s", s.m.opts.StartTimeout)
		} else {
			fmt.Fprintf(&b, ": %v", err)
		}
	}
	if st := c.exitStatus(); st != "" && !strings.Contains(b.String(), st) {
		fmt.Fprintf(&b, " (%s)", st)
	}
	if tail := s.stderr.Tail(); tail != "" {
		fmt.Fprintf(&b, "\nstderr (last lines; all of it in %s):\n%s", s.stderr.path, tail)
	}
	return b.String()
}

func closeSession(cs *sdk.ClientSession, c *conn) {
	if cs != nil {
		_ = cs.Close()
	}
	if c != nil && c.cancel != nil {
		c.cancel()
	}
	c.stop()
}

// listTools fetches the server's tools, page by page, up to maxTools.
func (s *server) listTools(ctx context.Context, cs *sdk.ClientSession) ([]*Tool, int, error) {
	if caps := cs.InitializeResult().Capabilities; caps != nil && caps.Tools == nil {
		return nil, 0, nil
	}
	return withTimeout2(ctx, func(ctx context.Context) ([]*Tool, int, error) {
		var listed []*sdk.Tool
		dropped := 0
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return nil, 0, fmt.Errorf("listing its tools: %w", err)
			}
			if len(listed) == maxTools {
				dropped++
				continue
			}
			listed = append(listed, t)
		}
		remote := make([]string, len(listed))
		for i, t := range listed {
			remote[i] = t.Name
		}
		names := toolNames(s.entry.Name, remote)
		out := make([]*Tool, len(listed))
		for i, t := range listed {
			out[i] = newTool(s, t, names[i])
		}
		return out, dropped, nil
	})
}

// listPrompts fetches the server's prompts; a server that has none, or fails to list them, offers none.
func (s *server) listPrompts(ctx context.Context, cs *sdk.ClientSession) []*sdk.Prompt {
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Prompts == nil {
		return nil
	}
	ps, _ := withTimeout(ctx, func(ctx context.Context) ([]*sdk.Prompt, error) {
		var out []*sdk.Prompt
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				return out, err
			}
			if len(out) < maxTools {
				out = append(out, p)
			}
		}
		return out, nil
	})
	return ps
}

func withTimeout2[A, B any](ctx context.Context, f func(context.Context) (A, B, error)) (A, B, error) {
	type pair struct {
		a A
		b B
	}
	p, err := withTimeout(ctx, func(ctx context.Context) (pair, error) {
		a, b, err := f(ctx)
		return pair{a, b}, err
	})
	return p.a, p.b, err
}

// use returns a ready session, starting the server again if it died, or waiting for a start under way.
func (s *server) use(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	switch s.state {
	case Ready:
		cs := s.session
		s.mu.Unlock()
		return cs, nil
	case Stopped:
		s.mu.Unlock()
		return nil, errors.New("it is shutting down with Warden")
	case Untrusted:
		s.mu.Unlock()
		return nil, errors.New(notTrusted)
	}
	done := s.startLocked()
	s.mu.Unlock()
	s.m.changed()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != Ready {
		return nil, errors.New(s.err)
	}
	return s.session, nil
}

// stop ends the server for good.
func (s *server) stop() {
	s.mu.Lock()
	s.state = Stopped
	s.gen++
	cs, c := s.session, s.conn
	s.session, s.conn = nil, nil
	s.mu.Unlock()
	closeSession(cs, c)
	s.stderr.close()
}
