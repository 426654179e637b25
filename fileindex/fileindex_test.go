package fileindex

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func mkfiles(t testing.TB, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func built(t testing.TB, root string) *Index {
	t.Helper()
	ix := Build(root)
	select {
	case <-ix.Ready():
	case <-time.After(30 * time.Second):
		t.Fatal("the index was never built")
	}
	return ix
}

func TestIndexHonoursGitignore(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, ".gitignore", "main.go", "ui/model.go", "node_modules/left-pad/index.js", "debug.log", "build/out.bin")
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n*.log\n/build\n"), 0o644)
	ix := built(t, root)
	all := strings.Join(ix.Match("", 100), " ")
	if all != ".gitignore main.go ui/ ui/model.go" {
		t.Errorf("entries: %s", all)
	}
	if done, partial, n, err := ix.State(); !done || partial || n != 4 || err != nil {
		t.Errorf("state %v %v %d %v", done, partial, n, err)
	}
}

func TestMatchRanksTheFileNameFirst(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "ui/model.go", "ui/model_test.go", "agent/mode/x.go", "docs/more_old_design.md", "README.md", "deep/a/b/c/model.go")
	ix := built(t, root)
	got := ix.Match("model", 4)
	if len(got) != 3 || got[0] != "ui/model.go" || got[1] != "deep/a/b/c/model.go" || got[2] != "ui/model_test.go" {
		t.Errorf("model: %v", got)
	}
	if got := ix.Match("uimod", 2); len(got) == 0 || got[0] != "ui/model.go" {
		t.Errorf("uimod: %v", got)
	}
	if got := ix.Match("readme", 5); len(got) != 1 || got[0] != "README.md" {
		t.Errorf("readme: %v", got)
	}
	if got := ix.Match("zzz", 5); len(got) != 0 {
		t.Errorf("zzz: %v", got)
	}
}

// tree makes n files in a tree shaped like a large repository.
func tree(b testing.TB, n int) string {
	root := b.TempDir()
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("pkg%03d", i%300), fmt.Sprintf("sub%02d", i%17), fmt.Sprintf("file_%06d.go", i))
		if i%300 == i%17 || i < 300*17 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkMatch100k is one keystroke of @ completion over a hundred thousand files.
func BenchmarkMatch100k(b *testing.B) {
	ix := built(b, tree(b, 100_000))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Match([]string{"f", "fi", "file_0", "pkg12sub", "file_099999"}[i%5], 10)
	}
}

// BenchmarkBuild100k is indexing a hundred thousand files, done in the background.
func BenchmarkBuild100k(b *testing.B) {
	root := tree(b, 100_000)
	b.ResetTimer()
	for b.Loop() {
		built(b, root)
	}
}

// The index offers what glob and grep search: in a work tree, tracked files though a rule ignores them,
// and nothing the index lists below a tracked directory that is now a link, or that climbs out.
func TestIndexListsWhatGitListsAndNothingThroughALink(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test:", err)
	}
	root := t.TempDir()
	mkfiles(t, root, ".gitignore", "main.go", "vendor/forced.log", "docs/guide.md", "scratch.log")
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"add", "-f", "vendor/forced.log"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	outside := t.TempDir()
	mkfiles(t, outside, "guide.md", "planted.md")
	os.RemoveAll(filepath.Join(root, "docs"))
	if err := os.Symlink(outside, filepath.Join(root, "docs")); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(built(t, root).Match("", 100), " ")
	if all != ".gitignore main.go vendor/ vendor/forced.log" {
		t.Errorf("entries: %s", all)
	}
}
