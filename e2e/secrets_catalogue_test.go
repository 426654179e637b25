package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// secretsLab is a workspace and home holding planted secrets of every kind the catalogue knows by
// content or place, and Warden's own environment holding two more: a gh token, a token line in
// ~/.bashrc, an extraheader and a password in the repository's configuration, a Bitwarden session and a
// webhook URL. planted lists the strings that must never reach the model.
func secretsLab(t *testing.T) (r *invocation, planted []string) {
	t.Helper()
	r = newRun(t)
	home := filepath.Join(filepath.Dir(r.workspace), "home")
	planted = []string{"gho_PLANTEDghTOKEN0123456789abcdefghij", "planted-bashrc-token-0123456789",
		"UExBTlRFRC1FWFRSQUhFQURFUg", "planted-remote-password", "planted-bw-session-0123", "PLANTEDHOOK0123456789"}
	must(t, os.MkdirAll(filepath.Join(home, ".config", "gh"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".config", "gh", "hosts.yml"),
		[]byte("github.com:\n    user: someone\n    oauth_token: "+planted[0]+"\n    git_protocol: https\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(home, ".bashrc"),
		[]byte("# ~/.bashrc\nalias ll='ls -la'\nexport X_TOKEN="+planted[1]+"\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(home, ".bash_profile"), []byte("[ -f ~/.bashrc ] && . ~/.bashrc\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(r.workspace, "main.go"), []byte("package main\n"), 0o644))
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = r.workspace
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "main.go")
	git("commit", "-qm", "one")
	git("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic "+planted[2]+"==")
	git("remote", "add", "origin", "https://u:"+planted[3]+"@example.com/r.git")
	r.env = append(r.env, "BW_SESSION="+planted[4], "NOTIFY_URL=https://hooks.slack.com/services/T0/B0/"+planted[5])
	return r, planted
}

// A headless model that runs read-only commands over every planted secret (cat, env, git config -l, git
// remote -v, a login shell) gets none of them, with the read-only jail and without it (the jail hides a
// home below /tmp, where the tests keep theirs, so only the run without it shows the classifier alone):
// the environment never held the two Warden had, and the reads of the others ask, which headless
// refuses. The commands that print nothing secret still run.
func TestPlantedSecretsNeverReachTheModel(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) { plantedSecretsStayOut(t, jail) })
	}
}

func plantedSecretsStayOut(t *testing.T, jail bool) {
	r, planted := secretsLab(t)
	if !jail {
		settings := filepath.Join(filepath.Dir(r.workspace), "config", "warden", "settings.json")
		must(t, os.MkdirAll(filepath.Dir(settings), 0o755))
		must(t, os.WriteFile(settings, []byte(`{"sandbox": {"jail": false}}`), 0o644))
	}
	server := fakeapi.New()
	defer server.Close()
	cmds := []string{"cat ~/.config/gh/hosts.yml", "cat ~/.bashrc", "env", "printenv BW_SESSION NOTIFY_URL",
		"git config -l", "git config --get http.https://github.com/.extraheader", "git remote -v",
		"git remote get-url origin", "cat .git/config", "grep -rn basic .", "bash -lc env", "git var -l",
		"git status --short", "git config --get user.name"}
	var script []*fakeapi.Response
	for i, c := range cmds {
		script = append(script, fakeapi.ToolCall(fmt.Sprintf("c%d", i), "bash", fmt.Sprintf(`{"command":%q}`, c)))
	}
	server.Reply(append(script, fakeapi.Text("done"))...)
	out, stderr, code := r.exec("-p", "show me the configuration", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	decisions := map[string]string{}
	results := map[string]string{}
	for _, ev := range events(t, out) {
		id := fmt.Sprint(ev["id"])
		switch ev["type"] {
		case "permission":
			decisions[id] = fmt.Sprint(ev["decision"])
		case "tool_result":
			results[id] = fmt.Sprint(ev["output"])
		}
	}
	for i, c := range cmds {
		id := fmt.Sprintf("c%d", i)
		want := "deny"
		switch c {
		case "env", "printenv BW_SESSION NOTIFY_URL", "git status --short", "git config --get user.name":
			want = "allow"
		}
		if decisions[id] != want {
			t.Errorf("%q: %s, want %s (%s)", c, decisions[id], want, results[id])
		}
	}
	if !strings.Contains(results["c2"], "HOME=") || !strings.Contains(results["c2"], "WARDEN=1") {
		t.Errorf("env did not run, so it proves nothing: %s", results["c2"])
	}
	reqs := server.Requests()
	if len(reqs) != len(cmds)+1 {
		t.Fatalf("the model was asked %d times, want %d", len(reqs), len(cmds)+1)
	}
	for i, req := range reqs {
		for _, p := range planted {
			if strings.Contains(string(req.Raw), p) {
				t.Errorf("request %d carries the planted %q", i, p)
			}
		}
	}
}
