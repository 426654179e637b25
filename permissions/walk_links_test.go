package permissions

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// leakTree is a workspace for one search: files (content "x" unless given), symbolic links, hard
// links, and whether it is a git repository.
type leakTree struct {
	files    map[string]string
	symlinks map[string]string // name -> target ("HOME/..." is below the home directory)
	hard     map[string]string // new name -> existing name
	git      bool
}

// leakCases pair a tree with a command the real program runs there. A case leaks when the program's
// output shows a secret's content (SECRET); Warden must then not allow it. A case that does not leak
// must be allowed: the review's false positives.
var leakCases = []struct {
	name string
	tree leakTree
	cmd  string
}{
	{"symlink to a key", leakTree{symlinks: map[string]string{"notes.txt": "HOME/.ssh/id_rsa"}}, "cat notes.txt"},
	{"symlink to .env", leakTree{files: map[string]string{".env": "SECRET=1"}, symlinks: map[string]string{"notes.txt": ".env"}}, "head notes.txt"},
	{"rg reads a hard link to .env", leakTree{files: map[string]string{".env": "SECRET=1", "a.txt": "x"}, hard: map[string]string{"hl.txt": ".env"}}, "rg SECRET"},
	{"rg -L follows a link to ~/.ssh", leakTree{files: map[string]string{"a.txt": "x"}, symlinks: map[string]string{"d/keys": "HOME/.ssh"}}, "rg -L SECRET"},
	{"grep -R follows a link to ~/.ssh", leakTree{files: map[string]string{"d/a.txt": "x"}, symlinks: map[string]string{"d/keys": "HOME/.ssh"}}, "grep -R SECRET d"},
	{"find -exec cat opens a link", leakTree{files: map[string]string{".env": "SECRET=1"}, symlinks: map[string]string{"s.txt": ".env"}}, "find . -name '*.txt' -exec cat {} +"},
	{"find | xargs cat opens a link", leakTree{files: map[string]string{".env": "SECRET=1"}, symlinks: map[string]string{"s.txt": ".env"}}, "find . -name '*.txt' | xargs cat"},
	{"cat $(find) opens a hard link", leakTree{files: map[string]string{".env": "SECRET=1"}, hard: map[string]string{"h.txt": ".env"}}, "cat $(find . -name '*.txt')"},
	{"grep -r $(find) follows a named link", leakTree{files: map[string]string{"a.txt": "x"}, symlinks: map[string]string{"keys": "HOME/.ssh"}}, "grep -r SECRET $(find . -name keys)"},
	{"cat $(git ls-files) opens a tracked link", leakTree{git: true, files: map[string]string{".env": "SECRET=1", ".gitignore": ".env\n"}, symlinks: map[string]string{"notes.txt": ".env"}}, "cat $(git ls-files)"},
	{"rg ignores no negated hidden file", leakTree{files: map[string]string{".env": "SECRET=1", ".ignore": "!.env\n"}}, "rg SECRET"},
	{"rg -g takes a hidden file in", leakTree{files: map[string]string{".env": "SECRET=1"}}, "rg -g '.env' SECRET"},
	{"rg -g takes an ignored file in", leakTree{git: true, files: map[string]string{"k.pem": "SECRET", ".gitignore": "*.pem\n"}}, "rg -g '*.pem' SECRET"},
	{"rg type takes a hidden file in", leakTree{files: map[string]string{".env": "SECRET=1"}}, "rg --type-add 'e:*.env' -te SECRET"},
	{"rg braces", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "rg -g '*.{pem,txt}' SECRET"},
	{"rg --iglob folds case", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "rg --iglob '*.PEM' SECRET"},
	{"rg later glob wins", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "rg -g '!*.pem' -g '*.pem' SECRET"},
	{"rg --type-add widens a type", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "rg --type-add 'go:*.pem' -tgo SECRET"},
	{"rg does not read POSIX classes", leakTree{git: true, files: map[string]string{"credentials.json": "SECRET", ".gitignore": "credentials.js[[:alpha:]]n\n"}}, "rg SECRET"},
	{"rg nested repository starts afresh", leakTree{git: true, files: map[string]string{".gitignore": "*.pem\n", "sub/.git": "garbage", "sub/k.pem": "SECRET"}}, "rg SECRET"},
	{"rg ignores the repository's core.ignoreCase", leakTree{git: true, files: map[string]string{"k.pem": "SECRET", ".gitignore": "K.PEM\n", ".git/config": "[core]\n\tignorecase = true\n"}}, "rg SECRET"},
	{"rg ignores the repository's core.excludesFile", leakTree{git: true, files: map[string]string{"k.pem": "SECRET", "ign": "*.pem\n", ".git/config": "[core]\n\texcludesFile = ign\n"}}, "rg SECRET"},
	{"rg reads .ignore above the repository", leakTree{files: map[string]string{".ignore": "!*.pem\n", "p/k.pem": "SECRET", "p/.gitignore": "*.pem\n", "p/.git/HEAD": "ref: refs/heads/main\n", "p/.git/objects/x": "", "p/.git/refs/x": ""}}, "cd p && rg SECRET"},
	{"grep: the last matching glob wins", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "grep -r --exclude='*.pem' --include='*.pem' SECRET ."},
	{"rg -L is not a list of files", leakTree{files: map[string]string{"a.txt": "BEGIN " + "HOME/.ssh/id_rsa"}}, "cat $(rg -L BEGIN)"},
	{"rg -e l prints lines", leakTree{files: map[string]string{"a.txt": "l HOME/.ssh/id_rsa"}}, "cat $(rg -el .)"},
	{"rg --files lists a key", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "cat $(rg --files)"},
	{"ag searches below", leakTree{files: map[string]string{"k.pem": "SECRET"}}, "ag SECRET"},
	// Searches that read no secret.
	{"rg in a clean tree", leakTree{git: true, files: map[string]string{".env": "SECRET=1", ".gitignore": ".env\n*.pem\n", "k.pem": "SECRET", "src/a.ts": "x"}}, "rg SECRET"},
	{"rg --hidden with the secret ignored", leakTree{git: true, files: map[string]string{".env": "SECRET=1", ".gitignore": ".env\n", "src/a.ts": "x"}}, "rg --hidden SECRET"},
	{"rg -g '*.{ts,tsx}'", leakTree{files: map[string]string{".env": "SECRET=1", "k.pem": "SECRET", "src/a.ts": "x"}}, "rg -g '*.{ts,tsx}' SECRET"},
	{"rg -t ts", leakTree{files: map[string]string{".env": "SECRET=1", "k.pem": "SECRET", "src/a.ts": "x"}}, "rg -t ts SECRET"},
	{"grep --include", leakTree{files: map[string]string{".env": "SECRET=1", "src/a.go": "x"}}, "grep -rn SECRET --include='*.go' ."},
	{"find lists without links", leakTree{files: map[string]string{".env": "SECRET=1", "a.txt": "x", "b.txt": "y"}}, "find . -name '*.txt' -exec cat {} +"},
	{"a link inside the tree", leakTree{files: map[string]string{"docs/a.md": "x"}, symlinks: map[string]string{"README.md": "docs/a.md"}}, "cat README.md"},
	{"rg -L to a plain directory", leakTree{files: map[string]string{"lib/a.txt": "x"}, symlinks: map[string]string{"vendor": "lib"}}, "rg -L SECRET"},
	{"wc $(git ls-files)", leakTree{git: true, files: map[string]string{".env": "SECRET=1", ".gitignore": ".env\n", "a.go": "x", "src/b.go": "y"}}, "wc -l $(git ls-files)"},
}

func TestSearchesReadWhatTheProgramReads(t *testing.T) {
	for _, prog := range []string{"rg", "git", "grep", "find"} {
		if _, err := osexec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed", prog)
		}
	}
	_, agErr := osexec.LookPath("ag")
	for _, c := range leakCases {
		t.Run(c.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
			write := func(p, content string) {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(home, ".ssh", "id_rsa"), "SECRET key\n")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			if c.tree.git {
				if out, err := osexec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
					t.Fatalf("git init: %v: %s", err, out)
				}
			}
			for name, content := range c.tree.files {
				write(filepath.Join(ws, name), strings.ReplaceAll(content, "HOME", home)+"\n")
			}
			for name, target := range c.tree.symlinks {
				target = strings.ReplaceAll(target, "HOME", home)
				if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
					t.Fatal(err)
				}
			}
			for name, existing := range c.tree.hard {
				if err := os.Link(filepath.Join(ws, existing), filepath.Join(ws, name)); err != nil {
					t.Fatal(err)
				}
			}
			if c.tree.git {
				add := osexec.Command("git", "-c", "core.excludesFile=/dev/null", "add", "-A")
				add.Dir = ws
				if out, err := add.CombinedOutput(); err != nil {
					t.Fatalf("git add: %v: %s", err, out)
				}
			}
			cwd := ws
			cmd := c.cmd
			if rest, ok := strings.CutPrefix(cmd, "cd p && "); ok {
				cwd, cmd = filepath.Join(ws, "p"), rest
			}
			leaked := false
			if !strings.HasPrefix(cmd, "ag ") || agErr == nil {
				run := osexec.Command("bash", "-c", cmd)
				run.Dir = cwd
				run.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C"}
				out, _ := run.CombinedOutput()
				leaked = strings.Contains(string(out), "SECRET")
			} else {
				leaked = true // ag is not installed: it reads k.pem by its documentation
			}
			e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: func(n string) (string, bool) {
				if n == "HOME" {
					return home, true
				}
				return "", false
			}})
			if err != nil {
				t.Fatal(err)
			}
			v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: cwd})
			if leaked && v.Decision == Allow {
				t.Errorf("%q prints a secret, yet is allowed (%s)", cmd, v.Reason)
			}
			if !leaked && v.Decision != Allow {
				t.Errorf("%q reads no secret, yet: %s (%s)", cmd, v.Decision, v.Reason)
			}
		})
	}
}
