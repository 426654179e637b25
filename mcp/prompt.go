package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/warden-cli/warden/printable"
)

// A server's prompts are offered to the person as `/mcp__SERVER__PROMPT` commands; running one fetches the
// prompt with the arguments typed after it and sends the result as the person's message.

// PromptStatus is one prompt of a server.
type PromptStatus struct {
	// Command is mcp__SERVER__PROMPT, typed after a slash.
	Command     string
	Name        string
	Description string
	Args        []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name        string
	Description string
	Required    bool
}

// Label is the argument's name as it may be drawn: a control character the server put in it is escaped.
func (a PromptArg) Label() string { return printable.Escape(a.Name) }

func (s *server) promptStatusLocked() []PromptStatus {
	var out []PromptStatus
	remote := make([]string, len(s.prompts))
	for i, p := range s.prompts {
		remote[i] = p.Name
	}
	names := toolNames(s.entry.Name, remote)
	for i, p := range s.prompts {
		// What the server wrote is drawn in the / menu and in /mcp: its control characters become escapes.
		ps := PromptStatus{Command: names[i], Name: p.Name, Description: printable.Escape(p.Description)}
		if ps.Description == "" {
			ps.Description = printable.Escape(p.Title)
		}
		for _, a := range p.Arguments {
			ps.Args = append(ps.Args, PromptArg{Name: a.Name, Description: printable.Escape(a.Description), Required: a.Required})
		}
		out = append(out, ps)
	}
	return out
}

// Prompts lists the prompts of every ready server.
func (m *Manager) Prompts() []PromptStatus {
	var out []PromptStatus
	for _, s := range m.list() {
		s.mu.Lock()
		out = append(out, s.promptStatusLocked()...)
		s.mu.Unlock()
	}
	return out
}

// Prompt fetches the prompt that command (mcp__SERVER__PROMPT) names, with its arguments taken from text:
// NAME=VALUE pairs, or words given in the order the prompt declares its arguments (the last one takes the
// rest of the text). It returns the text to send as the person's message.
func (m *Manager) Prompt(ctx context.Context, command, text string) (string, error) {
	for _, s := range m.list() {
		s.mu.Lock()
		var found *PromptStatus
		for _, p := range s.promptStatusLocked() {
			if p.Command == command {
				found = &p
				break
			}
		}
		s.mu.Unlock()
		if found == nil {
			continue
		}
		args, err := promptArgs(*found, text)
		if err != nil {
			return "", err
		}
		cs, err := s.use(ctx)
		if err != nil {
			return "", fmt.Errorf("the MCP server %q is not available: %w", s.entry.Name, err)
		}
		res, err := withTimeout(ctx, func(ctx context.Context) (*sdk.GetPromptResult, error) {
			return cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: found.Name, Arguments: args})
		})
		if err != nil {
			return "", fmt.Errorf("getting the prompt %s: %w", found.Name, err)
		}
		return promptText(res), nil
	}
	return "", fmt.Errorf("no MCP prompt /%s; /mcp lists the servers and their prompts", command)
}

func promptArgs(p PromptStatus, text string) (map[string]string, error) {
	args := map[string]string{}
	text = strings.TrimSpace(text)
	named := text != ""
	for _, w := range strings.Fields(text) {
		k, _, ok := strings.Cut(w, "=")
		if !ok || !slices.ContainsFunc(p.Args, func(a PromptArg) bool { return a.Name == k }) {
			named = false
			break
		}
	}
	if named {
		for _, w := range strings.Fields(text) {
			k, v, _ := strings.Cut(w, "=")
			args[k] = v
		}
	} else {
		rest := text
		for i, a := range p.Args {
			if rest == "" {
				break
			}
			if i == len(p.Args)-1 {
				args[a.Name] = rest
				break
			}
			word, after, _ := strings.Cut(rest, " ")
			args[a.Name], rest = word, strings.TrimSpace(after)
		}
	}
	var missing []string
	for _, a := range p.Args {
		if a.Required && args[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("/%s needs %s: give them after the command, in order or as NAME=VALUE", p.Command, strings.Join(missing, ", "))
	}
	return args, nil
}

// promptText joins a prompt's messages into one message for the model.
func promptText(res *sdk.GetPromptResult) string {
	var parts []string
	for _, msg := range res.Messages {
		switch c := msg.Content.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text))
			}
		default:
			parts = append(parts, "[non-text content left out]")
		}
	}
	return strings.Join(parts, "\n\n")
}
