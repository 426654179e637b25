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
