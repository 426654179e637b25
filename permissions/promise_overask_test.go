package permissions

import (
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWhatNoRuleCouldMatchRunsInYoloMode: under deny rules in yolo mode, a word only known at run time
// asks only where a rule could match what it becomes, and a git command that writes the work tree asks
// only in the forms that may write a governed path. What could reach a rule still asks or denies.
func TestWhatNoRuleCouldMatchRunsInYoloMode(t *testing.T) {
	ws, home := fixture(t)
	deny := []string{"Bash(git push:*)", "Bash(curl:*)", "Bash(touch:*)", "Read(./secrets/**)", "Edit(./.github/**)"}
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"git commit -qm \"fix: $(date +%F)\"", Allow},
		{"echo \"$(date)\" > build.log", Allow},
		{"mkdir -p out/$(date +%F)", Allow},
		{"cp README.md /tmp/readme-$$.md", Allow},
		{"git tag v$(date +%Y%m%d)", Allow},
		{"chmod +x run.sh && ./run.sh", Allow},
		{"GOFLAGS=-mod=mod go build ./...", Allow},
		{"git restore README.md", Allow},
		{"git checkout -- src/main.go", Allow},
		{"git reset --soft HEAD~1", Allow},
		{"git reset HEAD -- README.md", Allow},
		// What a rule could match.
		{"mkdir -p .github/$(date +%F)", Ask},
		{"mkdir -p out/$(cat name)", Ask},
		{"date() { echo ../.github; }; mkdir -p out/$(date +%F)", Ask},
		{"echo x > \"$f\"", Ask},
		{"cat \"$f\"", Ask},
		{"git restore .github/ci.yml", Deny},
		{"git reset --hard", Ask},
		{"GOFLAGS=-toolexec=./x go build ./...", Ask},
		{"GOFLAGS=-mod=mod make build", Ask},
		{"ld.so /usr/bin/touch x", Deny},
	} {
		e, err := NewEngine(Policy{Mode: ModeYolo, Deny: deny, Workspace: ws, Home: home})
		if err != nil {
			t.Fatal(err)
		}
		v := e.Decide(Request{Kind: Exec, Command: c.cmd, Cwd: ws})
		if v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
}

// TestAProgramWardenDoesNotModelIsNamedInTheQuestion: the question names the program Warden does not
// follow, not a write it may make.
func TestAProgramWardenDoesNotModelIsNamedInTheQuestion(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Mode: ModeYolo, Deny: []string{"Bash(touch:*)"}, Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		"capsh --shell=/bin/sh":          "`capsh` is not known",
		"ld.so --preload x.so /bin/true": "`ld.so` loads and runs a program itself",
	} {
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		if v.Decision != Ask || !strings.HasPrefix(v.Reason, want) {
			t.Errorf("%q: %s %q, want a question starting %q", cmd, v.Decision, v.Reason, want)
		}
	}
}

// TestWhatARepositorysConfigurationRunsIsTheProjectsOwn: a reading git command that runs a program the
// repository's configuration names runs in yolo mode under deny rules, as code on disk before the
// command does; the same configuration written by the command first asks.
func TestWhatARepositorysConfigurationRunsIsTheProjectsOwn(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(root, "ws")
	if out, err := osexec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if out, err := osexec.Command("git", "-C", ws, "config", "diff.external", "true").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	e, err := NewEngine(Policy{Mode: ModeYolo, Deny: []string{"Bash(touch:*)"}, Workspace: ws, Home: filepath.Join(root, "home")})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]Decision{
		"git diff": Allow,
		"printf '[diff]\\n\\texternal = touch M\\n' >> .git/config; git diff": Ask,
		"git -c diff.external='touch M' diff":                                 Deny,
	} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
			t.Errorf("%q: %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
}
