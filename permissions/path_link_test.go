package permissions

import (
	"os"
	"path/filepath"
	"testing"
)

// A program found on PATH through a link is the program the link leads to: with ~/.local/bin/ls a link
// to rm, made by an earlier command, `ls` runs rm. A program is judged by the name it is called as, so
// a link whose target is another program asks; one to the same program under a longer name (a version,
// a distribution's rename) or to a multi-call binary that picks its program by the name it is called as
// is judged as the name, and so is a program installed there as a file of its own.
func TestAProgramOnPathThatLinksToAnotherProgramAsks(t *testing.T) {
	ws, home := fixture(t)
	bin := filepath.Join(home, ".local", "bin")
	opt := filepath.Join(filepath.Dir(home), "opt")
	for _, d := range []string{bin, opt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(p string) {
		t.Helper()
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"shred", "rg-14.1.0", "busybox", "cat", "rustup"} {
		exe(filepath.Join(opt, n))
	}
	link("/bin/rm", "ls")
	link(filepath.Join(opt, "shred"), "head")
	link(filepath.Join(opt, "rg-14.1.0"), "rg")
	link(filepath.Join(opt, "busybox"), "wc")
	link(filepath.Join(opt, "cat"), "cat")
	link(filepath.Join(opt, "rustup"), "cargo")
	exe(filepath.Join(bin, "tree"))
	env := func(name string) (string, bool) {
		if name == "PATH" {
			return bin + ":/usr/bin:/bin", true
		}
		return "", false
	}
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want Decision
	}{
		{"ls", Ask},
		{"ls -la src", Ask},
		{"head -5 README.md", Ask},
		{"git status && ls", Ask},
		{"rg -n main src", Allow},
		{"wc -l README.md", Allow},
		{"cat README.md", Allow},
		{"tree src", Allow},
		{"cargo --version", Allow},
		{"/bin/ls src", Allow},
		{"tail README.md", Allow},
	} {
		if v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: ws}); v.Decision != tc.want {
			t.Errorf("%q: %s by %s (%s), want %s", tc.cmd, v.Decision, v.By, v.Reason, tc.want)
		}
	}
}
