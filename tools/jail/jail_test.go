package jail

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func secretForTest(p string) bool {
	base := filepath.Base(p)
	return strings.HasPrefix(base, ".env") || base == "id_rsa" || strings.Contains(p+"/", "/.ssh/")
}

func mkfile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The scan masks secret files wherever they are in the workspace (other people's code and .git
// included, other people's code to three levels), secret directories whole, other names of a secret file (hard links), what a secret-named
// link points to, and the paths it is told to hide; it does not enter a git object store.
func TestScanFindsWhatToMask(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	mkfile(t, filepath.Join(ws, ".env"))
	mkfile(t, filepath.Join(ws, "a", "b", "c", ".env.production"))
	mkfile(t, filepath.Join(ws, "src", "main.go"))
	mkfile(t, filepath.Join(ws, "node_modules", "pkg", ".env"))
	mkfile(t, filepath.Join(ws, "node_modules", "@scope", "pkg", ".env"))
	mkfile(t, filepath.Join(ws, "node_modules", "pkg", "test", "fixtures", "a", ".env")) // past the bound
	mkfile(t, filepath.Join(ws, ".git", "x", "id_rsa"))
	mkfile(t, filepath.Join(ws, ".git", "objects", "ab", "id_rsa"))
	mkfile(t, filepath.Join(home, ".gem", "credentials.d", ".env"))
	mkfile(t, filepath.Join(ws, "config", "values"))
	if err := os.Symlink(filepath.Join(ws, "config", "values"), filepath.Join(ws, "config", ".env.link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(ws, ".env"), filepath.Join(ws, "src", "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(home, ".ssh", "id_rsa"))
	mkfile(t, filepath.Join(home, ".ssh", "config"))
	mkfile(t, filepath.Join(home, "notes.txt"))
	if err := os.Link(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "key-copy")); err != nil {
		t.Fatal(err)
	}
	sessions := filepath.Join(root, "sessions")
	os.Mkdir(sessions, 0o700)

	m := scan(Config{Secret: secretForTest, Workspace: ws, Homes: []string{home}, Hide: []string{sessions}})
	if _, err := os.Stat("/etc/shadow"); err == nil && !slices.Contains(m.Files, "/etc/shadow") {
		t.Error("/etc/shadow is not masked")
	}
	// The system's own credential stores are masked too; the rest is this test's.
	mine := func(list []string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(p string) bool { return !within(root, p) })
	}
	m.Files, m.Dirs = mine(m.Files), mine(m.Dirs)
	wantFiles := []string{filepath.Join(ws, ".env"), filepath.Join(ws, "a", "b", "c", ".env.production"),
		filepath.Join(ws, "config", "values"), filepath.Join(ws, "key-copy"), filepath.Join(ws, "src", "innocent.txt"),
		filepath.Join(ws, "node_modules", "pkg", ".env"), filepath.Join(ws, "node_modules", "@scope", "pkg", ".env"),
		filepath.Join(ws, ".git", "x", "id_rsa"),
		filepath.Join(home, ".gem", "credentials.d", ".env")}
	wantDirs := []string{filepath.Join(home, ".ssh"), sessions}
	slices.Sort(wantFiles)
	slices.Sort(wantDirs)
	if !slices.Equal(m.Files, wantFiles) {
		t.Errorf("files = %q\nwant    %q", m.Files, wantFiles)
	}
	if !slices.Equal(m.Dirs, wantDirs) {
		t.Errorf("dirs = %q\nwant   %q", m.Dirs, wantDirs)
	}
	if m.Incomplete != "" {
		t.Errorf("incomplete: %s", m.Incomplete)
	}
}

// Landlock only grants: reading everything but the hidden paths means granting, on the way down to each,
// every other entry and the listing of the directories on the way.
func TestReadGrantsLeaveOutOnlyTheHidden(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	mkfile(t, filepath.Join(root, "ws", ".env"))
	mkfile(t, filepath.Join(root, "ws", "README"))
	mkfile(t, filepath.Join(root, "ws", "src", "main.go"))
	mkfile(t, filepath.Join(root, "other", "x"))
	hidden := map[string]bool{filepath.Join(root, "ws", ".env"): true}
	dirs, files, lists := readGrants(hidden)
	has := func(list []string, p string) bool { return slices.Contains(list, p) }
	if !has(files, filepath.Join(root, "ws", "README")) || !has(dirs, filepath.Join(root, "ws", "src")) ||
		!has(dirs, filepath.Join(root, "other")) {
		t.Errorf("what is not hidden is not all granted: dirs %v files %v", dirs, files)
	}
	if has(files, filepath.Join(root, "ws", ".env")) || has(dirs, filepath.Join(root, "ws")) {
		t.Error("the hidden file, or a directory holding it, is granted")
	}
	for _, d := range []string{"/", root, filepath.Join(root, "ws")} {
		if !has(lists, d) {
			t.Errorf("%s on the way down is not listable", d)
		}
	}
	if !has(dirs, "/usr") {
		t.Error("/usr, which holds nothing hidden, is not granted whole")
	}
}

func TestNoteSaysWhatTheJailRefused(t *testing.T) {
	one, zero := 1, 0
	cases := []struct {
		b      Backend
		out    string
		exit   *int
		want   []string
		absent []string
	}{
		{Bubblewrap, "touch: cannot touch 'x': Read-only file system", &one, []string{"nothing can be written except in /tmp"}, []string{"network", "keys"}},
		{Bubblewrap, "bash: socket: Permission denied\nbash: /dev/tcp/1.2.3.4/80: Permission denied", &one, []string{"there is no network"}, []string{"keys", "written"}},
		{Bubblewrap, "curl: (6) Could not resolve host: example.com", &one, []string{"there is no network"}, nil},
		{Bubblewrap, "cat: /home/u/.ssh/id_rsa: Permission denied", &one, []string{"cannot be read"}, []string{"written"}},
		{Landlock, "bash: f: Permission denied", &one, []string{"nothing can be written except in /tmp", "cannot be read"}, nil},
		{Bubblewrap, "ls: cannot access '/tmp/build/x': No such file or directory", &one, []string{"fresh, empty one"}, nil},
		{Bubblewrap, "grep: x: No such file or directory", &one, nil, []string{"jail"}},
		{Bubblewrap, "touch: cannot touch 'x': Read-only file system", &zero, nil, []string{"jail"}},
	}
	for _, c := range cases {
		n := Note(c.b, "/tmp", c.out, c.exit, "")
		for _, w := range c.want {
			if !strings.Contains(n, w) || !strings.Contains(n, "dangerously_unsandboxed") {
				t.Errorf("%q: note %q lacks %q", c.out, n, w)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(n, a) {
				t.Errorf("%q: note %q says %q", c.out, n, a)
			}
		}
	}
}

// Beyond the workspace and the homes' first levels, the scan searches the additional directories whole,
// and where Read rules' paths begin: a path a rule covers whole is masked as it is, below another (a
// wildcard) what the rule covers is found; a rule starting at / is not walked.
func TestScanSearchesAdditionalDirectoriesAndReadRules(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, shared, other := filepath.Join(root, "ws"), filepath.Join(root, "shared"), filepath.Join(root, "other")
	mkfile(t, filepath.Join(ws, "main.go"))
	mkfile(t, filepath.Join(shared, "a", "b", "c", "d", ".env"))
	mkfile(t, filepath.Join(ws, "config", "prod.yml"))
	mkfile(t, filepath.Join(ws, "private", "notes.md"))
	mkfile(t, filepath.Join(other, "x", "y", "server.crt"))
	mkfile(t, filepath.Join(other, "x", "y", "server.txt"))
	covered := func(p string) bool {
		return p == filepath.Join(ws, "config", "prod.yml") || within(filepath.Join(ws, "private"), p) ||
			within(other, p) && strings.HasSuffix(p, ".crt")
	}
	m := scan(Config{
		Secret:    func(p string) bool { return secretForTest(p) || covered(p) },
		Workspace: ws, Trees: []string{shared},
		Roots: []string{filepath.Join(ws, "config", "prod.yml"), filepath.Join(ws, "private"), other, "/"},
	})
	m.Files = slices.DeleteFunc(m.Files, func(p string) bool { return !within(root, p) })
	wantFiles := []string{filepath.Join(ws, "config", "prod.yml"), filepath.Join(other, "x", "y", "server.crt"),
		filepath.Join(shared, "a", "b", "c", "d", ".env")}
	slices.Sort(wantFiles)
	if !slices.Equal(m.Files, wantFiles) {
		t.Errorf("files = %q\nwant    %q", m.Files, wantFiles)
	}
	if !slices.Contains(m.Dirs, filepath.Join(ws, "private")) {
		t.Errorf("the directory a rule covers is not masked: %q", m.Dirs)
	}
	if m.Incomplete != "" {
		t.Errorf("incomplete: %s (a rule starting at / must not walk the whole system)", m.Incomplete)
	}
}
