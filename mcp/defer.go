package mcp

import (
	"context"
	"slices"
	"sync"

	"github.com/warden-cli/warden/tools"
)

// Deferring. Every tool offered goes with every request: its name, description and parameters schema.
// Servers with many tools fill the context before the first message (a user counted 67k tokens, a third
// of the window). When the MCP tools' definitions would take more than a share of the context window, the
// tools of servers that do not say otherwise are deferred: the model gets one tool, mcp_search, finds the
// tools it needs with it, and those are offered from its next step on. A server's "defer" setting forces
// either way: true always defers its tools, false always sends them.
//
// What the model loaded belongs to its conversation, so an Offer is made for each conversation (and a
// sub-agent's is its own). Deferring changes what is offered, never how a call is decided: a loaded tool
// is the same mcp.Tool, under the same rules.

// Offer is one conversation's view of the manager's tools: those sent in full, the loaded ones, and the
// search over the rest. It is an agent's ToolSource; it is safe for concurrent use.
type Offer struct {
	m *Manager
	// budget is how many tokens the tools' definitions may take before they are deferred.
	budget int
	// keep admits the tools this view may offer at all (a sub-agent's); nil admits every one.
	keep func(t *Tool) bool

	mu sync.Mutex
	// loaded are the deferred tools the model asked for, by name; deferred the tools deferred at the last
	// offer, for the search.
	loaded   map[string]bool
	deferred []*Tool
	search   tools.Tool
}

// Offer returns a view of the manager's tools for one conversation with a context window of window
// tokens, of which the tools' definitions may take percent before they are deferred.
func (m *Manager) Offer(window, percent int) *Offer {
	o := &Offer{m: m, budget: window * percent / 100, loaded: map[string]bool{}}
	o.search = o.searchTool()
	return o
}

// tokens estimates what a tool's definition costs in every request: about four bytes a token, with the
// JSON around the name, the description and the schema.
func tokens(t tools.Tool) int {
	return (len(t.Name()) + len(t.Description()) + len(t.Schema()) + 40) / 4
}

// Tools implements the agent's ToolSource: the tools to offer at the next step.
func (o *Offer) Tools(ctx context.Context) []tools.Tool {
	var sent, auto, forced []*Tool
	for _, tl := range o.m.Tools(ctx) {
		t, ok := tl.(*Tool)
		if !ok || (o.keep != nil && !o.keep(t)) {
			continue
		}
		switch d := t.s.entry.Defer; {
		case d == nil:
			auto = append(auto, t)
		case *d:
			forced = append(forced, t)
		default:
			sent = append(sent, t)
		}
	}
	cost := 0
	for _, t := range append(slices.Clone(sent), auto...) {
		cost += tokens(t)
	}
	deferred := forced
	if cost > o.budget {
		deferred = append(deferred, auto...)
	} else {
		sent = append(sent, auto...)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.deferred = deferred
	out := make([]tools.Tool, 0, len(sent)+len(o.loaded)+1)
	for _, t := range sent {
		out = append(out, t)
	}
	for _, t := range deferred {
		if o.loaded[t.Name()] {
			out = append(out, t)
		}
	}
	if len(deferred) > 0 {
		out = append(out, o.search)
	}
	return out
}

// Load marks the named tools loaded, as a search would: a resumed conversation goes on with the tools it
// had loaded. A name that is no deferred tool changes nothing.
func (o *Offer) Load(names ...string) { o.load(names) }

// load marks tools loaded: they are offered from the next step on.
func (o *Offer) load(names []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, n := range names {
		o.loaded[n] = true
	}
}

// deferredNow are the tools deferred at the last offer, and whether each is loaded.
func (o *Offer) deferredNow() ([]*Tool, map[string]bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	loaded := make(map[string]bool, len(o.loaded))
	for n := range o.loaded {
		loaded[n] = true
	}
	return slices.Clone(o.deferred), loaded
}

// ForChild returns the view of a sub-agent that was given the named tools: a tool by its name
// (mcp__SERVER__TOOL), a server's tools by the server's (mcp__SERVER), or every tool this view offers by
// mcp_search. Tools named one by one are offered to it in full; the others are deferred as they are
// here, and what this conversation loaded is loaded there too. unknown are the names that name nothing.
// (Its result is the agent's ToolSource, written out so that this package need not import agent.)
func (o *Offer) ForChild(ctx context.Context, names []string) (src interface {
	Tools(ctx context.Context) []tools.Tool
}, unknown []string) {
	all := map[string]*Tool{}
	servers := map[string]bool{}
	for _, tl := range o.m.Tools(ctx) {
		if t, ok := tl.(*Tool); ok && (o.keep == nil || o.keep(t)) {
			all[t.Name()] = t
			servers["mcp__"+t.Server()] = true
		}
	}
	tools, everything := map[string]bool{}, false
	var byServer []string
	for _, n := range names {
		switch {
		case n == searchName:
			everything = true
		case all[n] != nil:
			tools[n] = true
		case servers[n]:
			byServer = append(byServer, n)
		default:
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, unknown
	}
	parent := o.keep
	child := &Offer{m: o.m, budget: o.budget, loaded: map[string]bool{}}
	child.keep = func(t *Tool) bool {
		if parent != nil && !parent(t) {
			return false
		}
		return everything || tools[t.Name()] || slices.Contains(byServer, "mcp__"+t.Server())
	}
	o.mu.Lock()
	for n := range o.loaded {
		child.loaded[n] = true
	}
	o.mu.Unlock()
	// A tool named one by one is loaded: the parent chose it, so a search would only cost the child a step.
	for n := range tools {
		child.loaded[n] = true
	}
	child.search = child.searchTool()
	return child, nil
}
