package files

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

// The search benchmarks run glob and grep over a work tree of about 10,000 files (most tracked, some
// untracked, some ignored) and compare each with a program that does the same listing or search in the
// same run, alternating the two so that a busy machine slows both alike: glob with `git ls-files -co
// --exclude-standard` (the listing both tools start from), grep with rg searching the tree itself.

// searchTree writes files files of a few lines under dir, 20 to a directory, 10 directories to a level, three levels, an
// ignored build/ directory of 500 more, commits nine in ten and leaves the rest untracked.
func searchTree(b *testing.B, h *fileHarness, files int) {
	b.Helper()
	n := 0
	var fill func(rel string, depth int)
	fill = func(rel string, depth int) {
		for i := 0; i < 20 && n < files; i++ {
			body := fmt.Sprintf("package p%d\n\nfunc f%d() int { return %d }\n", n, n, n)
			if n%200 == 0 {
				body += "// needle: a line grep finds\n"
			}
			h.write(fmt.Sprintf("%s/file%02d.go", rel, i), body)
			n++
		}
		for i := 0; i < 10 && n < files && depth < 2; i++ {
			fill(fmt.Sprintf("%s/dir%d", rel, i), depth+1)
		}
	}
	for i := 0; n < files; i++ {
		fill(fmt.Sprintf("pkg%d", i), 0)
	}
	h.write(".gitignore", "build/\n*.tmp\n")
	for i := range 500 {
		h.write(fmt.Sprintf("build/gen/out%03d.go", i), "// needle in an ignored file\n")
	}
	h.git("init", "-q")
	h.git("add", ".")
	// Untrack one file in ten (each pkg0/dirN holds 222): they stay on disk and are listed as untracked.
	var untrack []string
	for i := range 5 {
		untrack = append(untrack, fmt.Sprintf("pkg0/dir%d", i))
	}
	h.git(append([]string{"rm", "-rq", "--cached"}, untrack...)...)
}

func timed(b *testing.B, f func()) time.Duration {
	b.Helper()
	start := time.Now()
	f()
	return time.Since(start)
}

func BenchmarkSearch10k(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	h := newFileHarness(b)
	searchTree(b, h, 10_000)
	ctx := context.Background()
	run := func(tool string, args map[string]any) string {
		res := h.tools[tool].Run(ctx, h.env, tools.Call{ID: "bench", Input: h.input(args)})
		if res.IsError {
			b.Fatalf("%s: %s", tool, res.Output)
		}
		return res.Output
	}
	program := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = h.ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.Output()
		if err != nil && !(name == "rg" && len(out) > 0) {
			b.Fatalf("%s: %v", name, err)
		}
	}
	if got := run("glob", map[string]any{"pattern": "**/*.go"}); !strings.Contains(got, "10,000 files") {
		b.Fatalf("glob does not list the tree: %s", got[strings.LastIndexByte(got[:len(got)-1], '\n')+1:])
	}
	if got := run("grep", map[string]any{"pattern": "needle"}); !strings.Contains(got, "(50 matches in 50 files)") {
		b.Fatalf("grep does not search the tree: %s", got[strings.LastIndexByte(got[:len(got)-1], '\n')+1:])
	}
	rg, rgErr := exec.LookPath("rg")

	b.Run("glob", func(b *testing.B) {
		var base, ours time.Duration
		for range b.N {
			base += timed(b, func() { program("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard") })
			ours += timed(b, func() { run("glob", map[string]any{"pattern": "**/*.go"}) })
		}
		b.ReportMetric(float64(ours.Microseconds())/1000/float64(b.N), "glob-ms")
		b.ReportMetric(float64(base.Microseconds())/1000/float64(b.N), "git-ls-files-ms")
		b.ReportMetric(float64(ours)/float64(base), "ratio")
	})
	b.Run("grep", func(b *testing.B) {
		if rgErr != nil {
			b.Skip("rg is not installed: grep has no baseline")
		}
		var base, ours time.Duration
		for range b.N {
			base += timed(b, func() { program(rg, "--no-config", "-e", "needle", ".") })
			ours += timed(b, func() { run("grep", map[string]any{"pattern": "needle"}) })
		}
		b.ReportMetric(float64(ours.Microseconds())/1000/float64(b.N), "grep-ms")
		b.ReportMetric(float64(base.Microseconds())/1000/float64(b.N), "rg-ms")
		b.ReportMetric(float64(ours)/float64(base), "ratio")
	})
}
