package checkpoint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// indexState is what an index says about every path, without timestamps.
func indexState(idx *index) map[string]string {
	out := map[string]string{}
	for p, e := range idx.entries {
		s := e.state()
		out[p] = fmt.Sprintf("%o %s %q %v", s.Mode, s.ID, s.Link, s.Skipped)
	}
	return out
}

// Snapshots helped by the watch must see exactly what a full walk sees, whatever commands do: random
// file and directory operations, compared after each round with a fresh full walk.
func TestWatchedSnapshotsMatchFullWalks(t *testing.T) {
	isolateHome(t)
	root := t.TempDir()
	sh(t, root, "mkdir -p a/b/c d e && echo 1 > a/x && echo 2 > a/b/y && echo 3 > d/z && echo '*.log' > .gitignore")
	watched := newTree(t, root)
	if _, _, err := watched.snapshot(); err != nil {
		t.Fatal(err)
	}
	if watched.watch == nil {
		t.Skip("inotify is not available here")
	}
	seed, rounds := uint64(7), 40
	if v, err := strconv.Atoi(os.Getenv("WATCH_ROUNDS")); err == nil {
		seed, rounds = uint64(time.Now().UnixNano()), v
		t.Logf("seed %d", seed)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	dirs := []string{".", "a", "a/b", "a/b/c", "d", "e", "n", "a/n"}
	names := []string{"f", "g", "h.log", "sub"}
	ops := []func(d, n string) string{
		func(d, n string) string { return fmt.Sprintf("mkdir -p %s && echo %d > %s/%s", d, rng.IntN(100), d, n) },
		func(d, n string) string { return fmt.Sprintf("rm -rf %s/%s", d, n) },
		func(d, n string) string {
			return fmt.Sprintf("mkdir -p %s/%s/deep && echo x > %s/%s/deep/f", d, n, d, n)
		},
		func(d, n string) string {
			return fmt.Sprintf("[ -e %s ] && chmod %o %s || true", d+"/"+n, 0o600+rng.IntN(2)*0o100, d+"/"+n)
		},
		func(d, n string) string {
			return fmt.Sprintf("[ -e %s/%s ] && mv %s/%s %s/moved-%s || true", d, n, d, n, d, n)
		},
		func(d, n string) string { return fmt.Sprintf("mkdir -p %s && ln -sfn ../x %s/%s", d, d, n) },
		func(d, n string) string { return fmt.Sprintf("rm -rf %s && mkdir -p %s && echo r > %s/f", d, d, d) },
		func(d, n string) string { return fmt.Sprintf("mkdir -p %s && echo log > %s/%s.log", d, d, n) },
	}
	for round := range rounds {
		var script []string
		for range 1 + rng.IntN(4) {
			script = append(script, ops[rng.IntN(len(ops))](dirs[rng.IntN(len(dirs))], names[rng.IntN(len(names))]))
		}
		// Never remove the workspace itself.
		// A step may fail (a name taken by a file where a directory is wanted): the others go on.
		cmd := strings.ReplaceAll(strings.Join(script, "; "), "rm -rf . ", "true ") + "; true"
		sh(t, root, cmd)
		if _, _, err := watched.snapshot(); err != nil {
			t.Fatal(err)
		}
		fresh := &tree{root: root, store: watched.store, loaded: newIndex(), maxSize: watched.maxSize, noWatch: true}
		if _, _, err := fresh.snapshot(); err != nil {
			t.Fatal(err)
		}
		got, want := indexState(watched.index()), indexState(fresh.index())
		for p, w := range want {
			if got[p] != w {
				t.Errorf("round %d (%s): %s is %q, a full walk says %q", round, cmd, p, got[p], w)
			}
		}
		for p, g := range got {
			if _, ok := want[p]; !ok {
				t.Errorf("round %d (%s): %s is %q, a full walk does not have it", round, cmd, p, g)
			}
		}
		if t.Failed() {
			return
		}
	}
	if watched.full != 1 {
		// Only .gitignore changes force a full walk, and the rounds make none.
		t.Errorf("%d full walks, want 1", watched.full)
	}
}

// An ignore file that changes makes the next snapshot walk the whole tree.
func TestIgnoreFileChangeForcesAFullWalk(t *testing.T) {
	isolateHome(t)
	root := t.TempDir()
	sh(t, root, "mkdir -p build && echo x > build/out && echo src > main.go")
	tr := newTree(t, root)
	if _, _, err := tr.snapshot(); err != nil {
		t.Fatal(err)
	}
	if tr.watch == nil {
		t.Skip("inotify is not available here")
	}
	sh(t, root, "echo 'build/' > .gitignore")
	changes, _, err := tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got := changeLines(changes); got != "A .gitignore (+1 −0)" && got != "A .gitignore" {
		t.Errorf("changes: %q (build/ became ignored: it is not deleted)", got)
	}
	if tr.full != 2 {
		t.Errorf("%d full walks, want 2", tr.full)
	}
	// Within the session, what was followed stays followed, as git keeps tracking a tracked file:
	// what is new in build/ is ignored, what was there is not.
	sh(t, root, "echo y > build/new && echo z > build/out")
	changes, _, err = tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got := changeLines(changes); got != "M build/out" {
		t.Errorf("changes in a directory that became ignored: %q, want build/out modified and build/new ignored", got)
	}
	// A session that starts afresh follows the rules to the letter.
	fresh := &tree{root: root, store: tr.store, loaded: tr.index(), maxSize: tr.maxSize}
	if _, _, err := fresh.snapshot(); err != nil {
		t.Fatal(err)
	}
	if _, ok := fresh.index().entries["build/out"]; ok {
		t.Error("an ignored file is still followed by a new session")
	}
}
