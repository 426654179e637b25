package checkpoint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func newTree(t *testing.T, root string) *tree {
	t.Helper()
	return &tree{root: root, store: &objects{dir: filepath.Join(t.TempDir(), "objects")}, loaded: newIndex(), maxSize: 1 << 20}
}

func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func changeLines(cs []Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return strings.Join(out, "\n")
}

func TestTreeSnapshotSeesEachKindOfChange(t *testing.T) {
	isolateHome(t)
	root := t.TempDir()
	sh(t, root, "mkdir -p src empty && printf 'a\\nb\\n' > src/a.txt && printf 'x\\n' > b.txt && echo gone > c.txt && echo '*.log' > .gitignore && echo x > d.log && ln -s b.txt link")
	tr := newTree(t, root)
	first, _, err := tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got := changeLines(first); got != "A .gitignore\nA b.txt\nA c.txt\nA empty/\nL link → b.txt\nA src/\nA src/a.txt" {
		t.Errorf("first snapshot:\n%s", got)
	}
	again, _, err := tr.snapshot()
	if err != nil || len(again) != 0 {
		t.Fatalf("a second snapshot with nothing changed reported %q, %v", changeLines(again), err)
	}
	sh(t, root, "printf 'a\\nB\\nc\\n' > src/a.txt && rm c.txt && chmod +x b.txt && echo new > new.txt && ln -sfn src/a.txt link && rmdir empty && echo y >> d.log && mkdir -p n/m")
	got, _, err := tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	want := "T b.txt (-rw-r--r-- → -rwxr-xr-x)\nD c.txt\nD empty/\nL link → src/a.txt\nA n/\nA n/m/\nA new.txt\nM src/a.txt"
	if s := changeLines(got); s != want {
		t.Errorf("changes:\n%s\nwant:\n%s", s, want)
	}
}

func isolateHome(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
}

// A directory named .GIT is an ordinary one where case matters: it is followed, and the saved index keeps
// it, though a restore refuses to write there (it would be .git where case does not matter).
func TestIndexKeepsPathsARestoreRefuses(t *testing.T) {
	isolateHome(t)
	root := t.TempDir()
	sh(t, root, "mkdir .GIT && echo x > .GIT/f && echo y > g")
	tr := newTree(t, root)
	if _, _, err := tr.snapshot(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index")
	if err := saveIndex(path, tr.index()); err != nil {
		t.Fatal(err)
	}
	idx := loadIndex(path)
	if idx.entries[".GIT/f"] == nil || idx.entries["g"] == nil {
		t.Errorf("the saved index lost entries: %v", indexState(idx))
	}
}
