package jail

import (
	"fmt"
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

func mkfile(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The scan masks secret files wherever they are in the workspace (other people's code and .git
// included, other people's code to three levels), secret directories whole, other names of a secret file
// (hard links), a file with a name no walk found (a hard link to a key in the dark home), what a
// secret-named link points to, and the paths it is told to hide; it does not enter a git object store,
// nor the home, which is dark whole.
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
		filepath.Join(ws, ".git", "x", "id_rsa")}
	wantDirs := []string{sessions}
	slices.Sort(wantFiles)
	slices.Sort(wantDirs)
	if !slices.Equal(m.Files, wantFiles) {
		t.Errorf("files = %q\nwant    %q", m.Files, wantFiles)
	}
	if !slices.Equal(m.Dirs, wantDirs) {
		t.Errorf("dirs = %q\nwant   %q", m.Dirs, wantDirs)
	}
	if !slices.Equal(m.Dark, []string{home}) {
		t.Errorf("dark homes = %q, want %q", m.Dark, home)
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
	dirs, files, lists := readGrants([]string{"/"}, hidden)
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
		n := note(c.b, "/tmp", nil, c.out, c.exit, "")
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

// A walk that reaches its bound masks whole the directories it did not get to, so that a secret there is
// hidden rather than left readable; what it read is not masked.
func TestScanMasksWhatItDidNotReach(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(root, "ws")
	for i := range 10 {
		mkfile(t, filepath.Join(ws, "a", fmt.Sprintf("f%d", i)))
		mkfile(t, filepath.Join(ws, "b", fmt.Sprintf("f%d", i)))
	}
	mkfile(t, filepath.Join(ws, "c", "sub", ".env"))
	mkfile(t, filepath.Join(ws, "c", "notes.txt"))
	m := scan(Config{Secret: secretForTest, Workspace: ws, bound: 15})
	if !slices.Contains(m.Dirs, filepath.Join(ws, "c")) {
		t.Errorf("the directory the walk did not reach is not masked: dirs %q files %q", m.Dirs, m.Files)
	}
	for _, p := range append(m.Dirs, m.Files...) {
		if within(filepath.Join(ws, "a"), p) || within(filepath.Join(ws, "b"), p) || p == ws {
			t.Errorf("%s, which the walk read, is masked", p)
		}
	}
	if m.Incomplete != ws {
		t.Errorf("incomplete = %q, want %q", m.Incomplete, ws)
	}
}

// A file with a name no walk found is masked: it may be a key of the dark home under another name. Two
// names of one file, both in the workspace, are not, nor is a package a package manager linked from its
// cache into node_modules or site-packages.
func TestScanMasksAHardLinkWhoseOtherNameIsUnseen(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	mkfile(t, filepath.Join(home, "keys", "deploy"))
	mkfile(t, filepath.Join(ws, "one"))
	mkfile(t, filepath.Join(home, ".bun", "install", "cache", "react", "index.js"))
	os.MkdirAll(filepath.Join(ws, "node_modules", "react"), 0o755)
	for _, l := range [][2]string{{filepath.Join(home, "keys", "deploy"), filepath.Join(ws, "deploy-copy")},
		{filepath.Join(ws, "one"), filepath.Join(ws, "two")},
		{filepath.Join(home, ".bun", "install", "cache", "react", "index.js"), filepath.Join(ws, "node_modules", "react", "index.js")}} {
		if err := os.Link(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	m := scan(Config{Secret: secretForTest, Workspace: ws, Homes: []string{home}})
	if !slices.Contains(m.Files, filepath.Join(ws, "deploy-copy")) {
		t.Errorf("the second name of a file of the dark home is not masked: %q", m.Files)
	}
	if slices.Contains(m.Files, filepath.Join(ws, "one")) || slices.Contains(m.Files, filepath.Join(ws, "two")) {
		t.Errorf("a file whose names are all in the workspace is masked: %q", m.Files)
	}
	if slices.Contains(m.Files, filepath.Join(ws, "node_modules", "react", "index.js")) {
		t.Errorf("a package linked from a package manager's cache is masked: %q", m.Files)
	}
}

// Beyond a number of masks (a mount each under bubblewrap) the directories holding the most are masked in
// their place, rather than the masks past the bound being left out.
func TestFewerMasksHideMoreNotLess(t *testing.T) {
	var m Masks
	for i := range 10 {
		m.Files = append(m.Files, fmt.Sprintf("/w/d1/f%d", i))
	}
	for i := range 5 {
		m.Files = append(m.Files, fmt.Sprintf("/w/d2/f%d", i))
	}
	m.Files = append(m.Files, "/w/d3/f")
	m.Dirs = []string{"/w/d1/sub"}
	got := m.fewer(5)
	if !slices.Equal(got.Dirs, []string{"/w/d1", "/w/d2"}) || !slices.Equal(got.Files, []string{"/w/d3/f"}) {
		t.Errorf("fewer(5) = dirs %q files %q", got.Dirs, got.Files)
	}
	if got.Incomplete == "" {
		t.Error("merging is not reported")
	}
	if same := m.fewer(100); len(same.Files) != len(m.Files) || same.Incomplete != "" {
		t.Errorf("within the bound fewer changed the masks: %+v", same)
	}
}

// A home that is or holds a system directory (HOME=/, HOME=/usr) is not hidden, since nothing would run;
// a home inside another is hidden with it; a home is named as its links resolve.
func TestDarkHomesLeaveTheSystemAlone(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home", "u")
	os.MkdirAll(filepath.Join(home, "nested"), 0o755)
	if err := os.Symlink(home, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	got := darkHomes([]string{"/", "/usr", "/var", filepath.Join(root, "link"), filepath.Join(home, "nested"), filepath.Join(root, "gone")})
	if !slices.Equal(got, []string{home}) {
		t.Errorf("darkHomes = %q, want %q", got, home)
	}
}

// The links on the way to a shown place inside a dark home are kept, to be made again in the jail: a
// place reached through ~/go leading elsewhere, ~/.nix-profile leading to /nix/store.
func TestFollowKeepsTheLinksInsideTheHome(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, other := filepath.Join(root, "home"), filepath.Join(root, "other")
	mkfile(t, filepath.Join(other, "go", "pkg", "mod", "x"))
	os.MkdirAll(home, 0o755)
	if err := os.Symlink("../other/go", filepath.Join(home, "go")); err != nil {
		t.Fatal(err)
	}
	dark := func(p string) bool { return within(home, p) }
	real, links, ok := follow(filepath.Join(home, "go", "pkg", "mod"), dark)
	if !ok || real != filepath.Join(other, "go", "pkg", "mod") {
		t.Errorf("follow = %q, %v", real, ok)
	}
	if want := []Link{{filepath.Join(home, "go"), "../other/go"}}; !slices.Equal(links, want) {
		t.Errorf("links = %v, want %v", links, want)
	}
	if _, _, ok := follow(filepath.Join(home, "nothing"), dark); ok {
		t.Error("a missing place was followed")
	}
}

// The toolchains' places are where their variables say, else their defaults in the home; the directories
// of PATH inside the home are among them, but never the home itself.
func TestToolchainsFollowTheirVariables(t *testing.T) {
	env := map[string]string{"GOMODCACHE": "/data/gomod", "CARGO_HOME": "/opt/cargo", "XDG_CACHE_HOME": "relative",
		"PATH": "/home/u/bin:/usr/bin:/home/u:relative/bin:/home/u/.pyenv/shims"}
	places := Toolchains("/home/u", func(k string) string { return env[k] })
	paths := map[string]bool{}
	for _, p := range places {
		paths[p.Path] = true
		if p.Why == "" {
			t.Errorf("%s has no reason", p.Path)
		}
	}
	for _, want := range []string{"/data/gomod", "/opt/cargo/bin", "/opt/cargo/registry", "/home/u/.rustup",
		"/home/u/.cache/go-build", "/home/u/go/bin", "/home/u/.npm", "/home/u/.pyenv", "/home/u/bin"} {
		if !paths[want] {
			t.Errorf("%s is not among the toolchains' places", want)
		}
	}
	for _, not := range []string{"/home/u/go/pkg/mod", "/home/u/.cargo/bin", "/home/u/.cargo", "/home/u", "/usr/bin", "relative/bin"} {
		if paths[not] {
			t.Errorf("%s is among the toolchains' places", not)
		}
	}
}

// A toolchain's place is shown unsearched, so one that is secret itself (a variable, or a link, leading to
// ~/.ssh) is masked, and one that would be a home whole (GOMODCACHE=~) is not shown.
func TestScanShowsNoToolchainPlaceThatIsSecretOrAHome(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	mkfile(t, filepath.Join(home, ".ssh", "id_rsa"))
	mkfile(t, filepath.Join(home, "go", "pkg", "mod", "x"))
	m := scan(Config{Secret: secretForTest, Homes: []string{home}, Places: []Place{
		{Path: filepath.Join(home, ".ssh"), Why: "a variable leading there"},
		{Path: home, Why: "GOMODCACHE=~"},
		{Path: filepath.Join(home, "go", "pkg", "mod"), Why: "the module cache"},
	}})
	if !slices.Contains(m.Dirs, filepath.Join(home, ".ssh")) {
		t.Errorf("a secret place is not masked: %q", m.Dirs)
	}
	if slices.Contains(m.Shown, home) || !slices.Contains(m.Shown, filepath.Join(home, "go", "pkg", "mod")) {
		t.Errorf("shown = %q", m.Shown)
	}
}
