package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/tools"
)

// bulkHome puts n empty files at the top of home, named to come before every dot-directory a key is kept
// in (.aws, .ssh): a scan that stops after a number of entries stops before those.
func bulkHome(t testing.TB, home string, n int) {
	t.Helper()
	for i := range n {
		f, err := os.Create(filepath.Join(home, fmt.Sprintf(".a%06d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// The home is dark in the jail: a key behind 20,001 entries (more than any scan of the home looked at) and
// a private file of an ordinary name are not there, while what read-only tools need of the home is: the
// workspace and an additional directory inside it, Go's module cache where `go env GOMODCACHE` says, and a
// place the person's settings add, in which a credentials file stays masked. Outside the jail each of them
// is read, which shows the check sees them.
func TestWallKeepsTheHomeDarkButForTheWorkspaceAndToolchains(t *testing.T) {
	home := testHome(t)
	bulkHome(t, home, 20_001)
	t.Setenv("GOPATH", "")
	t.Setenv("GOMODCACHE", "")
	t.Setenv("CARGO_HOME", "")
	write(t, filepath.Join(home, "notes", "private.txt"), "notes-private-secret\n")
	write(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = gitconfig-secret\n")
	write(t, filepath.Join(home, "go", "pkg", "mod", "example.com", "m@v1.0.0", "go.mod"), "module example.com/m // module-cache-content\n")
	write(t, filepath.Join(home, ".cargo", "env"), "cargo-env-readable\n")
	write(t, filepath.Join(home, ".cargo", "credentials"), "cargo-credentials-secret\n")
	ws := filepath.Join(home, "src", "proj")
	shared := filepath.Join(home, "shared")
	write(t, filepath.Join(ws, "README"), "workspace-readme\n")
	write(t, filepath.Join(ws, ".env"), "TOKEN=workspace-env-secret\n")
	write(t, filepath.Join(shared, "lib.txt"), "shared-lib-readable\n")

	modcache := `"$HOME/go/pkg/mod"`
	if _, err := exec.LookPath("go"); err == nil {
		modcache = `"$(go env GOMODCACHE)"`
	}
	cmd := "cat README; cat " + modcache + "/example.com/m@v1.0.0/go.mod; for f in " + shared + "/lib.txt ~/.cargo/env " +
		"~/.ssh/id_rsa ~/.aws/credentials ~/.netrc ~/notes/private.txt .env ~/.cargo/credentials; do cat \"$f\"; done; " +
		"grep -rs secret ~/notes ~/.ssh; true"
	readable := []string{"workspace-readme", "module-cache-content", "shared-lib-readable", "cargo-env-readable"}
	secrets := []string{"ssh-key-secret", "aws-secret", "netrc-secret", "notes-private-secret", "workspace-env-secret",
		"cargo-credentials-secret"}
	for _, b := range wallBackends(t) {
		t.Run(string(b), func(t *testing.T) {
			h := jailHarness(t, b)
			h.env.Workspace = ws
			h.env.SetCwd(ws)
			h.env.AdditionalDirs = []string{shared}
			h.env.JailReadable = []string{filepath.Join(home, ".cargo")}
			r := h.runJailed(cmd)
			for _, s := range readable {
				if !strings.Contains(r.Output, s) {
					t.Errorf("%s was not readable in the jail: %s", s, r.Output)
				}
			}
			for _, s := range secrets {
				if strings.Contains(r.Output, s) {
					t.Errorf("%s was readable in the jail: %s", s, r.Output)
				}
			}
			if r := h.runJailed("cat ~/notes/private.txt"); !strings.Contains(r.Output, "home directories are hidden") {
				t.Errorf("the model is not told why a file of the home is not there: %s", r.Output)
			}
			// Nor are the home's names there to list.
			for _, line := range strings.Split(h.runJailed("ls -a ~ ~/.ssh").Output, "\n") {
				if name := strings.TrimSpace(line); name == "notes" || name == ".ssh" || name == "id_rsa" || name == ".a000000" {
					t.Errorf("%s is listed in the jail", name)
				}
			}
			// git reads none of the person's configuration (an unreadable ~/.gitconfig would stop it) and
			// works.
			if r := h.runJailed("git init -q \"$TMPDIR/r\" && git -C \"$TMPDIR/r\" status --short && git config --global --list; echo git-ran"); !strings.Contains(r.Output, "git-ran") ||
				strings.Contains(r.Output, "gitconfig-secret") || strings.Contains(r.Output, "fatal") {
				t.Errorf("git in the jail: %s", r.Output)
			}
			in, _ := json.Marshal(map[string]any{"command": cmd})
			out := h.bash.Run(context.Background(), h.env, tools.Call{ID: "outside", Input: in}).Output
			for _, s := range append(readable, secrets...) {
				if !strings.Contains(out, s) {
					t.Errorf("outside the jail %s was not read either; the check above proves nothing: %s", s, out)
				}
			}
		})
	}
}
