package permissions

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"
)

// TestSubstitutedNames: a file operand made of a command substitution is judged by what the inner
// command lists, when that is known; a name the shell would split, expand or take as an option asks.
func TestSubstitutedNames(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := func(files ...string) *trustLab {
		l := newTrustLab(t)
		for _, f := range files {
			l.write(f, "x\n")
		}
		l.sh("", "git init -q -b main . && git add -A && git commit -qm one")
		return l
	}
	cases := []struct {
		files []string
		cmd   string
		want  Decision
	}{
		{[]string{"a.go", "src/b.go"}, "wc -l $(git ls-files)", Allow},
		{[]string{"a.go", "src/b.go"}, "grep -n x $(git ls-files src)", Allow},
		{[]string{"a.go", "src/b.go"}, "cd src && cat $(git ls-files)", Allow},
		{[]string{"a.go", "src/b.go"}, "head -1 $(git diff --name-only HEAD)", Allow},
		{[]string{"a.go", "src/b.go"}, "cat $(find src -name '*.go')", Allow},
		{[]string{"a.go", "src/b.go"}, "head $(rg -l x src)", Allow},
		{[]string{"a.go", ".env"}, "wc -l $(git ls-files)", Ask},
		{[]string{"a.go", "my file.go"}, "wc -l $(git ls-files)", Ask},
		{[]string{"a.go", "-n"}, "cat $(git ls-files)", Ask},
		{[]string{"a.go", "src/*.go"}, "cat $(git ls-files)", Ask},
		{[]string{"a.go", "src/-rf"}, "cat $(find src)", Ask},
		{[]string{"a.go"}, "cat $(ls)", Ask},
		{[]string{"a.go"}, "cat \"$(git ls-files)\"", Ask},
		{[]string{"a.go"}, "cat $(git ls-files -o)", Ask},
		{[]string{"a.go"}, "rm $(git ls-files)", Ask},
		{[]string{"a.go"}, "cat $(git ls-files; echo .env)", Ask},
	}
	for _, c := range cases {
		l := repo(c.files...)
		if v := l.engine().Decide(Request{Kind: Exec, Command: c.cmd, Cwd: l.ws}); v.Decision != c.want {
			t.Errorf("%q with %q: %s (%s), want %s", c.cmd, c.files, v.Decision, v.Reason, c.want)
		}
	}
	// A deny rule on a listed file keeps the read from running at once.
	l := repo("a.go", "secrets/k.txt")
	e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Deny: []string{"Read(./secrets/**)"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(Request{Kind: Exec, Command: "cat $(git ls-files)", Cwd: l.ws}); v.Decision == Allow {
		t.Errorf("cat $(git ls-files) over a denied file: %s (%s)", v.Decision, v.Reason)
	}
	os.Remove(filepath.Join(l.ws, "secrets", "k.txt"))
}
