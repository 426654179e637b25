package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/mcp"
)

// The session's MCP servers in the TUI: /mcp lists them with their state, tools, prompts and errors; the
// status line counts those ready; each server's prompts are commands, /mcp__SERVER__PROMPT [ARGS].

// MCPServers is what the TUI needs of the session's MCP servers (a *mcp.Manager).
type MCPServers interface {
	Status() []mcp.ServerStatus
	Counts() (ready, total int)
	Prompts() []mcp.PromptStatus
	Prompt(ctx context.Context, command, args string) (string, error)
	// SetOnChange registers a function called from any goroutine when a server changes.
	SetOnChange(func())
}

// promptTimeout bounds fetching a prompt; the person waits for it.
const promptTimeout = 30 * time.Second

func init() {
	registerBuiltin(Command{Name: "mcp", Desc: "the MCP servers: state, tools, prompts and errors",
		Run: func(m *Model, _ string) tea.Cmd {
			if m.opts.MCP == nil {
				return m.setFlash("No MCP servers are configured (mcpServers in the settings, or .mcp.json; see the README)")
			}
			m.push(&mcpOverlay{servers: m.opts.MCP})
			return nil
		}})
	registerOnStart(watchMCP)
}

// watchMCP makes every change of a server reach Update: at most one message is on its way at a time, so a
// server that changes in a flood costs one refresh, and the servers' goroutines never wait for the UI.
func watchMCP(m *Model) tea.Cmd {
	servers := m.opts.MCP
	if servers == nil {
		return nil
	}
	var pending atomic.Bool
	send := m.send
	refresh := commandResult(func(m *Model) tea.Cmd {
		pending.Store(false)
		return m.mcpChanged()
	})
	servers.SetOnChange(func() {
		if pending.CompareAndSwap(false, true) {
			go send.Send(refresh)
		}
	})
	return func() tea.Msg { return refresh }
}

// mcpChanged offers each server's prompts as commands, replacing what that server offered before.
func (m *Model) mcpChanged() tea.Cmd {
	bySource := map[string][]Command{}
	for _, st := range m.opts.MCP.Status() {
		bySource["mcp: "+st.Name] = nil
	}
	for _, p := range m.opts.MCP.Prompts() {
		server := strings.TrimPrefix(p.Command, "mcp__")
		server, _, _ = strings.Cut(server, "__")
		bySource["mcp: "+server] = append(bySource["mcp: "+server], m.promptCommand(p))
	}
	var cmds []tea.Cmd
	for source, list := range bySource {
		cmds = append(cmds, m.addCommands(commandsMsg{Source: source, Commands: list}))
	}
	return tea.Batch(cmds...)
}

func (m *Model) promptCommand(p mcp.PromptStatus) Command {
	var args []string
	for _, a := range p.Args {
		if a.Required {
			args = append(args, strings.ToUpper(a.Label()))
		} else {
			args = append(args, "["+strings.ToUpper(a.Label())+"]")
		}
	}
	desc := p.Description
	if desc == "" {
		desc = "the server's prompt " + p.Name
	}
	servers, command := m.opts.MCP, p.Command
	return Command{Name: p.Command, Args: strings.Join(args, " "), Desc: oneLine(desc), Idle: true,
		Run: func(m *Model, args string) tea.Cmd {
			return func() tea.Msg {
				ctx, cancel := context.WithTimeout(context.Background(), promptTimeout)
				defer cancel()
				text, err := servers.Prompt(ctx, command, args)
				if err != nil {
					return commandResult(func(m *Model) tea.Cmd { return m.setFlash(fmt.Sprintf("/%s: %v", command, err)) })
				}
				return promptMsg{Text: text}
			}
		}}
}

// oneLine keeps the first line of a description, for the menu.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// mcpStatus is the status line's count of ready servers; "" without servers.
func (m *Model) mcpStatus() string {
	if m.opts.MCP == nil {
		return ""
	}
	ready, total := m.opts.MCP.Counts()
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("mcp %d/%d", ready, total)
}

// mcpOverlay lists the servers as they are now: it reads their status at every frame.
type mcpOverlay struct {
	servers MCPServers
	offset  int
}

func (o *mcpOverlay) fullScreen() bool { return true }

func (o *mcpOverlay) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := c.keys
	switch {
	case key.Matches(k, keys.Back):
		return closeOverlay{o}, nil
	case key.Matches(k, keys.Up):
		o.offset = max(o.offset-1, 0)
	case key.Matches(k, keys.Down):
		o.offset++
	case key.Matches(k, keys.PageUp):
		o.offset = max(o.offset-10, 0)
	case key.Matches(k, keys.PageDown):
		o.offset += 10
	case key.Matches(k, keys.Top):
		o.offset = 0
	case key.Matches(k, keys.Bottom):
		o.offset = 1 << 30 // view clamps it
	}
	return nil, nil
}

func (o *mcpOverlay) view(c overlayCtx, width, height int) string {
	st, keys := c.st, c.keys
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, width), "\n")...) }
	list := o.servers.Status()
	if len(list) == 0 {
		add("No MCP servers are configured. Add them under \"mcpServers\" in a settings file or in .mcp.json (see the README).")
	}
	for i, s := range list {
		if i > 0 {
			lines = append(lines, "")
		}
		state := st.dim
		switch s.State {
		case mcp.Ready:
			state = st.ok
		case mcp.Failed, mcp.Exited:
			state = st.fail
		}
		add(st.bold.Render(s.Name) + "  " + state.Render(string(s.State)) + st.dim.Render(fmt.Sprintf("  %s  %s", s.Transport, s.Target)))
		add(st.dim.Render("  from " + s.File))
		for _, l := range strings.Split(s.Error, "\n") {
			if l != "" {
				add("  " + st.errText.Render(l))
			}
		}
		for _, t := range s.Tools {
			mark := ""
			if t.ReadOnly {
				mark = st.dim.Render("  read-only (the server's mark")
				if !s.HintTrusted {
					mark += st.dim.Render(", not trusted")
				}
				mark += st.dim.Render(")")
			}
			add("  " + st.accent.Render(t.Name) + mark)
		}
		if s.DroppedTools > 0 {
			add(st.warn.Render(fmt.Sprintf("  %s left out", plural(s.DroppedTools, "more tool", "more tools"))))
		}
		for _, p := range s.Prompts {
			add("  /" + p.Command + st.dim.Render("  "+oneLine(p.Description)))
		}
	}
	back := hintKeys(keys.Back) + " back"
	footer := back
	if room := height - 2; len(lines) > room {
		o.offset = min(o.offset, len(lines)-room)
		scroll := hintKeys(keys.Up, keys.Down) + " " + hintKeys(keys.PageUp, keys.PageDown) + " scroll"
		if end := o.offset + room; end < len(lines) {
			footer = hint(fmt.Sprintf("%s %s more", hintKeys(keys.Down), plural(len(lines)-end, "line", "lines")), scroll, back)
		} else {
			footer = hint(scroll, back)
		}
		lines = lines[o.offset:]
	} else {
		o.offset = 0
	}
	ready, total := o.servers.Counts()
	return frame(c, fmt.Sprintf("MCP servers (%d of %d ready)", ready, total), strings.Join(lines, "\n"), footer, width, height)
}
