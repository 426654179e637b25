package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/safefile"
)

// MCP servers are configured in the shape people already have for Claude Code: `mcpServers` maps a name to
// a program to start ({command, args, env}) or a server to reach ({type: "http" or "sse", url, headers}).
// The map is read from every settings file and from .mcp.json at the workspace root; a later file's entry
// replaces an earlier one of the same name whole. Opening a repository must never run a program it chose,
// so a project's servers (.mcp.json, .warden/settings*.json) start only in a trusted workspace, and so do
// the person's own servers that Warden starts: they run in the workspace, where the programs that usually
// start them take orders from its files (npx runs the workspace's node_modules/.bin and obeys its .npmrc,
// which can load any script into node; uvx and python read pyproject.toml; a relative command or a PATH
// entry such as "." finds the workspace's own programs). Servers reached over HTTP start anywhere.

// MCPServer is one entry of `mcpServers`.
type MCPServer struct {
	// Type is "stdio" (the default when Command is set), "http" (streamable HTTP) or "sse".
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// TrustReadOnly lets the server's readOnlyHint on a tool count: such calls then run unasked like
	// read-only commands. Without it the mark is shown but every call asks.
	TrustReadOnly *bool `json:"trust_read_only,omitempty"`
	// TimeoutMS bounds each tool call; 0 means DefaultMCPTimeoutMS.
	TimeoutMS *int `json:"timeout_ms,omitempty"`
	// Defer sends the server's tools behind a search (true) or always in full (false); unset, they are
	// deferred when all the MCP tools would take more than mcp_defer_percent of the context window.
	Defer *bool `json:"defer,omitempty"`
}

// MCPFile is the shape of .mcp.json.
type MCPFile struct {
	MCPServers map[string]MCPServer `json:"mcpServers"`
}

// MCPServerEntry is a configured server with its name and where it was configured.
type MCPServerEntry struct {
	// Name is what its tools and rules call it (MCPName); Key the name as written, when different.
	Name, Key string
	MCPServer
	// File is the settings file the entry came from.
	File string
	// Project is true for a server the workspace configured (.mcp.json or .warden/): it needs trust.
	Project bool
}

// Transport returns the entry's kind of connection: "stdio", "http" or "sse".
func (s MCPServer) Transport() string {
	if s.Type == "" {
		return "stdio"
	}
	return s.Type
}

// Target is what the server runs or reaches, as configured (variables unexpanded) but with secret values
// masked (masked.go): the command line for stdio, the URL otherwise. It is what the trust prompt and
// `warden mcp list` show.
func (s MCPServer) Target() string {
	if s.Transport() != "stdio" {
		return printable.Escape(maskURL(s.URL))
	}
	words := maskWords(append([]string{s.Command}, s.Args...))
	for i, w := range words {
		words[i] = shownWord(w)
	}
	return strings.Join(words, " ")
}

// Describe says in one line what trusting the server lets it do, for the trust prompt: what it runs with
// which environment, or where it connects sending which headers, the values that are secret masked.
func (e MCPServerEntry) Describe() string {
	var b strings.Builder
	switch {
	case e.Transport() == "stdio" && !e.Project:
		fmt.Fprintf(&b, "your MCP server %s would run in this workspace, where what starts it may read the workspace's files (npx its node_modules and .npmrc): %s", e.label(), e.Target())
		if len(e.Env) > 0 {
			fmt.Fprintf(&b, " with %s", strings.Join(sortedAssignments(e.Env), " "))
		}
	case e.Transport() == "stdio":
		fmt.Fprintf(&b, "MCP server %s would run: %s", e.label(), e.Target())
		if len(e.Env) > 0 {
			fmt.Fprintf(&b, " with %s", strings.Join(sortedAssignments(e.Env), " "))
		}
	default:
		fmt.Fprintf(&b, "MCP server %s would connect to %s (%s)", e.label(), e.Target(), e.Transport())
		if len(e.Headers) > 0 {
			fmt.Fprintf(&b, " sending %s", strings.Join(sortedAssignments(e.Headers), ", "))
		}
	}
	if e.TrustReadOnly != nil && *e.TrustReadOnly {
		b.WriteString(", its read-only marks trusted")
	}
	return b.String()
}

// label is the server's name in quotes, with the name its tools take when that differs.
func (e MCPServerEntry) label() string {
	if e.Key != "" && e.Key != e.Name {
		return fmt.Sprintf("%q (its tools mcp__%s__…)", e.Key, e.Name)
	}
	return fmt.Sprintf("%q", e.Name)
}

// sortedAssignments are m's names and values as shown, NAME=VALUE in order of name, each value as
// maskValue shows it.
func sortedAssignments(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, printable.Escape(k)+"="+shownWord(maskValue(k, v)))
	}
	slices.Sort(out)
	return out
}

// shownWord is a word as the prompt shows it: shell-quoted, but for a masked value, which is no word
// anyone would type.
func shownWord(w string) string {
	if w == masked {
		return w
	}
	return shellQuote(w)
}

// shellQuote quotes a word the way a person would type it to bash, so a command line shown for trust reads
// as exactly what will run; a word holding a control or invisible character is quoted as $'...' with that
// character escaped, so that it cannot redraw or reorder what the prompt shows.
func shellQuote(s string) string {
	if printable.Index(s) >= 0 {
		return ansiCQuote(s)
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,${}", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// DefaultMCPTimeoutMS bounds one MCP tool call unless the server's timeout_ms says otherwise.
const DefaultMCPTimeoutMS = 120_000

// DefaultMCPDeferPercent is the share of the context window, in percent, that the MCP tools' definitions
// may take in every request before the tools of servers without a "defer" key are deferred: sent as one
// search tool, and each loaded when the model asks for it. A user report counted 67k tokens of tool
// definitions, a third of the window, before the first message.
const DefaultMCPDeferPercent = 10

// DeferPercent is mcp_defer_percent, or its default.
func (c *Config) DeferPercent() int {
	if c.MCPDeferPercent == nil {
		return DefaultMCPDeferPercent
	}
	return *c.MCPDeferPercent
}

// checkMCPDeferPercent reports a share that is not one.
func checkMCPDeferPercent(p *int, at *positions) error {
	if p != nil && (*p < 0 || *p > 100) {
		return fmt.Errorf("%s: mcp_defer_percent is a share of the context window from 0 (always defer) to 100, not %d", at.of("mcp_defer_percent"), *p)
	}
	return nil
}

// MCPName is the name a server's tools and rules use, mcp__NAME__TOOL: the name it was given with every
// character other than letters, digits, - and _ replaced by _, runs of _ made one and _ at the ends
// dropped, so that "my.server" is my_server as it is for Claude Code, whose tool names replace the same
// characters, and "__" cannot make a rule ambiguous.
func MCPName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			r = '_'
		}
		if r == '_' && strings.HasSuffix(b.String(), "_") {
			continue
		}
		b.WriteRune(r)
	}
	return strings.Trim(b.String(), "_")
}

// maxMCPName bounds a server's name, so that its tool names fit the model APIs' limit of 64.
const maxMCPName = 40

// checkMCPServers reports a server entry that cannot work, naming it and where it was written.
func checkMCPServers(servers map[string]MCPServer, at *positions) error {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	byName := map[string]string{}
	for _, name := range names {
		s := servers[name]
		where := func(key string) string {
			return fmt.Sprintf("%s: mcpServers.%s", at.of("mcpServers", name, key), printable.Escape(name))
		}
		id := MCPName(name)
		switch {
		case id == "":
			return fmt.Errorf("%s: a server name needs a letter or digit, since its tools are named mcp__NAME__TOOL", where(""))
		case len(id) > maxMCPName:
			return fmt.Errorf("%s: a server name may be at most %d characters, so that its tool names fit the model's limit of 64", where(""), maxMCPName)
		case byName[id] != "":
			return fmt.Errorf("%s: the servers %q (%s) and %q would both be called %s in tool names and rules (mcp__%s__TOOL); rename one",
				where(""), printable.Escape(byName[id]), at.of("mcpServers", byName[id]), printable.Escape(name), id, id)
		}
		byName[id] = name
		switch s.Transport() {
		case "stdio":
			if strings.TrimSpace(s.Command) == "" {
				return fmt.Errorf("%s: give the program to start as \"command\" (or \"type\": \"http\" with a \"url\")", where("command"))
			}
			if s.URL != "" || len(s.Headers) > 0 {
				return fmt.Errorf("%s: \"url\" and \"headers\" belong to \"type\": \"http\" or \"sse\" servers, not to one started with \"command\"", where("url"))
			}
		case "http", "sse":
			if strings.TrimSpace(s.URL) == "" {
				return fmt.Errorf("%s: a %s server needs a \"url\"", where("url"), s.Type)
			}
			if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 {
				return fmt.Errorf("%s: \"command\", \"args\" and \"env\" belong to servers Warden starts; a %s server is reached at its \"url\"", where("command"), s.Type)
			}
		default:
			return fmt.Errorf("%s: unknown type %q: use \"stdio\", \"http\" or \"sse\"", where("type"), s.Type)
		}
		if s.TimeoutMS != nil && *s.TimeoutMS < 0 {
			return fmt.Errorf("%s.timeout_ms must not be negative, not %d", where("timeout_ms"), *s.TimeoutMS)
		}
	}
	return nil
}

// ReadMCPFile parses a .mcp.json file, read through o, with the same strictness as a settings file.
func ReadMCPFile(o *safefile.Opener, path string) (map[string]MCPServer, error) {
	var f MCPFile
	at, err := readStrict(o, path, &f, reflect.TypeFor[MCPFile]())
	if err != nil {
		return nil, err
	}
	if err := checkMCPServers(f.MCPServers, at); err != nil {
		return nil, err
	}
	return f.MCPServers, nil
}

// mcpJSON is the path of the workspace's .mcp.json.
func mcpJSON(ws string) string { return filepath.Join(ws, ".mcp.json") }

// addMCPServers merges one file's servers into the config: entries replace earlier ones of the same name.
// A project's servers and every server Warden would start in the workspace are items the person approves
// with what they would run, exactly; until then they wait.
func (c *Config) addMCPServers(file string, project bool, servers map[string]MCPServer) {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := MCPServerEntry{Name: MCPName(n), Key: n, MCPServer: servers[n], File: file, Project: project}
		if (project || e.Transport() == "stdio") && !c.judge(mcpItem(e, c.relFile(file))) {
			c.UntrustedMCPServers = append(c.UntrustedMCPServers, e)
			continue
		}
		c.MCPServers = slices.DeleteFunc(c.MCPServers, func(o MCPServerEntry) bool { return o.Name == e.Name })
		c.MCPServers = append(c.MCPServers, e)
	}
}

// readMCPJSON reads the workspace's .mcp.json if there is one. One the opener refuses (a link to a
// secret, say) or that does not parse starts no server and is reported.
func (c *Config) readMCPJSON(o *safefile.Opener) error {
	path := mcpJSON(c.Workspace)
	servers, err := ReadMCPFile(o, path)
	var refused *safefile.Refused
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case errors.As(err, &refused):
		c.Warnings = append(c.Warnings, fmt.Sprintf("%v; its servers are not started", err))
		return nil
	case err != nil:
		// The repository's file: one that does not parse must not stop Warden in every clone.
		c.Warnings = append(c.Warnings, projectFileLeftOut(err))
		return nil
	}
	c.Files = append(c.Files, path)
	c.addMCPServers(path, true, servers)
	return nil
}
