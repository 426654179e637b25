package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// Secrets the catalogue learnt since the red team's second round, each planted where a read-only call
// used to print it: none reaches the model.

// headlessCalls runs one headless request in which the model makes calls (name and JSON arguments, in
// order), and returns each call's decision and output by its position, and every request the server got.
func headlessCalls(t *testing.T, r *invocation, calls [][2]string, flags ...string) (decisions, outputs []string, reqs []fakeapi.Request) {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	var script []*fakeapi.Response
	for i, c := range calls {
		script = append(script, fakeapi.ToolCall(fmt.Sprintf("c%d", i), c[0], c[1]))
	}
	server.Reply(append(script, fakeapi.Text("done"))...)
	out, stderr, code := r.exec(append([]string{"-p", "look", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	decisions, outputs = make([]string, len(calls)), make([]string, len(calls))
	for _, ev := range events(t, out) {
		var i int
		if _, err := fmt.Sscanf(fmt.Sprint(ev["id"]), "c%d", &i); err != nil || i >= len(calls) {
			continue
		}
		switch ev["type"] {
		case "permission":
			decisions[i] = fmt.Sprint(ev["decision"])
		case "tool_result":
			outputs[i] = fmt.Sprint(ev["output"])
		}
	}
	return decisions, outputs, server.Requests()
}

// noneReached fails for each planted string that is in a request.
func noneReached(t *testing.T, reqs []fakeapi.Request, planted ...string) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("no request reached the server")
	}
	for i, req := range reqs {
		for _, p := range planted {
			if strings.Contains(string(req.Raw), p) {
				t.Errorf("request %d carries the planted %q", i, p)
			}
		}
	}
}

// A proxy written without a scheme with its password, a JVM's options with one, and sshpass in
// GIT_SSH_COMMAND pass the environment's allow-list by name; their values now keep them out of what
// `env` prints, while the variables that hold no password still pass.
func TestPasswordsInAllowedVariablesNeverReachTheModel(t *testing.T) {
	r := newRun(t)
	planted := []string{"PLANTED-PROXY-PW-1a", "PLANTED-CARGO-PW-2b", "PLANTED-MAVEN-PW-3c", "PLANTED-GRADLE-PW-4d", "PLANTED-SSHPASS-5e"}
	r.env = append(r.env, "HTTPS_PROXY=alice:"+planted[0]+"@proxy.example:3128", "CARGO_HTTP_PROXY=bob:"+planted[1]+"@p.example:8080",
		"MAVEN_OPTS=-Xmx1g -Dhttp.proxyPassword="+planted[2], "GRADLE_OPTS=-Dorg.gradle.project.repoPassword="+planted[3],
		"GIT_SSH_COMMAND=sshpass -p "+planted[4]+" ssh", "JAVA_HOME=/opt/jdk-planted-plain")
	decisions, outputs, reqs := headlessCalls(t, r, [][2]string{{"bash", `{"command":"env"}`}})
	if decisions[0] != "allow" || !strings.Contains(outputs[0], "JAVA_HOME=/opt/jdk-planted-plain") {
		t.Fatalf("env did not run with the ordinary variables (%s):\n%s", decisions[0], outputs[0])
	}
	noneReached(t, reqs, planted...)
}

// An editor's swap file of .npmrc, Emacs's and vim's copies of .env, and backups of the person's .netrc
// and of a key are the secrets they copy: reading them asks (refused headless) instead of running unasked.
func TestCopiesOfSecretFilesNeverReachTheModel(t *testing.T) {
	r := newRun(t)
	home := homeOf(r)
	files := map[string]string{
		filepath.Join(r.workspace, ".npmrc.swp"):       "b0VIM 9.0\x00//registry.npmjs.org/:_authToken=PLANTED-SWAP-TOKEN-6f\n",
		filepath.Join(r.workspace, ".env~"):            "API_TOKEN=PLANTED-BACKUP-7a\n",
		filepath.Join(r.workspace, "#.env#"):           "API_TOKEN=PLANTED-AUTOSAVE-8b\n",
		filepath.Join(r.workspace, "..env.swp"):        "API_TOKEN=PLANTED-VIMSWAP-9c\n",
		filepath.Join(r.workspace, "key.pem~"):         "-----BEGIN PRIVATE KEY-----\nPLANTED-PEM-0d\n",
		filepath.Join(r.workspace, ".env.bak"):         "API_TOKEN=PLANTED-BAK-1e\n",
		filepath.Join(home, ".netrc~"):                 "machine x login me password PLANTED-NETRC-2f\n",
		filepath.Join(r.workspace, "notes.txt~"):       "an ordinary backup PLANTED-ORDINARY\n",
		filepath.Join(r.workspace, "terraform.tfvars"): "db_password = \"PLANTED-TFVARS-3a\"\n",
	}
	for p, c := range files {
		must(t, os.WriteFile(p, []byte(c), 0o600))
	}
	calls := [][2]string{
		{"bash", `{"command":"strings .npmrc.swp"}`}, {"bash", `{"command":"cat .env~"}`}, {"bash", `{"command":"cat '#.env#'"}`},
		{"bash", `{"command":"cat ..env.swp"}`}, {"bash", `{"command":"cat key.pem~"}`}, {"bash", `{"command":"cat .env.bak"}`},
		{"bash", `{"command":"cat ~/.netrc~"}`}, {"bash", `{"command":"cat terraform.tfvars"}`},
		{"grep", `{"pattern":"PLANTED"}`}, {"bash", `{"command":"cat notes.txt~"}`},
	}
	decisions, outputs, reqs := headlessCalls(t, r, calls, "--sandbox=off")
	for i, c := range calls[:8] {
		if decisions[i] != "deny" {
			t.Errorf("%s: %s, want it asked (so refused headless): %s", c[1], decisions[i], outputs[i])
		}
	}
	if !strings.Contains(outputs[9], "PLANTED-ORDINARY") || !strings.Contains(outputs[8], "PLANTED-ORDINARY") {
		t.Errorf("an ordinary file's backup was not read (cat: %s; grep: %s)", outputs[9], outputs[8])
	}
	noneReached(t, reqs, "PLANTED-SWAP", "PLANTED-BACKUP", "PLANTED-AUTOSAVE", "PLANTED-VIMSWAP", "PLANTED-PEM",
		"PLANTED-BAK", "PLANTED-NETRC", "PLANTED-TFVARS")
}

// The grep tool leaves out what read_file and cat refuse: a .yarnrc.yml with a token, a bare
// repository's configuration with an extraHeader, a .gitconfig with a remote's password.
func TestGrepPrintsNoConfigurationHoldingACredential(t *testing.T) {
	r := newRun(t)
	ws := r.workspace
	must(t, os.WriteFile(filepath.Join(ws, ".yarnrc.yml"), []byte("npmAuthToken: MARK-PLANTED-YARN-4b\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, "fixture.git"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "fixture.git", "config"),
		[]byte("[http \"https://git.example/\"]\n\textraheader = AUTHORIZATION: basic MARK-PLANTED-HEADER-5c\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, ".gitconfig"),
		[]byte("[remote \"origin\"]\n\turl = https://me:MARK-PLANTED-PW-6d@git.example/r.git\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "notes.md"), []byte("MARK in the notes\n"), 0o644))
	decisions, outputs, reqs := headlessCalls(t, r, [][2]string{{"grep", `{"pattern":"MARK"}`}})
	if decisions[0] != "allow" || !strings.Contains(outputs[0], "notes.md:1:MARK in the notes") {
		t.Fatalf("grep did not search the workspace (%s):\n%s", decisions[0], outputs[0])
	}
	noneReached(t, reqs, "MARK-PLANTED-YARN", "MARK-PLANTED-HEADER", "MARK-PLANTED-PW")
}

// Reading the kernel keyring's listings is reading a secret: it asks, where before it ran unasked.
func TestReadingTheKeyringsListingsAsks(t *testing.T) {
	r := newRun(t)
	out, stderr, code := r.exec("check", "--", "cat /proc/keys", "cat /proc/key-users", "cat /proc/cpuinfo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"decision":"ask"`) || !strings.Contains(lines[1], `"decision":"ask"`) ||
		!strings.Contains(lines[2], `"decision":"allow"`) {
		t.Errorf("warden check:\n%s", out)
	}
}
