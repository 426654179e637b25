package jail

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// In node_modules a second name is let be (package managers link their stores' files there), but not one
// that is a credential file of the home under another name: a hard link to ~/.ssh/id_rsa in a package is
// masked, one to the package manager's store is not.
func TestScanMasksAHardLinkInOtherPeoplesCodeToAKeyOfTheHome(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	key := filepath.Join(home, ".ssh", "id_rsa")
	netrc := filepath.Join(home, ".netrc")
	store := filepath.Join(home, ".local", "share", "pnpm", "store", "v3", "files", "ab", "cdef")
	for _, f := range []string{key, netrc, store, filepath.Join(ws, "README")} {
		mkfile(t, f)
	}
	links := map[string]string{
		filepath.Join(ws, "node_modules", "evil", "index.js"):     key,
		filepath.Join(ws, "node_modules", "@s", "evil", "x.js"):   netrc,
		filepath.Join(ws, "node_modules", "left-pad", "index.js"): store,
		filepath.Join(ws, ".venv", "bin", "k"):                    key,
	}
	for name, target := range links {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(target, name); err != nil {
			t.Fatal(err)
		}
	}
	stores := []string{filepath.Join(home, ".ssh"), netrc, filepath.Join(home, ".aws")}
	m := scan(Config{Secret: secretForTest, Workspace: ws, Homes: []string{home}, Stores: stores})
	for name, target := range links {
		masked := slices.Contains(m.Files, name)
		if want := target != store; masked != want {
			t.Errorf("%s (a link to %s) masked: %v, want %v", name, target, masked, want)
		}
	}
}
