package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// What Warden reads as its own input is judged whole, by name and by what a file holds: an instruction
// file a repository made a link to its own .git/config (whose remote URL carries the clone's token), to a
// committed .yarnrc.yml with a registry token, or to a framework's secrets file, and one an archive made
// a hard link to the person's key, reach neither the model nor the screen; the person is told which file
// was left out.

const (
	plantedRemoteToken = "PLANTED-REMOTE-TOKEN-a71c"
	plantedHeader      = "UExBTlRFRC1IRUFERVItYjgyZA"
	plantedYarnToken   = "PLANTED-YARN-TOKEN-c93e"
	plantedStreamlit   = "PLANTED-STREAMLIT-d04f"
)

// cloneRepo commits files and links (name -> content or target) to a repository and clones it plainly
// into HOME/src/proj, the run's workspace, with a key planted in HOME/.ssh.
func cloneRepo(t *testing.T, r *invocation, files, links map[string]string) {
	t.Helper()
	home := homeOf(r)
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"),
		[]byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"+plantedKey+"\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600))
	src := filepath.Join(filepath.Dir(home), "upstream")
	must(t, os.MkdirAll(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "README.md"), []byte("a project\n"), 0o644))
	for name, content := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(src, name), []byte(content), 0o644))
	}
	for name, target := range links {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755))
		must(t, os.Symlink(target, filepath.Join(src, name)))
	}
	ws := filepath.Join(home, "src", "proj")
	must(t, os.MkdirAll(filepath.Dir(ws), 0o755))
	gitAt(t, src, "init", "-q")
	gitAt(t, src, "add", "-A")
	gitAt(t, src, "commit", "-qm", "files")
	gitAt(t, filepath.Dir(ws), "clone", "-q", src, ws)
	r.workspace = ws
}

func gitAt(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// firstRequestWithout runs one headless request and checks that none of planted reached the server and
// that stderr names the refused file as not read.
func firstRequestWithout(t *testing.T, r *invocation, refused string, planted ...string) {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("hello"))
	_, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := server.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the server")
	}
	for _, p := range planted {
		if strings.Contains(string(reqs[0].Raw), p) {
			t.Errorf("the first request holds %s", p)
		}
		if strings.Contains(stderr, p) {
			t.Errorf("stderr shows %s", p)
		}
	}
	if want := filepath.Join(r.workspace, refused) + " was not read"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}

func TestInstructionFilesThatAreConfigurationHoldingATokenAreNotRead(t *testing.T) {
	t.Run("AGENTS.md to .git/config", func(t *testing.T) {
		r := newRun(t)
		cloneRepo(t, r, nil, map[string]string{"AGENTS.md": ".git/config"})
		// What a CI checkout or a clone by token leaves in the repository's configuration.
		gitAt(t, r.workspace, "remote", "set-url", "origin", "https://oauth2:"+plantedRemoteToken+"@gitlab.example.com/o/r.git")
		gitAt(t, r.workspace, "config", "http.https://gitlab.example.com/.extraheader", "AUTHORIZATION: basic "+plantedHeader)
		firstRequestWithout(t, r, "AGENTS.md", plantedRemoteToken, plantedHeader)
	})
	t.Run("WARDEN.md to .yarnrc.yml", func(t *testing.T) {
		r := newRun(t)
		cloneRepo(t, r, map[string]string{".yarnrc.yml": "npmRegistryServer: https://npm.example.com\nnpmAuthToken: " + plantedYarnToken + "\n"},
			map[string]string{"WARDEN.md": ".yarnrc.yml"})
		firstRequestWithout(t, r, "WARDEN.md", plantedYarnToken)
	})
	t.Run("CLAUDE.md to .streamlit/secrets.toml", func(t *testing.T) {
		r := newRun(t)
		cloneRepo(t, r, map[string]string{".streamlit/secrets.toml": "db_password = \"" + plantedStreamlit + "\"\n"},
			map[string]string{"CLAUDE.md": ".streamlit/secrets.toml"})
		firstRequestWithout(t, r, "CLAUDE.md", plantedStreamlit)
	})
}

// An archive unpacked into the workspace made AGENTS.md a hard link to the person's key (Python's
// tarfile makes a hard-link member so): the key is not read, whatever name it has here.
func TestAnInstructionFileHardLinkedToAKeyIsNotRead(t *testing.T) {
	r := newRun(t)
	cloneRepo(t, r, map[string]string{"AGENTS.md": "be kind\n"}, nil)
	agents := filepath.Join(r.workspace, "AGENTS.md")
	must(t, os.Remove(agents))
	must(t, os.Link(filepath.Join(homeOf(r), ".ssh", "id_rsa"), agents))
	firstRequestWithout(t, r, "AGENTS.md", plantedKey, "OPENSSH PRIVATE KEY")
}
