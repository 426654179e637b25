package checkpoint

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/gitrepo"
)

// gitWorkspace makes a git work tree from script (run in it after git init) and commits what it holds.
func gitWorkspace(t *testing.T, script string) string {
	t.Helper()
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "git init -q . && "+script+" && git -c user.name=t -c user.email=t@t commit -qm start")
	return ws
}

// eachWalk runs f with snapshots helped by the watch, and with full stat walks every time (as where
// inotify is missing).
func eachWalk(t *testing.T, ws string, f func(t *testing.T, c *Checkpoints)) {
	t.Run("watched", func(t *testing.T) {
		f(t, openTest(t, ws))
	})
	t.Run("walked", func(t *testing.T) {
		c := openTest(t, ws)
		if c.tree.watch != nil {
			c.tree.watch.close()
		}
		c.tree.watch, c.tree.noWatch = nil, true
		f(t, c)
	})
}

func wantFile(t *testing.T, ws, path, want string) {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(ws, path)); err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", path, b, err, want)
	}
}

// A tracked file is in the snapshots whatever .gitignore says, as git itself does not count a tracked file
// as ignored: changing, deleting and making it again are recorded, and undone. An untracked file the same
// rule matches is still left out.
func TestATrackedFileIsFollowedThoughIgnored(t *testing.T) {
	ws := gitWorkspace(t, "echo '*.log' > .gitignore && echo kept > keep.log && git add -f keep.log && git add .gitignore && echo scratch > other.log")
	eachWalk(t, ws, func(t *testing.T, c *Checkpoints) {
		var since []Recorded
		for _, step := range []struct{ script, want string }{
			{"echo changed > keep.log && echo more > other.log", "M keep.log (+1 −1)"},
			{"rm keep.log", "D keep.log (+0 −1)"},
			{"echo again > keep.log", "A keep.log (+1 −0)"},
		} {
			changes := call(t, c, ws, step.script)
			if got := changeLines(changes); got != step.want {
				t.Errorf("%s: changes\n%s\nwant\n%s", step.script, got, step.want)
			}
			since = append(since, Recorded{Changes: changes})
		}
		restoreTo(t, c, since, false)
		wantFile(t, ws, "keep.log", "kept\n")
		wantFile(t, ws, "other.log", "more\n")
		sh(t, ws, "echo scratch > other.log")
	})
}

// Inside an ignored directory the tracked paths are followed, however deep, and nothing else there is:
// the directory is not even listed.
func TestATrackedFileInAnIgnoredDirectoryIsFollowed(t *testing.T) {
	ws := gitWorkspace(t, `printf 'build/\n' > .gitignore && mkdir -p build/deep/dir build/cache &&
		echo kept > build/keep.txt && echo gen > build/deep/dir/gen.txt && echo junk > build/junk.o && echo c > build/cache/c &&
		git add .gitignore && git add -f build/keep.txt build/deep/dir/gen.txt`)
	eachWalk(t, ws, func(t *testing.T, c *Checkpoints) {
		idx := c.tree.index()
		for p := range idx.entries {
			if strings.Contains(p, "junk") || strings.Contains(p, "cache") {
				t.Errorf("%s, untracked in an ignored directory, is followed", p)
			}
		}
		if e := idx.entries["build"]; e == nil || e.list != nil {
			t.Errorf("the ignored directory build is not followed, or was listed: %+v", e)
		}
		var since []Recorded
		for _, step := range []struct{ script, want string }{
			{"echo evil > build/keep.txt && echo more > build/junk2.o && echo c2 > build/cache/c", "M build/keep.txt (+1 −1)"},
			{"rm -r build/deep", "D build/deep/\nD build/deep/dir/\nD build/deep/dir/gen.txt (+0 −1)"},
			{"rm -r build", "D build/\nD build/keep.txt (+0 −1)"},
		} {
			changes := call(t, c, ws, step.script)
			if got := changeLines(changes); got != step.want {
				t.Errorf("%s: changes\n%s\nwant\n%s", step.script, got, step.want)
			}
			since = append(since, Recorded{Changes: changes})
		}
		restoreTo(t, c, since, false)
		wantFile(t, ws, "build/keep.txt", "kept\n")
		wantFile(t, ws, "build/deep/dir/gen.txt", "gen\n")
		sh(t, ws, "mkdir -p build/cache && echo junk > build/junk.o && echo c > build/cache/c")
	})
}

// A file a command starts tracking (git add -f) is followed from then on, though it was ignored when the
// call began: it was there before, so it is not the call's, even when the command touched it, and an undo
// must not remove it; a file the call made and tracked is. One a command stops tracking (git rm --cached)
// is still followed for the rest of the session, so that untracking cannot hide what a call does to it.
func TestAFileTrackedByACommandIsFollowedFromThen(t *testing.T) {
	ws := gitWorkspace(t, `printf '*.log\nout/\ngen/\n' > .gitignore && echo kept > keep.log && echo debug > debug.log &&
		mkdir out && echo old > out/old.txt && git add .gitignore && git add -f keep.log`)
	eachWalk(t, ws, func(t *testing.T, c *Checkpoints) {
		var since []Recorded
		for _, step := range []struct{ script, want string }{
			{"touch debug.log out/old.txt && git add -f debug.log out/old.txt && git rm -q --cached keep.log", ""},
			{"echo changed > debug.log && echo evil > keep.log && echo new > out/old.txt", "M debug.log (+1 −1)\nM keep.log (+1 −1)\nM out/old.txt (+1 −1)"},
			{"mkdir -p gen/made && echo made > gen/made/new.txt && git add -f gen/made/new.txt", "A gen/\nA gen/made/\nA gen/made/new.txt (+1 −0)"},
		} {
			changes := call(t, c, ws, step.script)
			if got := changeLines(changes); got != step.want {
				t.Errorf("%s: changes\n%s\nwant\n%s", step.script, got, step.want)
			}
			since = append(since, Recorded{Changes: changes})
		}
		restoreTo(t, c, since, false)
		wantFile(t, ws, "debug.log", "debug\n")
		wantFile(t, ws, "keep.log", "kept\n")
		wantFile(t, ws, "out/old.txt", "old\n")
		if _, err := os.Lstat(filepath.Join(ws, "gen")); !os.IsNotExist(err) {
			t.Errorf("the directory the call made is still there: %v", err)
		}
		sh(t, ws, "git reset -q && git add -f keep.log")
	})
}

// A directory entered only for the tracked files in it holds others, never looked at: when a command takes
// away the rule that ignored it, they appear, but they were there all along, and an undo must not remove
// them.
func TestUnignoringADirectoryEnteredForTrackedFilesKeepsTheRest(t *testing.T) {
	ws := gitWorkspace(t, `printf 'build/\n' > .gitignore && mkdir -p build/cache && echo kept > build/keep.txt &&
		echo big > build/big.bin && echo c > build/cache/c && git add .gitignore && git add -f build/keep.txt`)
	eachWalk(t, ws, func(t *testing.T, c *Checkpoints) {
		changes := call(t, c, ws, "echo > .gitignore && echo evil > build/keep.txt")
		if got := changeLines(changes); got != "M .gitignore (+1 −1)\nM build/keep.txt (+1 −1)" {
			t.Errorf("changes:\n%s", got)
		}
		restoreTo(t, c, []Recorded{{Changes: changes}}, false)
		wantFile(t, ws, "build/keep.txt", "kept\n")
		wantFile(t, ws, "build/big.bin", "big\n")
		wantFile(t, ws, "build/cache/c", "c\n")
	})
}

// A workspace a command makes a git repository (git init) follows its index from then on.
func TestAWorkspaceMadeARepositoryFollowsItsIndex(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "echo '*.log' > .gitignore && echo kept > keep.log")
	eachWalk(t, ws, func(t *testing.T, c *Checkpoints) {
		if got := changeLines(call(t, c, ws, "git init -q . && git add -f keep.log")); got != "" {
			t.Errorf("git init and add: changes\n%s", got)
		}
		changes := call(t, c, ws, "echo evil > keep.log")
		if got := changeLines(changes); got != "M keep.log (+1 −1)" {
			t.Errorf("a change to the file git init and add tracked: %q", got)
		}
		restoreTo(t, c, []Recorded{{Changes: changes}}, false)
		wantFile(t, ws, "keep.log", "kept\n")
		sh(t, ws, "rm -rf .git")
	})
}

// writeGitIndex writes an index (version 2) listing paths as empty files, whatever they are: git itself
// refuses to write most of these.
func writeGitIndex(t *testing.T, gitDir string, paths []string) {
	t.Helper()
	paths = slices.Sorted(slices.Values(paths))
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(paths)))
	empty := sha1.Sum([]byte("blob 0\x00"))
	for _, p := range paths {
		start := b.Len()
		b.Write(make([]byte, 24)) // times, device, inode
		binary.Write(&b, binary.BigEndian, uint32(0o100644))
		b.Write(make([]byte, 12)) // owner, group, size
		b.Write(empty[:])
		binary.Write(&b, binary.BigEndian, uint16(min(len(p), 0xfff)))
		b.WriteString(p)
		b.Write(make([]byte, 8-(b.Len()-start)%8))
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	if err := os.WriteFile(filepath.Join(gitDir, "index"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An index entry that climbs out of the workspace (../x, an absolute path, a path through a link, one
// inside .git) is never followed: nothing outside is read into the store, reported or restored, while the
// index's plain entries are followed as the tracked files they are.
func TestAnIndexEntryThatClimbsOutIsNeverFollowed(t *testing.T) {
	isolateHome(t)
	parent := t.TempDir()
	ws := filepath.Join(parent, "ws")
	secret := filepath.Join(parent, "secret.txt")
	sh(t, parent, `mkdir -p ws outside && echo SECRET > secret.txt && echo SECRET > outside/secret.txt && cd ws && git init -q . &&
		printf 'build/\nlink\nsub/\n' > .gitignore && mkdir -p build sub && echo kept > build/keep.txt && ln -s ../outside link`)
	writeGitIndex(t, filepath.Join(ws, ".git"), []string{
		".gitignore", "build/keep.txt",
		"../secret.txt", "build/../../secret.txt", "sub/../../secret.txt", "build//../../secret.txt", secret,
		"link/secret.txt", ".git/config", ".GIT/config", "build/.git/config",
	})
	c := openTest(t, ws)
	for p := range c.tree.index().entries {
		if plainRel(p) != nil || strings.HasPrefix(p, "link/") || strings.Contains(strings.ToLower(p), ".git/") {
			t.Errorf("%q is followed", p)
		}
	}
	if _, ok := c.tree.index().entries["build/keep.txt"]; !ok {
		t.Errorf("the tracked build/keep.txt is not followed")
	}
	changes := call(t, c, ws, "echo evil > build/keep.txt && echo changed > ../secret.txt && echo changed > ../outside/secret.txt")
	if got := changeLines(changes); got != "M build/keep.txt (+1 −1)" {
		t.Errorf("changes:\n%s", got)
	}
	for _, content := range []string{"SECRET\n", "changed\n"} {
		if c.tree.store.has(blobID([]byte(content))) {
			t.Errorf("the store holds %q, read from outside the workspace", content)
		}
	}
	restoreTo(t, c, []Recorded{{Changes: changes}}, false)
	wantFile(t, ws, "build/keep.txt", "kept\n")

	// A restore refuses such paths too, whatever a record says.
	target := map[string]*State{}
	for _, p := range []string{"../secret.txt", secret, "link/secret.txt"} {
		target[p] = changes[0].Old
	}
	plan, _, err := c.PlanRestore(target, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Apply(plan, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Done) != 0 {
		t.Errorf("a restore wrote %v", r.Done)
	}
	wantFile(t, parent, "secret.txt", "changed\n")
	wantFile(t, parent, "outside/secret.txt", "changed\n")
}

// Snapshots helped by the watch see what full walks see in a git work tree whose index commands change:
// random file and directory operations, git add -f and git rm --cached, inside ignored directories and
// out, compared after each round with a tree that walks everything every time.
func TestWatchedSnapshotsFollowTheIndexLikeFullWalks(t *testing.T) {
	isolateHome(t)
	root := t.TempDir()
	sh(t, root, `git init -q . && printf 'ign/\n*.log\n' > .gitignore && mkdir -p a/ign ign/sub &&
		echo 1 > ign/t1 && echo 2 > ign/sub/t2 && echo 3 > x.log && echo 4 > ign/junk && echo 5 > a/f &&
		git add -A && git add -f ign/t1 ign/sub/t2 x.log`)
	newTracked := func(noWatch bool) *tree {
		tr := newTree(t, root)
		git := gitrepo.NewReader()
		tr.noWatch, tr.git, tr.tracked = noWatch, git, newTracker(git, root, findWorkTree(git, root))
		return tr
	}
	watched, walked := newTracked(false), newTracked(true)
	for _, tr := range []*tree{watched, walked} {
		if _, _, err := tr.snapshot(); err != nil {
			t.Fatal(err)
		}
	}
	if watched.watch == nil {
		t.Skip("inotify is not available here")
	}
	if _, ok := watched.index().entries["ign/sub/t2"]; !ok {
		t.Fatal("a tracked file in an ignored directory is not followed")
	}
	seed, rounds := uint64(5), 60
	if v, err := strconv.Atoi(os.Getenv("WATCH_ROUNDS")); err == nil {
		seed, rounds = uint64(time.Now().UnixNano()), v
		if s, err := strconv.ParseUint(os.Getenv("WATCH_SEED"), 10, 64); err == nil {
			seed = s
		}
		t.Logf("seed %d", seed)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	dirs := []string{".", "a", "ign", "ign/sub", "a/ign", "ign/new"}
	names := []string{"f", "t1", "g.log", "sub"}
	ops := []func(p string) string{
		func(p string) string {
			return fmt.Sprintf("mkdir -p $(dirname %s) && echo %d > %s", p, rng.IntN(100), p)
		},
		func(p string) string { return "rm -rf " + p },
		func(p string) string { return "git add -f " + p },
		func(p string) string { return "git add -f " + p },
		func(p string) string { return "git rm -rq --cached " + p },
		func(p string) string {
			return fmt.Sprintf("mkdir -p %s/deep && echo x > %s/deep/f && git add -f %s/deep/f", p, p, p)
		},
		func(p string) string { return fmt.Sprintf("mv %s %s-moved", p, p) },
	}
	for round := range rounds {
		var script []string
		for range 1 + rng.IntN(3) {
			script = append(script, ops[rng.IntN(len(ops))](dirs[rng.IntN(len(dirs))]+"/"+names[rng.IntN(len(names))]))
		}
		// A step may fail (a path that is not there): the others go on.
		cmd := strings.Join(script, " 2>/dev/null; ") + " 2>/dev/null; true"
		sh(t, root, cmd)
		// What a last snapshot did not look at is judged new by its change time against when that
		// snapshot began: both trees judge by the same moment.
		walked.lastStart = watched.lastStart
		w, _, err := watched.snapshot()
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := walked.snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if changeLines(w) != changeLines(f) {
			t.Errorf("round %d (%s): the watched snapshot says\n%s\na full walk says\n%s", round, cmd, changeLines(w), changeLines(f))
		}
		got, want := indexState(watched.index()), indexState(walked.index())
		for p, v := range want {
			if got[p] != v {
				t.Errorf("round %d (%s): %s is %q, a full walk says %q", round, cmd, p, got[p], v)
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
		t.Errorf("%d full walks, want 1", watched.full)
	}
}

// An index that lists more paths below an ignored directory than a workspace may hold is bounded like a
// tree that big: checkpoints go off and say why, rather than every snapshot looking at each path.
func TestAHugeIndexIsBoundedLikeAHugeTree(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "git init -q . && echo 'build/' > .gitignore && mkdir build && echo kept > build/f0000000")
	paths := make([]string, walkLimit+1)
	for i := range paths {
		paths[i] = fmt.Sprintf("build/f%07d", i)
	}
	writeGitIndex(t, filepath.Join(ws, ".git"), paths)
	c, err := Open(Options{Dir: t.TempDir(), Workspace: ws, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Off(); err == nil || !strings.Contains(err.Error(), "more than 400000 files") {
		t.Errorf("checkpoints with an index of %d paths: %v", len(paths), err)
	}
}
