package permissions

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
)

func TestResolvePath(t *testing.T) {
	ws, home := fixture(t)
	if err := os.Symlink("/nonexistent-target/dir", filepath.Join(ws, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(ws, "loop")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cwd, path, want string }{
		{ws, "src/main.go", filepath.Join(ws, "src/main.go")},
		{ws, "./src/../README.md", filepath.Join(ws, "README.md")},
		{ws, "../../etc/passwd", filepath.Join(filepath.Dir(filepath.Dir(ws)), "etc/passwd")},
		{filepath.Join(ws, "src"), "../../../../../../../../etc/passwd", "/etc/passwd"},
		{ws, "/etc/hosts", "/etc/hosts"},
		{ws, "~/notes.txt", filepath.Join(home, "notes.txt")},
		{ws, "~", home},
		{ws, "link-out/notes.txt", filepath.Join(home, "notes.txt")},
		{ws, "link-out/new/file", filepath.Join(home, "new/file")},
		{ws, "new-dir/new-file", filepath.Join(ws, "new-dir/new-file")},
		{ws, "dangling/x", "/nonexistent-target/dir/x"},
		// `..` applies after the link before it, as in the kernel's walk: lnk -> deep/a.
		{ws, "lnk/../x", filepath.Join(ws, "deep/x")},
		{ws, "lnk/../../README.md", filepath.Join(ws, "README.md")},
		{ws, "lnk/../../secrets/a.txt", filepath.Join(ws, "secrets/a.txt")},
		{ws, "link-out/../ws/README.md", filepath.Join(ws, "README.md")},
		{ws, "loop/x", filepath.Join(ws, "loop/x")},
		{ws, "missing/../README.md", filepath.Join(ws, "README.md")},
		{"rel", "a/../b", "rel/b"},
	} {
		if got := shell.ResolvePath(c.cwd, c.path, home); got != c.want {
			t.Errorf("ResolvePath(%q, %q) = %q, want %q", c.cwd, c.path, got, c.want)
		}
	}
}

// TestResolvePathThroughProcess: a path through /proc/self, /proc/N/cwd or /dev/fd is resolved for
// Warden's own process, not the command's, so it is not sure.
func TestResolvePathThroughProcess(t *testing.T) {
	for path, sure := range map[string]bool{
		"/dev/fd/../cwd/x": false, "/proc/self/cwd/../x": false, "/proc/self/status": false, "/dev/stdin": false,
		"/proc/1/root/etc/hostname": false, "/proc/cpuinfo": true, "/etc/hostname": true, "/dev/null": true,
	} {
		if _, got := shell.Resolve("/", path, ""); got != sure {
			t.Errorf("resolvePath(%q): sure = %v, want %v", path, got, sure)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		dir, path string
		want      bool
	}{
		{"/a/b", "/a/b", true}, {"/a/b", "/a/b/c", true}, {"/a/b", "/a/bc", false}, {"/a/b", "/a", false},
		{"/", "/x", true}, {"", "/x", false},
	} {
		if got := shell.Within(c.dir, c.path); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.dir, c.path, got)
		}
	}
}

// TestFileRequests covers the path policy of the file tools.
func TestFileRequests(t *testing.T) {
	ws, home := fixture(t)
	for _, c := range []struct {
		kind  Kind
		path  string
		mode  Mode
		allow []string
		deny  []string
		want  Decision
		by    string
	}{
		{Read, "src/main.go", ModeDefault, nil, nil, Allow, "readonly"},
		{Read, "../../../etc/passwd", ModeDefault, nil, nil, Ask, "policy"},
		{Read, "/etc/hosts", ModeDefault, nil, nil, Ask, "policy"},
		{Read, "link-out/notes.txt", ModeDefault, nil, nil, Ask, "policy"},
		{Read, ".env", ModeDefault, nil, nil, Ask, "policy"},
		{Read, ".env", ModeDefault, []string{"Read(./.env)"}, nil, Allow, "rule"},
		{Read, ".env", ModeYolo, nil, []string{"Read(./.env)"}, Deny, "rule"},
		{Read, "~/.ssh/id_rsa", ModeDefault, nil, nil, Ask, "policy"},
		{Read, "/etc/hosts", ModeDefault, []string{"Read(//etc/**)"}, nil, Allow, "rule"},
		{Read, "/etc/hosts", ModeYolo, nil, nil, Allow, "mode"},
		{Read, "src/main.go", ModePlan, nil, nil, Allow, "readonly"},
		{Edit, "src/main.go", ModeDefault, nil, nil, Ask, "policy"},
		{Edit, "src/main.go", ModeAcceptEdits, nil, nil, Allow, "mode"},
		{Write, "src/new.go", ModeAcceptEdits, nil, nil, Allow, "mode"},
		{Write, "/tmp/x", ModeAcceptEdits, nil, nil, Ask, "policy"},
		{Write, "link-out/x", ModeAcceptEdits, nil, nil, Ask, "policy"},
		{Write, "../outside", ModeAcceptEdits, nil, nil, Ask, "policy"},
		{Write, ".git/hooks/pre-commit", ModeAcceptEdits, nil, nil, Ask, "policy"},
		{Edit, ".warden/settings.json", ModeAcceptEdits, nil, nil, Ask, "policy"},
		{Write, "/tmp/x", ModeYolo, nil, nil, Allow, "mode"},
		{Edit, "src/main.go", ModePlan, nil, nil, Deny, "mode"},
		{Edit, "src/main.go", ModeDefault, []string{"Edit(./src/**)"}, nil, Allow, "rule"},
		{Write, "src/main.go", ModeDefault, []string{"Edit(./src/**)"}, nil, Allow, "rule"},
		{Edit, "src/main.go", ModeAcceptEdits, nil, []string{"Edit(./src/**)"}, Deny, "rule"},
		{Edit, "gen/x.go", ModeYolo, nil, []string{"Write(./gen/**)"}, Deny, "rule"},
		{None, "", ModeDefault, nil, nil, Allow, "policy"},
	} {
		e, err := NewEngine(Policy{Mode: c.mode, Allow: c.allow, Deny: c.deny, Workspace: ws, Home: home})
		if err != nil {
			t.Fatal(err)
		}
		v := e.Decide(Request{Kind: c.kind, Path: c.path, Cwd: ws})
		if v.Decision != c.want || v.By != c.by {
			t.Errorf("kind %d %q in %s: got %s by %s (%s), want %s by %s", c.kind, c.path, c.mode, v.Decision, v.By, v.Reason, c.want, c.by)
		}
		if v.Reason == "" {
			t.Errorf("kind %d %q: no reason", c.kind, c.path)
		}
	}
}

func TestAdditionalDirectories(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, AdditionalDirectories: []string{home}})
	if err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(Request{Kind: Read, Path: "~/notes.txt", Cwd: ws}); v.Decision != Allow {
		t.Errorf("read in an additional directory: %s (%s)", v.Decision, v.Reason)
	}
	if v := e.Decide(Request{Kind: Read, Path: "~/.ssh/id_rsa", Cwd: ws}); v.Decision != Ask {
		t.Errorf("secret in an additional directory: %s", v.Decision)
	}
	if v := e.Decide(Request{Kind: Exec, Command: "cd ~ && ls", Cwd: ws}); v.Decision != Allow {
		t.Errorf("cd into an additional directory: %s (%s)", v.Decision, v.Reason)
	}
}
