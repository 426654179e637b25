package mcp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/warden-cli/warden/tools"
)

// mcp_search, the one tool sent in place of the deferred ones: it finds them by the words of their names
// and descriptions (or their exact names) and loads what it finds, with the parameters of each in its
// answer, so that the model can call them from its next step.

const searchName = "mcp_search"

type searchParams struct {
	Query      string `json:"query" desc:"What you need, in a few words (a tool's purpose or words of its name), or exact tool names separated by spaces."`
	MaxResults int    `json:"max_results,omitempty" desc:"How many tools to load at most (default 5, at most 20)."`
}

const searchIntro = `Finds MCP tools that are not sent with every request, to save context, and loads them: the tools it returns can be called by name from your next step on, and its answer gives each one's description and parameters. Search before saying a tool is missing; search by what you need ("create issue", "read table") or by exact names.`

// Bounds: how many tools one search loads, and how much of the deferred tools' names the description lists.
const (
	defaultResults = 5
	maxResults     = 20
	maxNamesListed = 4000
)

func (o *Offer) searchTool() tools.Tool {
	return &searchTool{o: o, Tool: tools.New(tools.Spec[searchParams]{
		Name:        searchName,
		Description: searchIntro,
		Access: func(env *tools.Env, p *searchParams) (tools.Access, error) {
			if strings.TrimSpace(p.Query) == "" {
				return tools.Access{}, fmt.Errorf("query is empty; say what tool you need")
			}
			// It reads the servers' listings Warden already holds: nothing on the machine or a server.
			return tools.Access{Kind: tools.AccessNone, Summary: p.Query, Cwd: env.Cwd()}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *searchParams) tools.Result {
			return tools.Result{Output: o.find(p.Query, p.MaxResults)}
		},
	})}
}

// searchTool is mcp_search with a description that names what is deferred now.
type searchTool struct {
	tools.Tool
	o *Offer
}

// Description implements tools.Tool.
func (t *searchTool) Description() string {
	deferred, loaded := t.o.deferredNow()
	var waiting []string
	count := map[string]int{}
	var servers []string
	for _, d := range deferred {
		if loaded[d.Name()] {
			continue
		}
		waiting = append(waiting, d.Name())
		if count[d.Server()] == 0 {
			servers = append(servers, d.Server())
		}
		count[d.Server()]++
	}
	if len(waiting) == 0 {
		return searchIntro + "\n\nEvery deferred tool is loaded."
	}
	slices.Sort(waiting)
	var b strings.Builder
	b.WriteString(searchIntro)
	fmt.Fprintf(&b, "\n\n%d tools wait to be loaded, of the MCP servers ", len(waiting))
	for i, s := range servers {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d)", s, count[s])
	}
	b.WriteString(". Their names: ")
	for i, n := range waiting {
		if b.Len()+len(n) > len(searchIntro)+maxNamesListed {
			fmt.Fprintf(&b, "… and %d more", len(waiting)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	b.WriteString(".")
	return b.String()
}

// find loads the deferred tools that best match query and describes them for the model.
func (o *Offer) find(query string, limit int) string {
	if limit <= 0 {
		limit = defaultResults
	}
	limit = min(limit, maxResults)
	deferred, loaded := o.deferredNow()
	hits := rank(deferred, query)
	if len(hits) == 0 {
		return fmt.Sprintf("No deferred MCP tool matches %q. Try other words, or the exact names this tool's description lists.", query)
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	var names []string
	for _, t := range hits {
		names = append(names, t.Name())
	}
	o.load(names)
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded %d tools: call them by name from your next step on.\n", len(hits))
	for _, t := range hits {
		state := ""
		if loaded[t.Name()] {
			state = " (loaded before)"
		}
		fmt.Fprintf(&b, "\n%s%s\n%s\nparameters: %s\n", t.Name(), state, t.Description(), compact(t.Schema()))
	}
	return strings.TrimRight(b.String(), "\n")
}

// rank orders the tools by how well they match query: a word that is a tool's name, or its name on its
// server, counts most, then a word in the name, then one in the description. Tools that match no word are
// left out.
func rank(ts []*Tool, query string) []*Tool {
	words := strings.Fields(strings.ToLower(query))
	type scored struct {
		t     *Tool
		score int
	}
	var out []scored
	for _, t := range ts {
		name, remote, desc := strings.ToLower(t.Name()), strings.ToLower(t.Remote()), strings.ToLower(t.desc)
		score := 0
		for _, w := range words {
			switch {
			case w == name || w == remote:
				score += 100
			case strings.Contains(name, w):
				score += 3
			}
			if strings.Contains(desc, w) {
				score++
			}
		}
		if score > 0 {
			out = append(out, scored{t, score})
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.t.Name(), b.t.Name()))
	})
	tools := make([]*Tool, len(out))
	for i, s := range out {
		tools[i] = s.t
	}
	return tools
}
