package checkpoint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/gitrepo"
)

// Benchmark workspaces are built once per run: writing 100,000 files takes a while. Each is a source
// tree of small files in directories of 20, with a .gitignore, plus an ignored node_modules as large
// again that the snapshot must not read. A git one has the source tree in its index, and one file of
// node_modules too (tracked though ignored), so that snapshots follow what git's index lists.
var (
	benchMu    sync.Mutex
	benchTrees = map[benchKey]string{}
	benchRoot  string
)

type benchKey struct {
	files int
	git   bool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

func benchWorkspace(b *testing.B, files int) string { return benchTree(b, benchKey{files, false}) }

func benchTree(b *testing.B, key benchKey) string {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if dir, ok := benchTrees[key]; ok {
		return dir
	}
	files := key.files
	if benchRoot == "" {
		var err error
		if benchRoot, err = os.MkdirTemp("", "checkpoint-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	dir := filepath.Join(benchRoot, fmt.Sprint(files, key.git))
	line := []byte("package main // a line of source code that is about this long\n")
	write := func(base string, n int, content []byte) {
		for i := 0; i < n; i++ {
			d := filepath.Join(dir, base, fmt.Sprintf("d%03d", i/400), fmt.Sprintf("e%02d", (i/20)%20))
			if i%20 == 0 {
				if err := os.MkdirAll(d, 0o755); err != nil {
					b.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d.go", i%20)), content, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	write("src", files, line)
	write("node_modules", files, line)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n*.log\n/target\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if key.git {
		cmd := exec.Command("bash", "-c", "git init -q . && git add src .gitignore && git add -f node_modules/d000/e00/f00.go")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	benchTrees[key] = dir
	return dir
}

// BenchmarkSnapshotUnchanged is the cost of a snapshot when nothing changed since the last one, the
// cost every call that may change files pays twice: with the watch (what a snapshot costs within a
// minute of the last full walk), as a full stat walk (what it costs otherwise, and always where inotify
// is missing), and, as the baseline measured in the same run, a bare fstatat of every file the walk
// looks at.
//
// git-10k is the 10k workspace as a git work tree, whose index snapshots also read.
func BenchmarkSnapshotUnchanged(b *testing.B) {
	for _, key := range []benchKey{{10_000, false}, {100_000, false}, {10_000, true}} {
		name := fmt.Sprintf("%dk", key.files/1000)
		if key.git {
			name = "git-" + name
		}
		b.Run(name, func(b *testing.B) {
			ws := benchTree(b, key)
			b.Setenv("HOME", b.TempDir())
			c, err := Open(Options{Dir: b.TempDir(), Workspace: ws, Session: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if err := c.Off(); err != nil {
				b.Fatal(err)
			}
			git := gitrepo.NewReader()
			walk := &tree{root: ws, git: git, store: c.tree.store, loaded: newIndex(), maxSize: DefaultMaxFileSize, noWatch: true,
				tracked: newTracker(git, ws, findWorkTree(git, ws))}
			if _, _, err := walk.snapshot(); err != nil {
				b.Fatal(err)
			}
			files := bareFiles(b, walk.index())
			var watched, walked, bare time.Duration
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				changes, _, err := c.tree.snapshot()
				t1 := time.Now()
				changes2, _, err2 := walk.snapshot()
				t2 := time.Now()
				bareStat(b, ws, files)
				t3 := time.Now()
				if err != nil || err2 != nil || len(changes)+len(changes2) != 0 {
					b.Fatalf("changes %d %d, err %v %v", len(changes), len(changes2), err, err2)
				}
				watched, walked, bare = watched+t1.Sub(t0), walked+t2.Sub(t1), bare+t3.Sub(t2)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
			b.ReportMetric(ms(watched), "watched-ms")
			b.ReportMetric(ms(walked), "walk-ms")
			b.ReportMetric(ms(bare), "bare-lstat-ms")
			b.ReportMetric(float64(walked)/float64(bare), "walk-ratio")
		})
	}
}

// bareFiles lists, per directory, the names the snapshot stats.
func bareFiles(b *testing.B, idx *index) map[string][]string {
	out := map[string][]string{}
	for p := range idx.entries {
		dir, name := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			dir, name = p[:i], p[i+1:]
		}
		out[dir] = append(out[dir], name)
	}
	return out
}

// bareStat is the least a stat walk can do: open each directory and fstatat each name in it.
func bareStat(b *testing.B, root string, files map[string][]string) {
	var st unix.Stat_t
	for dir, names := range files {
		fd, err := unix.Open(filepath.Join(root, dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range names {
			unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		unix.Close(fd)
	}
}

// BenchmarkFirstSnapshot is the cost of the first snapshot of a workspace, which saves every file.
func BenchmarkFirstSnapshot(b *testing.B) {
	ws := benchWorkspace(b, 10_000)
	b.Setenv("HOME", b.TempDir())
	for b.Loop() {
		c, err := Open(Options{Dir: b.TempDir(), Workspace: ws, Session: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Off(); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}
