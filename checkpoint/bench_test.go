package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Benchmark workspaces are built once per run: writing 100,000 files takes a while. Each is a source
// tree of small files in directories of 20, with a .gitignore, plus an ignored node_modules as large
// again that the snapshot must not read.
var (
	benchMu    sync.Mutex
	benchTrees = map[int]string{}
	benchRoot  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

func benchWorkspace(b *testing.B, files int) string {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if dir, ok := benchTrees[files]; ok {
		return dir
	}
	if benchRoot == "" {
		var err error
		if benchRoot, err = os.MkdirTemp("", "checkpoint-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	dir := filepath.Join(benchRoot, fmt.Sprint(files))
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
	benchTrees[files] = dir
	return dir
}

// BenchmarkSnapshotUnchanged is the cost of a snapshot when nothing changed since the last one: the cost
// every call that may change files pays twice.
func BenchmarkSnapshotUnchanged(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			ws := benchWorkspace(b, n)
			b.Setenv("HOME", b.TempDir())
			c, err := Open(Options{Dir: b.TempDir(), Workspace: ws, Session: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if err := c.Off(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				changes, _, err := c.tree.snapshot()
				if err != nil || len(changes) != 0 {
					b.Fatalf("changes %d, err %v", len(changes), err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/snapshot")
		})
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
