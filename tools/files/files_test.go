package files

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// fileHarness runs the real file tools in a temporary workspace, resolving paths with the permission
// engine's own function, as the wiring does.
type fileHarness struct {
	t     testing.TB
	ws    string
	home  string
	env   *tools.Env
	tools map[string]tools.Tool
}

func newFileHarness(t testing.TB) *fileHarness {
	t.Helper()
	// The temporary directory may itself sit behind a symlink; the workspace is named by its real path.
	ws := permissions.ResolvePath("/", t.TempDir(), "")
	home := permissions.ResolvePath("/", t.TempDir(), "")
	env := tools.NewEnv(ws, t.TempDir())
	env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, home) }
	h := &fileHarness{t: t, ws: ws, home: home, env: env, tools: map[string]tools.Tool{}}
	for _, tool := range NewTools() {
		h.tools[tool.Name()] = tool
	}
	return h
}

func (h *fileHarness) path(rel string) string { return filepath.Join(h.ws, filepath.FromSlash(rel)) }

// write creates a file in the workspace with its parents.
func (h *fileHarness) write(rel, content string) string {
	h.t.Helper()
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *fileHarness) read(rel string) string {
	h.t.Helper()
	b, err := os.ReadFile(h.path(rel))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

func (h *fileHarness) input(args any) json.RawMessage {
	h.t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		h.t.Fatal(err)
	}
	return b
}

// access calls a tool's Access as the agent does before deciding.
func (h *fileHarness) access(tool string, args any) (tools.Access, error) {
	h.t.Helper()
	return h.tools[tool].Access(h.env, h.input(args))
}

// run calls a tool as the agent does once a call is allowed: Access first, then Run.
func (h *fileHarness) run(tool string, args any) tools.Result {
	h.t.Helper()
	if _, err := h.access(tool, args); err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	return h.tools[tool].Run(context.Background(), h.env, tools.Call{ID: "t", Input: h.input(args)})
}

// ok runs a call that must succeed and returns its output.
func (h *fileHarness) ok(tool string, args any) string {
	h.t.Helper()
	res := h.run(tool, args)
	if res.IsError {
		h.t.Fatalf("%s %v failed: %s", tool, args, res.Output)
	}
	return res.Output
}

// fails runs a call that must fail and returns the error text.
func (h *fileHarness) fails(tool string, args any) string {
	h.t.Helper()
	res := h.run(tool, args)
	if !res.IsError {
		h.t.Fatalf("%s %v succeeded, want an error: %s", tool, args, res.Output)
	}
	return res.Output
}

// git runs git in the workspace.
func (h *fileHarness) git(args ...string) {
	h.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		h.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func mustContain(t testing.TB, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
}

func TestFileToolsAreTheFiveOfDesign(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	for _, name := range []string{"read_file", "write_file", "edit_file", "glob", "grep"} {
		tool, ok := h.tools[name]
		if !ok {
			t.Fatalf("NewFileTools lacks %s", name)
		}
		var schema map[string]any
		if err := json.Unmarshal(tool.Schema(), &schema); err != nil {
			t.Fatalf("%s schema: %v", name, err)
		}
	}
	if len(h.tools) != 5 {
		t.Errorf("NewFileTools returned %d tools, want 5", len(h.tools))
	}
}

func TestFileToolsRefuseWithoutResolve(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.env.Resolve = nil
	h.write("a.txt", "x\n")
	for name, args := range map[string]any{
		"read_file":  map[string]any{"path": "a.txt"},
		"write_file": map[string]any{"path": "a.txt", "content": "y"},
		"edit_file":  map[string]any{"path": "a.txt", "old_string": "x", "new_string": "y"},
		"glob":       map[string]any{"pattern": "*"},
		"grep":       map[string]any{"pattern": "x"},
	} {
		if _, err := h.access(name, args); err == nil || !strings.Contains(err.Error(), "Env.Resolve") {
			t.Errorf("%s Access without Resolve: %v", name, err)
		}
	}
	if got := h.read("a.txt"); got != "x\n" {
		t.Errorf("a.txt changed to %q", got)
	}
}

// engine builds the permission engine the agent would use for this workspace.
func (h *fileHarness) engine(mode permissions.Mode) *permissions.Engine {
	h.t.Helper()
	e, err := permissions.NewEngine(permissions.Policy{Mode: mode, Workspace: h.ws, Home: h.home})
	if err != nil {
		h.t.Fatal(err)
	}
	return e
}

// decide asks the engine about a call the way the agent maps Access to a Request.
func decide(e *permissions.Engine, a tools.Access) permissions.Decision {
	kind := map[tools.AccessKind]permissions.Kind{tools.AccessRead: permissions.Read, tools.AccessEdit: permissions.Edit,
		tools.AccessWrite: permissions.Write}[a.Kind]
	return e.Decide(permissions.Request{Kind: kind, Path: a.Path, Cwd: a.Cwd}).Decision
}

func TestFileTraversalResolvesOutsideAndTheEngineAsks(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("src/main.go", "package main\n")
	h.env.SetCwd(h.path("src"))
	e := h.engine(permissions.ModeDefault)

	in, err := h.access("read_file", map[string]any{"path": "main.go"})
	if err != nil {
		t.Fatal(err)
	}
	if in.Path != h.path("src/main.go") || in.Summary != "src/main.go" || in.Kind != tools.AccessRead {
		t.Errorf("in-workspace read: %+v", in)
	}
	if d := decide(e, in); d != permissions.Allow {
		t.Errorf("engine says %s for a read inside the workspace, want allow", d)
	}

	out, err := h.access("read_file", map[string]any{"path": "../../etc/passwd"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(out.Path, h.ws+"/") || !filepath.IsAbs(out.Path) {
		t.Errorf("../../etc/passwd resolved to %s, inside the workspace %s", out.Path, h.ws)
	}
	if out.Path != filepath.Join(filepath.Dir(h.ws), "etc/passwd") {
		t.Errorf("../../etc/passwd from src resolved to %s", out.Path)
	}
	if d := decide(e, out); d != permissions.Ask {
		t.Errorf("engine says %s for ../../etc/passwd, want ask", d)
	}
	for _, tool := range []string{"glob", "grep"} {
		a, err := h.access(tool, map[string]any{"pattern": "x", "path": "../.."})
		if err != nil {
			t.Fatal(err)
		}
		if d := decide(e, a); d != permissions.Ask {
			t.Errorf("engine says %s for %s above the workspace (%s), want ask", d, tool, a.Path)
		}
	}
	a, err := h.access("glob", map[string]any{"pattern": "../../**/*.go"})
	if err != nil {
		t.Fatal(err)
	}
	if d := decide(e, a); d != permissions.Ask {
		t.Errorf("engine says %s for a glob pattern climbing out (%s), want ask", d, a.Path)
	}
}

func TestFileSymlinkPointingOutsideResolvesOutside(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	outside := permissions.ResolvePath("/", t.TempDir(), "")
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, h.path("link")); err != nil {
		t.Fatal(err)
	}
	e := h.engine(permissions.ModeAcceptEdits)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "link/secret.txt"}},
		{"write_file", map[string]any{"path": "link/new.txt", "content": "x"}},
		{"glob", map[string]any{"pattern": "*", "path": "link"}},
		{"grep", map[string]any{"pattern": "s", "path": "link"}},
	} {
		a, err := h.access(c.tool, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if !strings.HasPrefix(a.Path, outside) {
			t.Errorf("%s %v: Access.Path %s, want under %s", c.tool, c.args, a.Path, outside)
		}
		if d := decide(e, a); d != permissions.Ask {
			t.Errorf("%s through the link: engine says %s, want ask", c.tool, d)
		}
	}
}

func TestFileSearchesDoNotFollowSymlinksOut(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	outside := permissions.ResolvePath("/", t.TempDir(), "")
	if err := os.WriteFile(filepath.Join(outside, "x.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.write("a.txt", "hay\n")
	if err := os.Symlink(outside, h.path("dirlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.txt"), h.path("filelink.txt")); err != nil {
		t.Fatal(err)
	}
	if got := h.ok("grep", map[string]any{"pattern": "needle"}); !strings.HasPrefix(got, "No matches") {
		t.Errorf("grep followed a symlink out of the workspace:\n%s", got)
	}
	if got := h.ok("glob", map[string]any{"pattern": "**/*.txt"}); strings.Contains(got, "link") {
		t.Errorf("glob listed through symlinks:\n%s", got)
	}
}

// glob and grep are read-only and run without asking, so the git they run to list files must run nothing
// a repository's config names: a core.fsmonitor hook in .git/config (of a nested repository a sandboxed
// command could write, say) would run outside the sandbox with Warden's whole environment.
func TestFileSearchesRunNoProgramFromGitConfig(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("sub/a.go", "package a // needle\n")
	h.git("init", "-q", "sub")
	marker := filepath.Join(h.home, "ran")
	f, err := os.OpenFile(h.path("sub/.git/config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "[core]\n\tfsmonitor = \"echo ran >> %s; false\"\n", marker)
	f.Close()
	if got := h.ok("glob", map[string]any{"pattern": "*.go", "path": "sub"}); !strings.Contains(got, "a.go") {
		t.Errorf("glob: %s", got)
	}
	if got := h.ok("grep", map[string]any{"pattern": "needle", "path": "sub"}); !strings.Contains(got, "a.go:1:") {
		t.Errorf("grep: %s", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the repository's core.fsmonitor ran")
	}
}

// gitOut runs git in the workspace and returns its output.
func (h *fileHarness) gitOut(args ...string) string {
	h.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		h.t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
