package permissions

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git's network subcommands run what the configuration names for reaching a remote: core.sshCommand,
// core.gitProxy, a remote's uploadpack, a credential helper. What the repository's own configuration
// sets there is what the repository makes git run, which no allow rule covers: with .git/config setting
// core.sshCommand, `Bash(git fetch:*)` ran it unasked. The person's own ~/.gitconfig (and ~/.ssh/config,
// which ssh reads) is theirs, and their rule covers it.
func TestTheRepositorysTransportSettingsAreNotCoveredByAnAllowRule(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	repo := func(name string, config ...string) string {
		t.Helper()
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		git(dir, "init", "-q")
		git(dir, "remote", "add", "origin", "git@example.com:o/r.git")
		for i := 0; i+1 < len(config); i += 2 {
			git(dir, "config", config[i], config[i+1])
		}
		return dir
	}
	plain := repo("plain")
	ssh := repo("ssh", "core.sshCommand", "sh -c 'touch MARK'")
	upload := repo("upload", "remote.origin.uploadpack", "sh -c 'touch MARK' #")
	helper := repo("helper", "credential.helper", "!sh -c 'touch MARK'")
	proxy := repo("proxy", "core.gitProxy", "./proxy.sh")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\tsshCommand = ssh -o ControlMaster=auto\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	allow := []string{"Bash(git fetch:*)", "Bash(git pull:*)", "Bash(git push:*)", "Bash(git ls-remote:*)"}
	for _, tc := range []struct {
		ws, cmd, key string
	}{
		{ssh, "git fetch", "core.sshcommand"},
		{ssh, "git pull --rebase", "core.sshcommand"},
		{ssh, "git push origin main", "core.sshcommand"},
		{upload, "git ls-remote origin", "remote.origin.uploadpack"},
		{upload, "git fetch origin", "remote.origin.uploadpack"},
		{helper, "git push", "credential.helper"},
		{proxy, "git fetch", "core.gitproxy"},
		// The person's own settings, and a repository that sets none, are what the rule allows.
		{plain, "git fetch", ""},
		{plain, "git push origin main", ""},
	} {
		t.Run(filepath.Base(tc.ws)+": "+tc.cmd, func(t *testing.T) {
			e, err := NewEngine(Policy{Workspace: tc.ws, Home: home, Allow: allow})
			if err != nil {
				t.Fatal(err)
			}
			v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: tc.ws})
			if tc.key == "" {
				if v.Decision != Allow {
					t.Errorf("%s by %s (%s), want the rule to allow it", v.Decision, v.By, v.Reason)
				}
				return
			}
			if v.Decision != Ask || !strings.Contains(strings.ToLower(v.Reason), tc.key) {
				t.Errorf("%s by %s (%s), want it to ask naming %s", v.Decision, v.By, v.Reason, tc.key)
			}
		})
	}
}
