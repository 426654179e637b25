package permissions

import (
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigTheCommandLineBringsInIsRead: a configuration file the command line makes git read (-c and
// --config-env includes, GIT_CONFIG_* in front of git or through env) is a read of that file, so a Read
// deny rule denies the command even in yolo mode; each, run, prints the denied file.
func TestConfigTheCommandLineBringsInIsRead(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.write(filepath.Join(l.home, "private", "git.cfg"), "[acct]\n\ttoken = DENIED-VALUE\n")
	env := func(n string) (string, bool) { v, ok := l.env[n]; return v, ok }
	e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Mode: ModeYolo, Deny: []string{"Read(~/private/**)"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"git -c include.path=~/private/git.cfg config -l",
		"git -c include.path=~/private/git.cfg config --get acct.token",
		"git -c include.path=~/private/git.cfg var -l",
		"P=~/private/git.cfg git --config-env=include.path=P config -l",
		"P=~/private/git.cfg git --config-env include.path=P config -l",
		"GIT_CONFIG_GLOBAL=~/private/git.cfg git config -l",
		"env GIT_CONFIG_GLOBAL=~/private/git.cfg git config -l",
		"GIT_CONFIG=~/private/git.cfg git config -l",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=~/private/git.cfg git config -l",
		`GIT_CONFIG_PARAMETERS="'include.path'='~/private/git.cfg'" git config -l`,
		"git config --includes -f ../home/private/../private/git.cfg -l",
	} {
		if d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); d.Decision != Deny {
			t.Errorf("%q: %s (%s), want deny", cmd, d.Decision, d.Reason)
		}
		if out, _ := l.run("", cmd); !strings.Contains(out, "DENIED-VALUE") {
			t.Errorf("%q run: the denied file is not printed, the vector is not live: %s", cmd, out)
		}
	}
	// git reads the file for any subcommand; status prints nothing of it, but it is still git's read.
	if d := e.Decide(Request{Kind: Exec, Command: "git -c include.path=~/private/git.cfg status", Cwd: l.ws}); d.Decision != Deny {
		t.Errorf("status with an include of a denied file: %s (%s), want deny", d.Decision, d.Reason)
	}
}

// TestConfigPrintersStayQuiet: printing configuration asks only for the files whose values it prints: a
// name the secret file does not set is printed from elsewhere, and clean chains print at once.
func TestConfigPrintersStayQuiet(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.write(filepath.Join(l.home, ".gitconfig"), "[user]\n\tname = someone\n")
	l.write("cfg", "[include]\n\tpath = "+filepath.Join(l.home, ".pypirc")+"\n[a]\n\tb = 1\n")
	e := l.engine()
	clean := []string{"git config --get user.name", "git config -l", "git var -l", "git var GIT_EDITOR", "git config --global -l",
		"git config --show-origin --get-regexp user", "git config -f cfg -l", "git config --no-includes -l"}
	for _, cmd := range clean {
		if d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); d.Decision != Allow {
			t.Errorf("%q in a clean repository: %s (%s)", cmd, d.Decision, d.Reason)
		}
	}
	l.write(filepath.Join(l.home, ".pypirc"), "[pypi]\n\tpassword = pypi-LEAKED\n")
	l.sh("", "git config include.path ~/.pypirc")
	for cmd, want := range map[string]Decision{
		"git config --get user.name": Allow, "git config user.name": Allow, "git config --get-all core.bare": Allow,
		"git config -f cfg --get a.b": Allow, "git config -f cfg -l": Allow, "git config --no-includes -l": Allow,
		"git config --local -l": Allow, "git config --local --includes -l": Ask,
		"git config -l": Ask, "git config --get PyPI.Password": Ask, "git config --get-urlmatch pypi.password https://x": Ask,
		"git config --includes -f cfg --get a.b": Allow, "git config --includes -f cfg --get pypi.password": Ask,
		"git var -l": Ask,
	} {
		if d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); d.Decision != want {
			t.Errorf("%q with ~/.pypirc included: %s (%s), want %s", cmd, d.Decision, d.Reason, want)
		}
	}
}
