package checkpoint

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// describe lists every path below dir with its type, mode and content, so that two moments of a tree can
// be compared byte for byte. With skipGit, .git is left out.
func describe(t *testing.T, dir string, skipGit bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if skipGit && d.Name() == ".git" {
			return filepath.SkipDir
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
		case info.IsDir():
			out[rel] = "dir " + info.Mode().Perm().String()
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file %s %x", info.Mode().Perm(), sha256.Sum256(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffTrees(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, fmt.Sprintf("%s: %q then %q", k, v, b[k]))
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			out = append(out, fmt.Sprintf("%s: absent then %q", k, v))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func openTest(t *testing.T, ws string) *Checkpoints {
	t.Helper()
	c, err := Open(Options{Dir: filepath.Join(t.TempDir(), "checkpoints"), Workspace: ws, Session: "s1", MaxFileSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Off(); err != nil {
		t.Fatal(err)
	}
	return c
}

// call runs a real bash command as a checkpointed call and returns its changes.
func call(t *testing.T, c *Checkpoints, ws, script string) []Change {
	t.Helper()
	w, outside := c.Before()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = ws
	out, runErr := cmd.CombinedOutput()
	changes, err := w.After("", nil)
	if len(outside) > 0 {
		t.Fatalf("unexpected outside changes before %q: %s", script, changeLines(outside))
	}
	if runErr != nil {
		t.Fatalf("%s: %v\n%s", script, runErr, out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

func restoreTo(t *testing.T, c *Checkpoints, since []Recorded, includeOutside bool) *Restored {
	t.Helper()
	target, outside := Target(since)
	plan, found, err := c.PlanRestore(target, outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Fatalf("the plan found outside changes: %s", changeLines(found))
	}
	r, err := c.Apply(plan, includeOutside)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func forEachWorkspace(t *testing.T, f func(t *testing.T, ws string)) {
	t.Run("git repository", func(t *testing.T) {
		isolateHome(t)
		ws := t.TempDir()
		sh(t, ws, "git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init")
		f(t, ws)
	})
	t.Run("plain directory", func(t *testing.T) {
		isolateHome(t)
		f(t, t.TempDir())
	})
}

func TestUndoRestoresByteForByte(t *testing.T) {
	forEachWorkspace(t, func(t *testing.T, ws string) {
		sh(t, ws, `mkdir -p src docs && printf 'one\ntwo\nthree\n' > src/a.go && printf 'keep\n' > docs/readme.md &&
			printf '#!/bin/sh\necho hi\n' > run.sh && chmod 755 run.sh && ln -s src/a.go link && echo '*.log' > .gitignore &&
			echo ignored > build.log && printf 'bin\x00ary' > blob.bin`)
		if _, err := os.Stat(filepath.Join(ws, ".git")); err == nil {
			sh(t, ws, "git add -A && git -c user.name=t -c user.email=t@t commit -qm files")
		}
		var gitBefore map[string]string
		isRepo := false
		if _, err := os.Stat(filepath.Join(ws, ".git")); err == nil {
			isRepo = true
			gitBefore = describe(t, filepath.Join(ws, ".git"), false)
		}
		c := openTest(t, ws)
		before := describe(t, ws, true)

		var since []Recorded
		changes := call(t, c, ws, `printf 'one\nTWO\nthree\nfour\n' > src/a.go && rm docs/readme.md && mv run.sh start.sh &&
			chmod 600 src/a.go && ln -sfn docs link && mkdir -p new/deep && echo created > new/deep/file && echo more >> build.log &&
			printf 'bin\x00ARY' > blob.bin`)
		since = append(since, Recorded{Changes: changes})
		got := changeLines(changes)
		for _, want := range []string{"M src/a.go (+2 −1)", "D docs/readme.md (+0 −1)", "D run.sh", "A start.sh", "L link → docs",
			"A new/deep/file (+1 −0)", "M blob.bin (binary)"} {
			if !strings.Contains(got, want) {
				t.Errorf("changes lack %q:\n%s", want, got)
			}
		}
		if strings.Contains(got, "build.log") {
			t.Errorf("an ignored file was reported:\n%s", got)
		}
		if s := Summary(changes); !strings.HasPrefix(s, "changed ") {
			t.Errorf("summary %q", s)
		}
		changes = call(t, c, ws, "echo again >> src/a.go && rmdir docs && touch docs.txt")
		since = append(since, Recorded{Changes: changes})

		r := restoreTo(t, c, since, false)
		if len(r.Skipped) > 0 {
			t.Errorf("skipped: %v", r.Skipped)
		}
		after := describe(t, ws, true)
		// build.log is ignored: it keeps the line the call added.
		delete(before, "build.log")
		delete(after, "build.log")
		if d := diffTrees(before, after); d != "" {
			t.Errorf("the tree differs after undo:\n%s", d)
		}
		if isRepo {
			if d := diffTrees(gitBefore, describe(t, filepath.Join(ws, ".git"), false)); d != "" {
				t.Errorf(".git changed:\n%s", d)
			}
		}
	})
}

// A change made outside Warden between calls is reported as such at the next snapshot, is not folded
// into the call, and is restored only when asked for separately.
func TestOutsideChangesAreSetApart(t *testing.T) {
	forEachWorkspace(t, func(t *testing.T, ws string) {
		sh(t, ws, "echo a > a.txt && echo b > b.txt")
		c := openTest(t, ws)
		var since []Recorded
		since = append(since, Recorded{Changes: call(t, c, ws, "echo a2 >> a.txt")})
		sh(t, ws, "echo mine >> b.txt && echo mine >> a.txt")
		w, outside := c.Before()
		if got := changeLines(outside); got != "M a.txt (+1 −0)\nM b.txt (+1 −0)" {
			t.Fatalf("outside changes: %q", got)
		}
		since = append(since, Recorded{Outside: true, Changes: outside})
		sh(t, ws, "echo c > c.txt")
		changes, err := w.After("", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := changeLines(changes); got != "A c.txt (+1 −0)" {
			t.Fatalf("the call's changes include others: %q", got)
		}
		since = append(since, Recorded{Changes: changes})

		target, out := Target(since)
		plan, _, err := c.PlanRestore(target, out)
		if err != nil {
			t.Fatal(err)
		}
		var outsideSteps []string
		for _, s := range plan.Outside() {
			outsideSteps = append(outsideSteps, s.String())
		}
		if got := strings.Join(outsideSteps, ", "); got != "restore a.txt, restore b.txt" {
			t.Errorf("steps changed outside: %q", got)
		}
		if _, err := c.Apply(plan, false); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "b.txt")); string(b) != "b\nmine\n" {
			t.Errorf("b.txt, changed outside, was overwritten without being asked: %q", b)
		}
		if _, err := os.Lstat(filepath.Join(ws, "c.txt")); !os.IsNotExist(err) {
			t.Errorf("c.txt, created by the undone call, is still there")
		}
	})
}

// A background task's changes made after its call returned are given to it when it ends.
func TestBackgroundTaskChangesGoToTheTask(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	c := openTest(t, ws)
	w, _ := c.Before()
	// The task says through a pipe when it has written its first file, and waits for the pipe's end to
	// close before the second.
	cmd := exec.Command("bash", "-c", "echo early > early.txt; echo ready; read _; echo late > late.txt")
	cmd.Dir = ws
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdout.Read(make([]byte, 6)); err != nil {
		t.Fatal(err)
	}
	var taskChanges []Change
	var taskLater []Change
	first, err := w.After("task-1", func(_ string, all, later []Change) { taskChanges, taskLater = all, later })
	if err != nil {
		t.Fatal(err)
	}
	if got := changeLines(first); got != "A early.txt (+1 −0)" {
		t.Errorf("the call's own changes: %q", got)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	callChanges := call(t, c, ws, "echo other > other.txt")
	if !strings.Contains(changeLines(callChanges), "other.txt") {
		t.Errorf("the next call's changes: %q", changeLines(callChanges))
	}
	if !c.TaskEnded("task-1") {
		t.Fatal("the task was not known")
	}
	if got := changeLines(taskChanges); got != "A early.txt (+1 −0)\nA late.txt (+1 −0)" {
		t.Errorf("the task's changes: %q", got)
	}
	if got := changeLines(taskLater); got != "A late.txt (+1 −0)" {
		t.Errorf("the task's changes after its call returned: %q", got)
	}
}

// Restoring never writes through a link out of the workspace, even one a call put where a directory was.
func TestRestoreDoesNotFollowLinksOut(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	outside := t.TempDir()
	sh(t, ws, "mkdir dir && echo keep > dir/f")
	c := openTest(t, ws)
	changes := call(t, c, ws, fmt.Sprintf("rm -r dir && ln -s %s dir", outside))
	r := restoreTo(t, c, []Recorded{{Changes: changes}}, false)
	if len(r.Skipped) > 0 {
		t.Fatalf("skipped: %v", r.Skipped)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the restore wrote outside the workspace: %v", entries)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "dir", "f")); err != nil || string(b) != "keep\n" {
		t.Errorf("dir/f = %q, %v", b, err)
	}
	for _, bad := range []string{"../x", "/etc/passwd", ".git/config", "a/../../x", "a/.git/HEAD", ".GIT/config", "a/.Git/hooks/x", "GIT~1/config", ".git"} {
		if checkRel(bad) == nil {
			t.Errorf("checkRel(%q) accepted it", bad)
		}
	}
}

// A file over the size cap is noted, never silently dropped, and said to be unrestorable.
func TestFilesOverTheCapAreNoted(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "head -c 2000000 /dev/zero > big.bin")
	c := openTest(t, ws)
	changes := call(t, c, ws, "head -c 2000001 /dev/zero > big.bin")
	if got := changeLines(changes); !strings.Contains(got, "big.bin") || !strings.Contains(got, "over the size cap") {
		t.Fatalf("changes: %q", got)
	}
	target, outside := Target([]Recorded{{Changes: changes}})
	plan, _, err := c.PlanRestore(target, outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Problems()) != 1 || !strings.Contains(plan.Problems()[0].Problem, "size cap") {
		t.Errorf("plan: %+v", plan.Steps)
	}

	// A small file a command replaced with one over the cap is put back: the big one was not saved,
	// but the small one was.
	sh(t, ws, "echo small > data.json")
	c.Settle()
	changes = call(t, c, ws, "head -c 2000000 /dev/zero > data.json")
	r := restoreTo(t, c, []Recorded{{Changes: changes}}, false)
	if len(r.Skipped) > 0 {
		t.Errorf("skipped: %v", r.Skipped)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "data.json")); err != nil || string(b) != "small\n" {
		t.Errorf("data.json after undo: %d bytes, %v", len(b), err)
	}
}

// What one session saved is found by the next: the index and the content last across processes.
func TestCheckpointsLastAcrossOpen(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "echo one > a.txt")
	dir := filepath.Join(t.TempDir(), "checkpoints")
	c, err := Open(Options{Dir: dir, Workspace: ws, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	changes := call(t, c, ws, "echo two > a.txt")
	c.Close()

	c2, err := Open(Options{Dir: dir, Workspace: ws, Session: "s1", SessionExists: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	r := restoreTo(t, c2, []Recorded{{Changes: changes}}, false)
	if len(r.Done) != 1 {
		t.Fatalf("restored %v, skipped %v", r.Done, r.Skipped)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\n" {
		t.Errorf("a.txt = %q", b)
	}
}

func countObjects(t *testing.T, c *Checkpoints) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(c.dir, "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// Files git already holds are not copied by the first snapshot; once changed, their old content is
// copied, so an undo works even after the person's git dropped the objects.
func TestTrackedFilesAreBorrowedNotCopied(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	// Files written in the second the index is written are not trusted by their stat ("racily clean"):
	// these are made older first.
	sh(t, ws, `git init -q . && printf 'a\nb\n' > a.txt && echo b > b.txt && head -c 1500000 /dev/urandom > big.bin &&
		touch -d '-5 seconds' a.txt b.txt big.bin &&
		git add -A && git -c user.name=t -c user.email=t@t commit -qm files && echo untracked > u.txt`)
	c := openTest(t, ws)
	if n := countObjects(t, c); n != 1 {
		t.Errorf("the first snapshot saved %d contents, want 1 (the untracked file)", n)
	}
	bigBefore, _ := os.ReadFile(filepath.Join(ws, "big.bin"))
	changes := call(t, c, ws, "printf 'a\\nB\\n' > a.txt && rm b.txt && head -c 100 /dev/zero > big.bin")
	if got := changeLines(changes); got != "M a.txt (+1 −1)\nD b.txt (+0 −1)\nM big.bin (binary)" {
		t.Errorf("changes: %q", got)
	}
	// The person's git forgets everything (gc of a rewritten history, say).
	sh(t, ws, "rm -rf .git/objects/* && mkdir -p .git/objects/info .git/objects/pack")
	r := restoreTo(t, c, []Recorded{{Changes: changes}}, false)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "a\nb\n" {
		t.Errorf("a.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "b.txt")); string(b) != "b\n" {
		t.Errorf("b.txt = %q", b)
	}
	// big.bin is over the cap: it stayed borrowed, and the objects are gone.
	var problem string
	for _, s := range r.Skipped {
		if s.Path == "big.bin" {
			problem = s.Problem
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "big.bin")); string(b) == string(bigBefore) || !strings.Contains(problem, "gone") {
		t.Errorf("big.bin: restored %v, problem %q", string(b) == string(bigBefore), problem)
	}
}

func TestDiffShowsEachKindOfChange(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	sh(t, ws, "printf 'one\\ntwo\\n' > a.txt && printf 'x\\x00y' > b.bin && ln -s a.txt l")
	c := openTest(t, ws)
	changes := call(t, c, ws, "printf 'one\\nTWO\\n' > a.txt && printf 'x\\x00z' > b.bin && ln -sfn b.bin l && mkdir d && chmod 600 a.txt")
	var all []string
	for _, ch := range changes {
		d, err := c.Diff(ch)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, d)
	}
	got := strings.Join(all, "")
	for _, want := range []string{"mode -rw-r--r-- → -rw-------", "-two\n+TWO\n", "b.bin: binary, 3 B; binary, 3 B", "-link l → a.txt\n+link l → b.bin", "directory d/ created"} {
		if !strings.Contains(got, want) {
			t.Errorf("diffs lack %q:\n%s", want, got)
		}
	}
}

// Content goes with the sessions that refer to it: a deleted session's is pruned, and beyond the cap the
// oldest sessions' go first, which Pruned then reports.
func TestPruningFollowsSessions(t *testing.T) {
	isolateHome(t)
	ws := t.TempDir()
	dir := filepath.Join(t.TempDir(), "checkpoints")
	alive := map[string]bool{"old": true, "gone": true, "new": true}
	exists := func(id string) bool { return alive[id] }
	session := func(id string, scripts ...string) {
		c, err := Open(Options{Dir: dir, Workspace: ws, Session: id, SessionExists: exists, MaxStoreSize: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range scripts {
			call(t, c, ws, s)
		}
		c.Close()
	}
	session("old", "head -c 300000 /dev/urandom > old.bin")
	// What only this session saw: a file it made and removed again.
	session("gone", "head -c 300000 /dev/urandom > gone.bin", "rm gone.bin")
	session("new", "echo x > keep.txt")
	storeSize := func() int64 {
		var n int64
		filepath.WalkDir(filepath.Join(WorkspaceDir(dir, ws), "objects"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				info, _ := d.Info()
				n += info.Size()
			}
			return nil
		})
		return n
	}
	before := storeSize()
	delete(alive, "gone")
	c, err := Open(Options{Dir: dir, Workspace: ws, Session: "now", SessionExists: exists, MaxStoreSize: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Off(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if after := storeSize(); after >= before {
		t.Errorf("the store kept %d bytes of %d after a session was deleted", after, before)
	}
	if Pruned(dir, ws, "old") {
		t.Error("a session within the cap was reported pruned")
	}
	// A cap below what the sessions hold drops the oldest first.
	c, err = Open(Options{Dir: dir, Workspace: ws, Session: "now", SessionExists: exists, MaxStoreSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.Off()
	notes := strings.Join(c.Notes(), "\n")
	c.Close()
	if !Pruned(dir, ws, "old") || !strings.Contains(notes, "older session") {
		t.Errorf("the oldest session was not pruned: notes %q", notes)
	}
}
