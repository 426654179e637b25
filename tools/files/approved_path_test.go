package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/tools"
)

// While the person is asked about a path outside the workspace, a symbolic link on the way is pointed at
// a key: what runs after their yes must be what they said yes to, or nothing.
func TestAFileToolReadsNothingWhenALinkChangedWhileItWasAsked(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	pub := filepath.Join(h.home, "pub")
	keys := filepath.Join(h.home, ".ssh")
	for _, d := range []string{pub, keys} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- the-key-itself"
	if err := os.WriteFile(filepath.Join(pub, "real.png"), []byte(pngFile(t, 8, 8)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pub, "notes.txt"), []byte("public notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, "id_ed25519"), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool       string
		args       map[string]any
		from, to   string // the link's target when asked, and after
		approvedAs string
	}{
		{"read_file", map[string]any{"path": "shot.png"}, filepath.Join(pub, "real.png"), filepath.Join(keys, "id_ed25519"), filepath.Join(pub, "real.png")},
		{"read_file", map[string]any{"path": "shot.png"}, filepath.Join(pub, "notes.txt"), filepath.Join(keys, "id_ed25519"), filepath.Join(pub, "notes.txt")},
		{"grep", map[string]any{"pattern": "KEY|notes", "path": "shot.png"}, pub, keys, pub},
		{"glob", map[string]any{"pattern": "*", "path": "shot.png"}, pub, keys, pub},
	} {
		link := h.path("shot.png")
		os.Remove(link)
		if err := os.Symlink(c.from, link); err != nil {
			t.Fatal(err)
		}
		access, err := h.access(c.tool, c.args)
		if err != nil || access.Path != c.approvedAs {
			t.Fatalf("%s: asked about %q (%v), want %q", c.tool, access.Path, err, c.approvedAs)
		}
		// The question is open; the link moves; then the person says yes.
		os.Remove(link)
		if err := os.Symlink(c.to, link); err != nil {
			t.Fatal(err)
		}
		res := h.tools[c.tool].Run(context.Background(), h.env, tools.Call{ID: "t", Input: h.input(c.args), Approved: &access})
		if !res.IsError || strings.Contains(res.Output, "the-key-itself") || len(res.Images) > 0 {
			t.Errorf("%s %v ran on what was not approved: %s (%d images)", c.tool, c.args, res.Output, len(res.Images))
		}
		if !strings.Contains(res.Output, "a symbolic link changed") {
			t.Errorf("%s: the refusal does not say why: %s", c.tool, res.Output)
		}
	}
}

func TestReadFileOpensThePathItResolvedWithoutFollowingALinkThatAppearedOnIt(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("docs/a.txt", "inside\n")
	if err := os.WriteFile(filepath.Join(h.home, "secret.txt"), []byte("outside\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The path resolved (docs/a.txt), then docs became a link elsewhere before the open.
	f, err := openResolved(h.path("docs/a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Rename(h.path("docs"), h.path("docs.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.home, h.path("docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(h.home, "secret.txt"), filepath.Join(h.home, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if f, err := openResolved(h.path("docs/a.txt")); err == nil {
		f.Close()
		t.Error("a path with a link in it was opened")
	}
}
