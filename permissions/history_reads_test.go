package permissions

import (
	"bytes"
	"compress/zlib"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestObjectStoreReadsAreHistoryReads: a committed .env, since removed, is still in .git/objects; reading
// a loose object or a pack asks, and is denied by a rule naming any path the history ever held. The
// vector is live: the object really holds the secret.
func TestObjectStoreReadsAreHistoryReads(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.write(".env", "API_TOKEN=s3cr3t-in-history\n")
	l.write("a.txt", "a\n")
	l.sh("", "git init -q -b main . && git add -A && git commit -qm one && git rm -q --cached .env && rm .env && git commit -qm gone")
	blob := strings.TrimSpace(l.sh("", "git rev-parse HEAD~1:.env"))
	loose := filepath.Join(".git", "objects", blob[:2], blob[2:])
	data, err := os.ReadFile(filepath.Join(l.ws, loose))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if content, _ := io.ReadAll(zr); !bytes.Contains(content, []byte("s3cr3t-in-history")) {
		t.Fatalf("the loose object does not hold the secret: %q", content)
	}
	plain := l.engine()
	deny, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Deny: []string{"Read(./.env)"}})
	if err != nil {
		t.Fatal(err)
	}
	reads := []string{"base64 " + loose, "xxd " + loose, "od -c " + loose, "cat " + loose, "head -c 100 " + loose,
		"cd .git/objects && cat " + blob[:2] + "/" + blob[2:], "find .git/objects -type f -exec cat {} +", "grep -r x .git/objects",
		"cat .git/objects/*/*"}
	check := func(e *Engine, cmd string, want Decision, why string) {
		t.Helper()
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws})
		if v.Decision != want || !strings.Contains(v.Reason, why) {
			t.Errorf("%q: %s (%s), want %s saying %q", cmd, v.Decision, v.Reason, want, why)
		}
	}
	for _, cmd := range reads {
		check(plain, cmd, Ask, "object store")
		check(deny, cmd, Deny, "`.env`, denied by `Read(./.env)`")
	}
	l.sh("", "git gc -q --prune=now")
	packs, _ := filepath.Glob(filepath.Join(l.ws, ".git", "objects", "pack", "*.pack"))
	if len(packs) == 0 {
		t.Fatal("no pack after gc")
	}
	pack, _ := filepath.Rel(l.ws, packs[0])
	for _, cmd := range []string{"cat " + pack, "strings " + pack, "base64 .git/objects/pack/*.pack"} {
		check(plain, cmd, Ask, "object store")
		check(deny, cmd, Deny, "denied by `Read(./.env)`")
	}
	// Listing the store reads nothing of it; a rule naming a path never tracked leaves it asking.
	check(plain, "ls -la .git/objects", Allow, "only reads")
	other, _ := NewEngine(Policy{Workspace: l.ws, Home: l.home, Deny: []string{"Read(./secrets/**)"}})
	check(other, "cat "+pack, Ask, "object store")
}

// TestHardLinksCountAsTheirTarget: a hard link to .env, anywhere, is .env; so is one to a key in the
// home directory. Live: reading the link prints the secret.
func TestHardLinksCountAsTheirTarget(t *testing.T) {
	l := newTrustLab(t)
	l.write(".env", "API_TOKEN=s3cr3t-linked\n")
	l.write(filepath.Join(l.home, ".ssh", "id_rsa"), "PRIVATE KEY\n")
	l.write("a.txt", "a\n")
	outside := filepath.Join(filepath.Dir(l.ws), "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ln := range [][2]string{
		{filepath.Join(l.ws, ".env"), filepath.Join(l.ws, "hl")},
		{filepath.Join(l.ws, ".env"), filepath.Join(l.ws, "deep", "er", "notes.txt")},
		{filepath.Join(l.ws, ".env"), filepath.Join(outside, "hl")},
		{filepath.Join(l.home, ".ssh", "id_rsa"), filepath.Join(l.ws, "key.txt")},
		{filepath.Join(l.ws, "a.txt"), filepath.Join(l.ws, "b.txt")},
	} {
		os.MkdirAll(filepath.Dir(ln[1]), 0o755)
		if err := os.Link(ln[0], ln[1]); err != nil {
			t.Fatal(err)
		}
	}
	if out, _ := l.run("", "cat hl"); !strings.Contains(out, "s3cr3t-linked") {
		t.Fatalf("the link does not read the secret: %q", out)
	}
	plain := l.engine()
	deny, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Deny: []string{"Read(./.env)"}})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string][2]Decision{
		"cat hl":                   {Ask, Deny},
		"base64 deep/er/notes.txt": {Ask, Deny},
		"cat " + outside + "/hl":   {Ask, Deny},
		"grep x key.txt":           {Ask, Ask},
		"cat b.txt":                {Allow, Allow},
		"cat a.txt":                {Allow, Allow},
	} {
		for i, e := range []*Engine{plain, deny} {
			v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws})
			if v.Decision != want[i] {
				t.Errorf("%q (deny rules: %v): %s (%s), want %s", cmd, i == 1, v.Decision, v.Reason, want[i])
			}
		}
	}
	// A new link made after the workspace was listed is found too.
	if err := os.Link(filepath.Join(l.ws, ".env"), filepath.Join(l.ws, "deep", "late")); err != nil {
		t.Fatal(err)
	}
	if v := deny.Decide(Request{Kind: Exec, Command: "cat deep/late", Cwd: l.ws}); v.Decision != Deny {
		t.Errorf("a link made later: %s (%s)", v.Decision, v.Reason)
	}
}

// TestGitReadsWhatTheRepositoryHolds: history and diff reads are judged by what the repository holds
// (its index and every commit its refs and reflogs reach), not by what is on disk: an untracked or
// ignored .env is never printed by them, while one committed and since removed is.
func TestGitReadsWhatTheRepositoryHolds(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	everyday := []string{"git show HEAD", "git log -p", "git log -p -1", "git diff --cached", "git diff main...HEAD",
		"git diff HEAD~1", "git diff", "git show", "git log -p -- src", "git diff HEAD~1 -- .", "git grep -n TODO",
		"git grep TODO HEAD", "git stash show -p", "git log -p --all", "git show HEAD~1 --stat"}
	setup := func(t *testing.T, committedEnv bool) *trustLab {
		l := newTrustLab(t)
		l.write("src/main.go", "package main // TODO\n")
		l.write(".gitignore", "node_modules/\n")
		if committedEnv {
			l.write(".env", "TOKEN=1\n")
		}
		l.sh("", "git init -q -b main . && git add -A && git commit -qm one && git checkout -qb feature && echo '// more' >> src/main.go && git commit -qam two")
		if committedEnv {
			l.sh("", "git rm -q --cached .env && rm .env && git commit -qm 'drop .env'")
		}
		// An untracked and an ignored secret on disk.
		l.write(".env", "TOKEN=2\n")
		l.write("src/.env.local", "TOKEN=3\n")
		l.write("node_modules/x/key.pem", "k\n")
		return l
	}
	clean := setup(t, false)
	e := clean.engine()
	for _, cmd := range everyday {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: clean.ws}); v.Decision != Allow {
			t.Errorf("%q with an untracked .env: %s (%s)", cmd, v.Decision, v.Reason)
		}
	}
	// Named explicitly, the file is read, and asks.
	for _, cmd := range []string{"git diff -- .env", "git log -p -- .env", "git show HEAD:.env"} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: clean.ws}); v.Decision != Ask {
			t.Errorf("%q: %s (%s)", cmd, v.Decision, v.Reason)
		}
	}
	// An object id nothing reaches may be anything; one a ref reaches is in the history.
	blob := strings.TrimSpace(clean.sh("", "echo dangling | git hash-object -w --stdin"))
	head := strings.TrimSpace(clean.sh("", "git rev-parse HEAD"))
	tracked := strings.TrimSpace(clean.sh("", "git rev-parse HEAD:src/main.go"))
	for cmd, want := range map[string]Decision{
		"git cat-file -p " + blob[:10]: Ask, "git show " + blob: Ask, "git show " + head[:8]: Allow,
		"git cat-file -p " + tracked[:7]: Allow, "git show " + head[:7] + "~1": Allow,
	} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: clean.ws}); v.Decision != want {
			t.Errorf("%q: %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
	// Committed once, removed from the index and the disk: history reads print it.
	dirty := setup(t, true)
	os.Remove(filepath.Join(dirty.ws, ".env"))
	d := dirty.engine()
	for _, cmd := range []string{"git log -p", "git show HEAD~1", "git log -p --all", "git diff main HEAD"} {
		if v := d.Decide(Request{Kind: Exec, Command: cmd, Cwd: dirty.ws}); v.Decision != Ask || !strings.Contains(v.Reason, ".env") {
			t.Errorf("%q with .env in history: %s (%s)", cmd, v.Decision, v.Reason)
		}
	}
	// Comparing only the index and the work tree never shows it.
	if v := d.Decide(Request{Kind: Exec, Command: "git diff", Cwd: dirty.ws}); v.Decision != Allow {
		t.Errorf("git diff with .env only in history: %s (%s)", v.Decision, v.Reason)
	}
	deny, err := NewEngine(Policy{Workspace: dirty.ws, Home: dirty.home, Deny: []string{"Read(./.env)"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := deny.Decide(Request{Kind: Exec, Command: "git log -p", Cwd: dirty.ws}); v.Decision != Deny || v.Rule != "Read(./.env)" {
		t.Errorf("git log -p with a denied path in history: %s (%s)", v.Decision, v.Reason)
	}
	if v := deny.Decide(Request{Kind: Exec, Command: "git log -p", Cwd: clean.ws}); v.Decision != Allow {
		t.Errorf("git log -p with a denied path never tracked: %s (%s)", v.Decision, v.Reason)
	}
}
