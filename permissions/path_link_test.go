package permissions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
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
		// Each its own program: files of the same bytes would be one program to Warden.
		if err := os.WriteFile(p, []byte("#!/bin/sh\n# "+filepath.Base(p)+"\n"), 0o755); err != nil {
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
	env := pathFirst(bin)
	// With the read-only jail, as most people run Warden: a program of unknown identity is judged by
	// its name there (TestAFileThatShadowsASystemProgramWithoutBeingItAsksUnderDenyRules has it without).
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env, ReadOnlyJail: true})
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
		// rg-14.1.0 here is a script, not the system's rg: where the system has an rg, the link runs
		// another program.
		if strings.HasPrefix(tc.cmd, "rg ") && systemHas("rg") {
			tc.want = Ask
		}
		if v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: ws}); v.Decision != tc.want {
			t.Errorf("%q: %s by %s (%s), want %s", tc.cmd, v.Decision, v.By, v.Reason, tc.want)
		}
	}
}

// systemHas reports whether the system's program directories hold a program named name.
func systemHas(name string) bool {
	for _, d := range shell.SystemBinDirs {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}

// The same program is the same name, that name with a version after it (python3 -> python3.11) where the
// system's program of the name is that file or there is none, a distribution's rename (fd -> fdfind) or
// a multi-call binary; a name that merely starts the target's is another program: ss -> ssh runs ssh,
// whose ProxyCommand runs anything, and tr -> truncate empties files. A versioned name the system's
// program of the name is not is another program too: diff -> diff3 runs diff3, whose --diff-program
// runs anything; here python3.11, rg-14.1.0 and head.9 are scripts, not the system's programs.
func TestAProgramOnPathThatLinksToAProgramWhoseNameItStartsAsks(t *testing.T) {
	ws, home := fixture(t)
	bin := filepath.Join(home, ".local", "bin")
	opt := filepath.Join(filepath.Dir(home), "opt")
	for _, d := range []string{bin, opt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"ss": "ssh", "tr": "truncate", "ps": "psql", "less": "lesskey", "du": "dumpe2fs", "locale": "localedef",
		"sort": "sort-x", "cut": "cut.sh",
		"python3": "python3.11", "rg": "rg-14.1.0", "head": "head.9", "fd": "fdfind", "cat": "cat", "diff": "diff3",
		"tree": "tree-2.1.0",
	} {
		if err := os.WriteFile(filepath.Join(opt, target), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(opt, target), filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	env := pathFirst(bin)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want Decision
	}{
		{"ss -o 'ProxyCommand=touch PWNED' x", Ask},
		{"tr -s 0 README.md", Ask},
		{"ps", Ask},
		{"less README.md", Ask},
		{"du -sh src", Ask},
		{"locale", Ask},
		{"sort README.md", Ask},
		{"cut -c1 README.md", Ask},
		{"python3 --version", Ask},
		{"rg -n main src", Ask},
		{"head README.md", Ask},
		{"diff --diff-program=./dp a b c", Ask},
		{"tree src", Ask},
		{"fd main src", Allow},
		{"cat README.md", Ask}, // a script called cat, not the system's cat: without the jail, unknown
	} {
		switch name, _, _ := strings.Cut(tc.cmd, " "); name {
		case "python3", "rg", "head", "tree":
			// With no system program of the name, the versioned one is the program its name says.
			if !systemHas(name) {
				tc.want = Allow
			}
		}
		if v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: ws}); v.Decision != tc.want {
			t.Errorf("%q: %s by %s (%s), want %s", tc.cmd, v.Decision, v.By, v.Reason, tc.want)
		}
	}
}

// A link on PATH to another program runs that program: an allow rule for the name it is called by
// (Bash(ls:*)) allows ls, not rm, so it does not cover ~/.local/bin/ls -> rm, and "always allow" offers
// no rule for the name. A rule naming the program the link runs covers it, and a deny or ask rule naming
// that program holds.
func TestAnAllowRuleForTheNameDoesNotCoverALinkToAnotherProgram(t *testing.T) {
	ws, home := fixture(t)
	bin := filepath.Join(home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/bin/rm", filepath.Join(bin, "ls")); err != nil {
		t.Fatal(err)
	}
	env := pathFirst(bin)
	for _, tc := range []struct {
		allow, deny, ask []string
		mode             Mode
		cmd              string
		want             Decision
	}{
		{allow: []string{"Bash(ls:*)"}, cmd: "ls -rf src", want: Ask},
		{allow: []string{"Bash(ls -rf src)"}, cmd: "ls -rf src", want: Ask},
		{allow: []string{"Bash(timeout 5 ls:*)"}, cmd: "timeout 5 ls -rf src", want: Ask},
		{allow: []string{"Bash(rm:*)"}, cmd: "ls -rf src", want: Allow},
		{allow: []string{"Bash"}, cmd: "ls -rf src", want: Allow},
		{deny: []string{"Bash(rm:*)"}, mode: ModeYolo, cmd: "ls -rf src", want: Deny},
		{ask: []string{"Bash(rm:*)"}, allow: []string{"Bash(ls:*)"}, cmd: "ls -rf src", want: Ask},
		{deny: []string{"Bash(ls:*)"}, cmd: "ls -rf src", want: Deny},
	} {
		e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env, Mode: tc.mode, Allow: tc.allow, Deny: tc.deny, Ask: tc.ask})
		if err != nil {
			t.Fatal(err)
		}
		v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: ws})
		if v.Decision != tc.want {
			t.Errorf("allow %v deny %v ask %v: %q: %s by %s (%s), want %s", tc.allow, tc.deny, tc.ask, tc.cmd, v.Decision, v.By, v.Reason, tc.want)
		}
		if v.Decision == Ask && v.SuggestedRule != "" {
			t.Errorf("%q offers %q, which would name the link, not rm", tc.cmd, v.SuggestedRule)
		}
	}
}

// A file on PATH that stands in front of the system's program of its name without being it (a copy of rm
// called cat, a script that runs rm, a link to a file called cat that is rm) is of unknown identity: under
// a deny rule it asks in every mode, since no rule can be checked against what it runs. Without rules it
// is judged by its name, in the read-only jail. A copy of the system's own cat is cat. Before, each ran
// unasked in yolo mode beside a deny rule on rm.
func TestAFileThatShadowsASystemProgramWithoutBeingItAsksUnderDenyRules(t *testing.T) {
	if !systemHas("cat") || !systemHas("rm") {
		t.Fatal("the system has no cat or rm")
	}
	rm, _ := filepath.EvalSymlinks("/bin/rm")
	cat, _ := filepath.EvalSymlinks("/bin/cat")
	copyFile := func(t *testing.T, from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, bin, opt string)
		want  Decision
	}{
		{"a copy of rm", func(t *testing.T, bin, _ string) { copyFile(t, rm, filepath.Join(bin, "cat")) }, Ask},
		{"a script running rm", func(t *testing.T, bin, _ string) {
			must(t, os.WriteFile(filepath.Join(bin, "cat"), []byte("#!/bin/sh\nexec rm \"$@\"\n"), 0o755))
		}, Ask},
		{"a link to a file called cat that is rm", func(t *testing.T, bin, opt string) {
			copyFile(t, rm, filepath.Join(opt, "cat"))
			must(t, os.Symlink(filepath.Join(opt, "cat"), filepath.Join(bin, "cat")))
		}, Ask},
		{"a copy of the system's cat", func(t *testing.T, bin, _ string) { copyFile(t, cat, filepath.Join(bin, "cat")) }, Allow},
		{"a version manager's shim", func(t *testing.T, bin, opt string) {
			shims := filepath.Join(opt, ".pyenv", "shims")
			must(t, os.MkdirAll(shims, 0o755))
			must(t, os.WriteFile(filepath.Join(shims, "cat"), []byte("#!/bin/sh\nexec /bin/cat \"$@\"\n"), 0o755))
			must(t, os.Symlink(filepath.Join(shims, "cat"), filepath.Join(bin, "cat")))
		}, Allow},
		// Forgeries of what is taken on its name (red-team round 6): a folder merely named shims, a link
		// to a script called busybox, a copy beside a file of the same bytes called mise.
		{"a folder merely named shims", func(t *testing.T, bin, opt string) {
			must(t, os.MkdirAll(filepath.Join(opt, "shims"), 0o755))
			must(t, os.WriteFile(filepath.Join(opt, "shims", "cat"), []byte("#!/bin/sh\nexec rm \"$@\"\n"), 0o755))
			must(t, os.Symlink(filepath.Join(opt, "shims", "cat"), filepath.Join(bin, "cat")))
		}, Ask},
		{"a link to a script called busybox", func(t *testing.T, bin, opt string) {
			must(t, os.WriteFile(filepath.Join(opt, "busybox"), []byte("#!/bin/sh\nexec rm \"$@\"\n"), 0o755))
			must(t, os.Symlink(filepath.Join(opt, "busybox"), filepath.Join(bin, "cat")))
		}, Ask},
		{"a copy beside a file of the same bytes called mise", func(t *testing.T, bin, _ string) {
			script := []byte("#!/bin/sh\nexec rm \"$@\"\n")
			must(t, os.WriteFile(filepath.Join(bin, "cat"), script, 0o755))
			must(t, os.WriteFile(filepath.Join(bin, "mise"), script, 0o755))
		}, Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, home := fixture(t)
			bin, opt := filepath.Join(home, ".local", "bin"), filepath.Join(filepath.Dir(home), "opt")
			must(t, os.MkdirAll(bin, 0o755))
			must(t, os.MkdirAll(opt, 0o755))
			tc.plant(t, bin, opt)
			env := pathFirst(bin)
			for _, mode := range []Mode{ModeDefault, ModeYolo} {
				e, err := NewEngine(Policy{Mode: mode, Deny: []string{"Bash(rm:*)"}, Workspace: ws, Home: home, Env: env})
				if err != nil {
					t.Fatal(err)
				}
				if v := e.Decide(Request{Kind: Exec, Command: "cat README.md", Cwd: ws}); v.Decision != tc.want {
					t.Errorf("%s, deny rm: %s by %s (%s), want %s", mode, v.Decision, v.By, v.Reason, tc.want)
				}
			}
			e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env, ReadOnlyJail: true})
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: "cat README.md", Cwd: ws}); v.Decision != Allow {
				t.Errorf("without rules: %s (%s), want it judged as cat, in the jail", v.Decision, v.Reason)
			}
			// Without the jail nothing keeps it from writing: it asks, unless it is the program its
			// name says.
			e, err = NewEngine(Policy{Workspace: ws, Home: home, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: "cat README.md", Cwd: ws}); v.Decision != tc.want {
				t.Errorf("without rules or the jail: %s (%s), want %s", v.Decision, v.Reason, tc.want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// less reads its lesskey file from $XDG_CONFIG_HOME/lesskey too: one that sets LESSOPEN there makes
// `less` run a program, and it asks. Before, only ~/.config/lesskey was read, and under another
// XDG_CONFIG_HOME `less a` ran the preprocessor unasked.
func TestALesskeyUnderXDGConfigHomeIsRead(t *testing.T) {
	ws, home := fixture(t)
	xdg := filepath.Join(filepath.Dir(home), "xdg")
	must(t, os.MkdirAll(xdg, 0o755))
	must(t, os.WriteFile(filepath.Join(xdg, "lesskey"), []byte("#env\nLESSOPEN=|./pre %s\n"), 0o644))
	env := func(name string) (string, bool) {
		if name == "XDG_CONFIG_HOME" {
			return xdg, true
		}
		return "", false
	}
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if v := e.Decide(Request{Kind: Exec, Command: "less README.md", Cwd: ws}); v.Decision != Ask || !strings.Contains(v.Reason, "LESSOPEN") {
		t.Errorf("less with a lesskey under XDG_CONFIG_HOME: %s (%s)", v.Decision, v.Reason)
	}
}

// pathFirst is an environment whose PATH has bin before the system's /usr/bin and /bin, and nothing else.
func pathFirst(bin string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if name == "PATH" {
			return bin + ":/usr/bin:/bin", true
		}
		return "", false
	}
}
