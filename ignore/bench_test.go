package ignore

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Benchmark trees are built once per run and shared: making 100,000 files costs seconds.
var (
	benchOnce sync.Map // name -> *benchTree
	benchRoot string
)

type benchTree struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

// makeTree writes files empty files spread over directories of 20 files, 10 directories to a level, under
// dir; a .gitignore every 50 directories.
func makeTree(dir string, files int) error {
	n := 0
	var fill func(d string, depth int) error
	fill = func(d string, depth int) error {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		for i := 0; i < 20 && n < files; i++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("file%02d.go", i)), nil, 0o644); err != nil {
				return err
			}
			n++
		}
		if n%1000 == 0 {
			if err := os.WriteFile(filepath.Join(d, ".gitignore"), []byte("*.tmp\n!keep.tmp\nlocal/\n"), 0o644); err != nil {
				return err
			}
		}
		for i := 0; i < 10 && n < files && depth < 6; i++ {
			if err := fill(filepath.Join(d, fmt.Sprintf("dir%d", i)), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; n < files; i++ {
		if err := fill(filepath.Join(dir, fmt.Sprintf("pkg%d", i)), 0); err != nil {
			return err
		}
	}
	return nil
}

// tree returns a tree of `kept` files that are walked plus `ignored` files under node_modules/ and
// target/, which a .gitignore ignores.
func tree(b *testing.B, kept, ignored int) string {
	b.Helper()
	name := fmt.Sprintf("%d-%d", kept, ignored)
	v, _ := benchOnce.LoadOrStore(name, &benchTree{})
	bt := v.(*benchTree)
	bt.once.Do(func() {
		if benchRoot == "" {
			if benchRoot, bt.err = os.MkdirTemp("", "ignore-bench-"); bt.err != nil {
				return
			}
		}
		bt.dir = filepath.Join(benchRoot, name)
		if bt.err = makeTree(filepath.Join(bt.dir, "src"), kept); bt.err != nil {
			return
		}
		if bt.err = makeTree(filepath.Join(bt.dir, "node_modules"), ignored/2); bt.err != nil {
			return
		}
		if bt.err = makeTree(filepath.Join(bt.dir, "target"), ignored-ignored/2); bt.err != nil {
			return
		}
		bt.err = os.WriteFile(filepath.Join(bt.dir, ".gitignore"),
			[]byte("# build output\nnode_modules/\n/target\n*.o\n*.log\n.DS_Store\n**/coverage/\n*.swp\n"), 0o644)
	})
	if bt.err != nil {
		b.Fatal(bt.err)
	}
	return bt.dir
}

func benchWalk(b *testing.B, kept, ignored int, stat bool) {
	dir := tree(b, kept, ignored)
	b.ResetTimer()
	for b.Loop() {
		m, err := ForDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		err = m.Walk("", func(rel string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if stat {
				if _, err := d.Info(); err != nil {
					return err
				}
			}
			n++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if n < kept {
			b.Fatalf("walked %d entries, want at least %d", n, kept)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/walk")
}

// The walk of a 100,000-file tree of which 90,000 files sit in ignored directories costs what the
// 10,000 others cost: ignored directories are never read.
func BenchmarkWalk(b *testing.B) {
	b.Run("10k", func(b *testing.B) { benchWalk(b, 10_000, 0, false) })
	b.Run("10k+90k-ignored", func(b *testing.B) { benchWalk(b, 10_000, 90_000, false) })
	b.Run("100k", func(b *testing.B) { benchWalk(b, 100_000, 0, false) })
	b.Run("100k-lstat", func(b *testing.B) { benchWalk(b, 100_000, 0, true) })
}

func BenchmarkMatch(b *testing.B) {
	dir := tree(b, 10_000, 0)
	m, err := ForDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	paths := []string{"src/pkg0/dir1/dir2/file03.go", "node_modules/x/y", "src/pkg0/a.log", "src/pkg0/dir0/keep.tmp"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.Match(paths[i%len(paths)], false)
	}
}
