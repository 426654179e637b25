package permissions

import (
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"
)

// TestSearchesWalkLikeTheProgram: rg and its filters are judged by the files rg reads (hidden files and
// what .gitignore, .ignore and .rgignore leave out are skipped); grep -r reads everything.
func TestSearchesWalkLikeTheProgram(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	for _, f := range []string{"src/a.go", "src/b.py", "README.md", "node_modules/x/index.js", "node_modules/x/test/key.pem",
		".env", "dist/.env.production", "vendored/creds/id_rsa"} {
		l.write(f, "TODO\n")
	}
	l.write(".gitignore", "node_modules/\n.env\ndist/\n")
	l.write(".rgignore", "vendored/\n")
	l.sh("", "git init -q")
	e := l.engine()
	deny, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Deny: []string{"Read(./.env)"}})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]Decision{
		"rg TODO": Allow, "rg -n TODO .": Allow, "rg --hidden TODO": Allow, "rg -i todo src": Allow, "rg -l TODO": Allow,
		"rg --no-ignore TODO": Ask, "rg -u TODO": Ask, "rg -uu TODO": Ask, "rg --no-ignore-vcs TODO": Ask,
		"grep -rn TODO .": Ask, "grep -r TODO": Ask, "rg TODO node_modules": Ask, "rg TODO vendored": Ask,
		"grep -rn TODO --exclude-dir=node_modules --exclude-dir=vendored --exclude-dir=dist --exclude=.env .": Allow,
		"rg --no-ignore -t go TODO": Allow, "rg --no-ignore --type=py TODO": Allow, "rg -uu -g '*.go' TODO": Allow,
		"grep -rn TODO --include='*.go' .": Allow, "find . -name '*.go' | xargs grep TODO": Allow,
		"rg --no-ignore -T md TODO": Ask, "rg --no-ignore --type-add 'x:*.go' -t x TODO": Ask,
	} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != want {
			t.Errorf("%q: %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
	// A denied file rg never reads (ignored) keeps nothing from running; one it reads asks or denies.
	for cmd, want := range map[string]Decision{"rg --hidden TODO": Allow, "rg -uu TODO": Deny, "grep -rn TODO .": Deny} {
		if v := deny.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != want {
			t.Errorf("%q with Read(./.env) denied: %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
	// Outside a git repository .gitignore means nothing to rg.
	l2 := newTrustLab(t)
	l2.write("a.go", "TODO\n")
	l2.write(".gitignore", "keys/\n")
	l2.write("keys/server.pem", "k\n")
	if v := l2.engine().Decide(Request{Kind: Exec, Command: "rg TODO", Cwd: l2.ws}); v.Decision != Ask {
		t.Errorf("rg outside a repository with an ignored key: %s (%s)", v.Decision, v.Reason)
	}
}

// searchTree makes a repository with ignored node_modules holding n files in directories of 1,000,
// and a small source tree.
func searchTree(b testing.TB, n int) (ws, home string) {
	root, _ := filepath.EvalSymlinks(b.TempDir())
	ws, home = filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		dir := filepath.Join(ws, "node_modules", fmt.Sprintf("pkg%d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("f%d.js", i)), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	for i := 0; i < 200; i++ {
		p := filepath.Join(ws, "src", fmt.Sprintf("d%d", i/20), fmt.Sprintf("f%d.ts", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range []string{".gitignore", ".git/HEAD"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755)
	}
	os.WriteFile(filepath.Join(ws, ".gitignore"), []byte("node_modules/\n"), 0o644)
	for _, d := range []string{".git/objects", ".git/refs"} {
		os.MkdirAll(filepath.Join(ws, d), 0o755)
	}
	os.WriteFile(filepath.Join(ws, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	return ws, home
}

// BenchmarkSearchWalk: rg in a repository whose ignored node_modules holds 100,000 files, judged again
// and again (the listings cached); grep -r over the same tree, which reads them all.
func BenchmarkSearchWalk(b *testing.B) {
	ws, home := searchTree(b, 100000)
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		b.Fatal(err)
	}
	for _, cmd := range []string{"rg -n foo .", "rg foo", "grep -rn foo ."} {
		b.Run(cmd, func(b *testing.B) {
			want := Allow
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
				b.Fatalf("%q: %s (%s)", cmd, v.Decision, v.Reason)
			}
			for b.Loop() {
				e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
			}
		})
	}
}
