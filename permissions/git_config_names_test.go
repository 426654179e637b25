package permissions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// git config prints a credential only where it prints the variable that carries it. --name-only prints
// the names alone, which hold one only when a subsection is a URL with a password; --get-regexp prints
// the variables its pattern matches. Beside an extraHeader, both ran no risk and asked all the same.
func TestGitConfigThatCannotPrintACredentialRunsUnasked(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	repo := func(name string, config ...[2]string) string {
		t.Helper()
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, args := range append([][2]string{{"", ""}}, config...) {
			cmd := exec.Command("git", "init", "-q")
			if args[0] != "" {
				cmd = exec.Command("git", "config", args[0], args[1])
			}
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v: %s", cmd.Args, err, out)
			}
		}
		return dir
	}
	header := repo("header", [2]string{"http.https://github.com/.extraheader", "AUTHORIZATION: basic cGxhbnRlZC1leHRyYWhlYWRlcg=="},
		[2]string{"user.name", "Someone"}, [2]string{"alias.st", "status"})
	named := repo("named", [2]string{"url.https://user:planted-pw@example.com/.insteadOf", "https://example.com/"})
	decideEach(t, home, []inWorkspace{
		{header, "git config --name-only -l", Allow},
		{header, "git config --name-only --list --show-origin", Allow},
		{header, "git config --name-only --get-regexp http", Allow},
		{header, "git config --get-regexp '^user\\.'", Allow},
		{header, "git config --get-regexp alias", Allow},
		{header, "git config --get-regexp '^core\\.' true", Allow},
		// What prints the header still asks.
		{header, "git config -l", Ask},
		{header, "git config --get-regexp http", Ask},
		{header, "git config --get-regexp extra", Ask},
		{header, "git config --get-regexp 'EXTRA'", Ask},
		{header, "git config --get-regexp '.'", Ask},
		{header, "git config --get-regexp ''", Ask},
		// A pattern Go's regular expressions read otherwise than git's is taken to match everything.
		{header, "git config --get-regexp 'x{,3}'", Ask},
		{header, "git config --get-regexp '\\<user'", Ask},
		// A name that holds a URL with a password is printed by --name-only too.
		{named, "git config --name-only -l", Ask},
		{named, "git config --get-regexp '^url\\.'", Ask},
		{named, "git config --get-regexp '^user\\.'", Allow},
	})
}

// inWorkspace is a command decided in a workspace of its own, and the decision wanted.
type inWorkspace struct {
	ws, cmd string
	want    Decision
}

// decideEach decides each case with an engine of its workspace and the home home, a subtest a case.
func decideEach(t *testing.T, home string, cases []inWorkspace) {
	t.Helper()
	for _, tc := range cases {
		t.Run(filepath.Base(tc.ws)+": "+tc.cmd, func(t *testing.T) {
			e, err := NewEngine(Policy{Workspace: tc.ws, Home: home})
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: tc.ws}); v.Decision != tc.want {
				t.Errorf("%s by %s (%s), want %s", v.Decision, v.By, v.Reason, tc.want)
			}
		})
	}
}
