package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the function name the model calls.
	Name() string
	// Description is the text the model reads to decide when to use the tool.
	Description() string
	// Schema is the JSON schema of the tool's parameters.
	Schema() json.RawMessage
	// Access reports what a call with this input would touch, so that the permission engine can decide
	// before anything runs. An input that does not decode is an error the model will read.
	Access(env *Env, input json.RawMessage) (Access, error)
	// Run performs the call. Errors the model should read are returned as a Result with IsError set;
	// a Go error is reserved for failures of Warden itself and is also shown to the model.
	Run(ctx context.Context, env *Env, call Call) Result
}

// AccessKind says what a tool call does to the machine.
type AccessKind int

const (
	// AccessExec runs a shell command (Access.Command).
	AccessExec AccessKind = iota
	// AccessRead reads files under Access.Path; it changes nothing.
	AccessRead
	// AccessEdit changes an existing file at Access.Path.
	AccessEdit
	// AccessWrite creates or replaces a file at Access.Path.
	AccessWrite
	// AccessNone touches nothing on the machine (reading a background task's output, for example).
	AccessNone
	// AccessMCP calls a tool of an MCP server (Access.MCP), which may do anything its server can.
	AccessMCP
	// AccessFetch fetches a web page from Access.Host; it changes nothing on the machine.
	AccessFetch
)

func (k AccessKind) String() string {
	switch k {
	case AccessExec:
		return "exec"
	case AccessRead:
		return "read"
	case AccessEdit:
		return "edit"
	case AccessWrite:
		return "write"
	case AccessNone:
		return "none"
	case AccessMCP:
		return "mcp"
	case AccessFetch:
		return "fetch"
	}
	return fmt.Sprintf("AccessKind(%d)", int(k))
}

// Access describes what one tool call would touch.
type Access struct {
	Kind AccessKind
	// Command is the shell command for AccessExec.
	Command string
	// Path is the file or directory for read, edit and write access, resolved to an absolute path through
	// Env.Resolve (the same function the permission engine uses).
	Path string
	// Cwd is the directory the call is resolved against.
	Cwd string
	// Summary is a one-line description of the call for panels and the history ("ls -la", "src/main.go").
	Summary string
	// Diff is a unified diff of a proposed file change, shown in the approval modal.
	Diff string
	// Unsandboxed is set on an AccessExec whose command asks to run outside the sandbox that is on. The
	// permission engine must always ask the person for it, whatever the rules and the mode.
	Unsandboxed bool
	// MCP is the server tool an AccessMCP call reaches.
	MCP *MCPTarget
	// Host is the host an AccessFetch call connects to first, as its URL names it.
	Host string
}

// MCPTarget names the tool of an MCP server a call reaches, with the server's claim about it.
type MCPTarget struct {
	Server, Tool string
	// ReadOnlyHint is the server's readOnlyHint; HintTrusted says the person trusts this server's marks.
	ReadOnlyHint, HintTrusted bool
}

// Call is one invocation of a tool.
type Call struct {
	ID    string
	Input json.RawMessage
	// Output receives live output as it is produced (already cleaned for display). It may be nil.
	// It is called from the tool's goroutine and must not block for long.
	Output func(chunk string)
	// Jailed says the call runs without a person's approval because it was judged read-only: a command
	// then runs in the read-only jail, when that is on (BashSettings.Jail).
	Jailed bool
	// Approved is what the call was decided on: the Access the permission engine, and the person when
	// asked, saw. A tool that writes files checks that the path still resolves there and that the change
	// is still the one shown, and writes nothing otherwise. Nil when the call was not decided (tests).
	Approved *Access
}

// Result splits what a call produced into the content for the model and metadata for the person.
type Result struct {
	// Output is exactly what the model receives.
	Output  string
	IsError bool
	// ExitCode is set for commands that ran to an exit status.
	ExitCode *int
	// Signal names the signal that ended the command, if any.
	Signal       string
	TimedOut     bool
	Interrupted  bool
	Truncated    bool
	BackgroundID string
	// OutputPath is the file holding the full output when Output was shortened.
	OutputPath string
	// Lines is how many lines a command printed in all, including those neither the model nor the live
	// display was given; 0 when not counted.
	Lines int64
	// Display is the text the person sees in the tool panel when it differs from Output (a diff, say).
	Display string
	// Images are pictures the model is shown with Output (read_file of an image), in the order given.
	Images []Image
}

// Errorf builds an error result for the model.
func Errorf(format string, args ...any) Result {
	return Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// Registry holds the tools offered to the model, by name.
type Registry struct {
	byName map[string]Tool
}

// NewRegistry returns a registry of the given tools. A duplicate name is a programming error and panics.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		if _, dup := r.byName[t.Name()]; dup {
			panic("tools: duplicate tool " + t.Name())
		}
		r.byName[t.Name()] = t
	}
	return r
}

// Get returns the tool with the given name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names returns the registered tool names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Tools returns the registered tools sorted by name.
func (r *Registry) Tools() []Tool {
	out := make([]Tool, 0, len(r.byName))
	for _, n := range r.Names() {
		out = append(out, r.byName[n])
	}
	return out
}

// Subset returns a registry with only the named tools that exist in r.
func (r *Registry) Subset(names ...string) *Registry {
	s := &Registry{byName: map[string]Tool{}}
	for _, n := range names {
		if t, ok := r.byName[n]; ok {
			s.byName[n] = t
		}
	}
	return s
}
