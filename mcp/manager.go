package mcp

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/tools"
)

// Options configure a Manager.
type Options struct {
	// Workspace is the directory stdio servers start in.
	Workspace string
	// LogDir holds each server's stderr log (NAME.log).
	LogDir string
	// ChildEnv returns the environment of a server started in dir, before its own `env` is added: the
	// allow-listed environment bash commands get (tools.ChildEnv); nil gives that with no bash.env.
	ChildEnv func(dir string) []string
	// Start starts a stdio server (bash.Tasks.StartProgram, through the session's supervisor); nil starts
	// it as Warden's own child.
	Start StartFunc
	// Getenv expands ${VAR} in the configuration; nil means os.Getenv.
	Getenv func(string) string
	// StartTimeout bounds a server's start: the connection, the handshake and the listing of its tools.
	StartTimeout time.Duration
	// Version is Warden's, told to servers.
	Version string
	// Hold keeps added servers from starting until Release, so that the TUI can draw its first frame
	// before they compete with it for the processor.
	Hold bool
}

// DefaultStartTimeout is how long a server may take to start when Options do not say.
const DefaultStartTimeout = 30 * time.Second

// toolsWait bounds how long a request waits for servers still starting.
const toolsWait = 10 * time.Second

// Manager runs the configured servers of one session. It is safe for concurrent use.
type Manager struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	servers  []*server
	closed   bool
	held     bool
	onChange func()
	// dialHook, when set, connects servers instead of their configuration (tests use in-process servers).
	dialHook func(config.MCPServerEntry) (*conn, error)
	// toolsWait bounds how long Tools waits for servers on their first start.
	toolsWait time.Duration
}

// New returns a manager with no servers; Add starts them.
func New(opts Options) *Manager {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.ChildEnv == nil {
		opts.ChildEnv = func(dir string) []string { return tools.ChildEnv(tools.BashSettings{}, dir) }
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{opts: opts, ctx: ctx, cancel: cancel, held: opts.Hold, toolsWait: toolsWait}
}

// Release starts the servers held back by Options.Hold.
func (m *Manager) Release() {
	m.mu.Lock()
	m.held = false
	for _, s := range m.servers {
		s.mu.Lock()
		if s.state == Starting && s.attempt == nil {
			s.startLocked()
		}
		s.mu.Unlock()
	}
	m.mu.Unlock()
	m.changed()
}

// Add starts the given servers in the background (or, held, once released) and returns at once. A server
// of the same name as one already running replaces it.
func (m *Manager) Add(entries []config.MCPServerEntry) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	var replaced []*server
	for _, e := range entries {
		s := &server{m: m, entry: e, stderr: newStderrLog(m.opts.LogDir, e.Name), state: Starting}
		if i := slices.IndexFunc(m.servers, func(o *server) bool { return o.entry.Name == e.Name }); i >= 0 {
			replaced = append(replaced, m.servers[i])
			m.servers[i] = s
		} else {
			m.servers = append(m.servers, s)
		}
		if !m.held {
			s.mu.Lock()
			s.startLocked()
			s.mu.Unlock()
		}
	}
	m.mu.Unlock()
	for _, s := range replaced {
		s.stop()
	}
	m.changed()
}

// AddUntrusted lists servers that wait for the workspace to be trusted: Status shows them, and they never
// start; Add with the same name replaces one once the person trusts the workspace.
func (m *Manager) AddUntrusted(entries []config.MCPServerEntry) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	for _, e := range entries {
		s := &server{m: m, entry: e, stderr: newStderrLog(m.opts.LogDir, e.Name), state: Untrusted, err: notTrusted}
		if i := slices.IndexFunc(m.servers, func(o *server) bool { return o.entry.Name == e.Name }); i >= 0 {
			m.servers[i] = s
		} else {
			m.servers = append(m.servers, s)
		}
	}
	m.mu.Unlock()
	m.changed()
}

// notTrusted is why a server that waits for trust has not started.
const notTrusted = "not started: this workspace is not trusted (warden asks when it starts here; headless runs and warden mcp list take --trust)"

// SetOnChange sets the function called, from any goroutine, whenever a server's state or tools change (the
// TUI refreshes its status line). It must not block.
func (m *Manager) SetOnChange(f func()) {
	m.mu.Lock()
	m.onChange = f
	m.mu.Unlock()
}

func (m *Manager) changed() {
	m.mu.Lock()
	f := m.onChange
	m.mu.Unlock()
	if f != nil {
		f()
	}
}

func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.servers)
}

// client builds the SDK client for one connection of s: a tool or prompt list that changes is fetched again.
func (m *Manager) client(s *server) *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "warden", Version: m.opts.Version}, &sdk.ClientOptions{
		ToolListChangedHandler:   func(context.Context, *sdk.ToolListChangedRequest) { s.listChanged() },
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) { s.listChanged() },
	})
}

// listChanged is called when the server says its tools or prompts changed. The lists are fetched again one
// fetch at a time: notices that arrive during a fetch cost one more fetch after it, however many they are,
// so that a server sending them in a flood cannot make Warden pile up fetches (each a goroutine and a
// request) without bound.
func (s *server) listChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.relisting {
		s.relistAgain = true
		return
	}
	s.relisting = true
	go func() {
		for {
			s.relist()
			s.mu.Lock()
			again := s.relistAgain
			s.relistAgain, s.relisting = false, again
			s.mu.Unlock()
			if !again {
				return
			}
		}
	}()
}

// relist fetches the tools and prompts of a ready server again.
func (s *server) relist() {
	s.mu.Lock()
	cs, gen := s.session, s.gen
	s.mu.Unlock()
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.m.ctx, s.m.opts.StartTimeout)
	defer cancel()
	tools, dropped, err := s.listTools(ctx, cs)
	if err != nil {
		return
	}
	prompts := s.listPrompts(ctx, cs)
	s.mu.Lock()
	if gen == s.gen {
		s.tools, s.prompts, s.dropped = tools, prompts, dropped
	}
	s.mu.Unlock()
	s.m.changed()
}

// Tools returns the tools of every server that has listed some, including a server that has since died
// (a call starts it again). It waits for servers on their first start, at most toolsWait and until ctx
// ends; servers that failed to start are tried again in the background once their pause is over, and a
// request never waits for such a try: a server that hangs whenever it starts would otherwise hold every
// request after each pause.
func (m *Manager) Tools(ctx context.Context) []tools.Tool {
	// A server that hangs while starting must not hold the request for long; it joins a later turn.
	ctx, cancel := context.WithTimeout(ctx, m.toolsWait)
	defer cancel()
	var out []tools.Tool
	for _, s := range m.list() {
		s.mu.Lock()
		var wait chan struct{}
		switch {
		case s.state == Starting && !s.tried:
			wait = s.attempt
		case s.state == Failed && len(s.tools) == 0 && time.Now().After(s.retryAt):
			s.startLocked()
			defer m.changed()
		}
		s.mu.Unlock()
		if wait != nil {
			select {
			case <-wait:
			case <-ctx.Done():
			}
		}
		s.mu.Lock()
		for _, t := range s.tools {
			out = append(out, t)
		}
		s.mu.Unlock()
	}
	return out
}

// Wait waits until no server is starting, or ctx ends.
func (m *Manager) Wait(ctx context.Context) {
	for _, s := range m.list() {
		s.mu.Lock()
		var wait chan struct{}
		if s.state == Starting {
			wait = s.attempt
		}
		s.mu.Unlock()
		if wait != nil {
			select {
			case <-wait:
			case <-ctx.Done():
				return
			}
		}
	}
}

// Close stops every server and waits, briefly, for them to go. No server starts afterwards.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	servers := m.servers
	m.mu.Unlock()
	m.cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
}

// LogDir is where the servers' stderr logs are.
func (m *Manager) LogDir() string { return m.opts.LogDir }
