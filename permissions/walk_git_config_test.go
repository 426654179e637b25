package permissions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// rg enters .git when it searches hidden files (--hidden, -uu, -uuu), and prints the repository's
// configuration and its submodules' with the rest: `rg --hidden -g config -e 'url|extraheader'` showed an
// extraHeader and a submodule's URL with a password. A walk judges the configuration files of a .git
// directory it enters (config, config.worktree, modules/*/config) as it judges every file it meets, by
// name and by what they hold; grep -r reads the submodules' configurations too.
func TestAWalkThatEntersGitJudgesTheConfigurationsThere(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	home := filepath.Join(root, "home")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	mkdir := func(p string) {
		t.Helper()
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mkdir(home)
	// header: the repository's own configuration holds an extraHeader.
	header := filepath.Join(root, "header")
	mkdir(header)
	git(header, "init", "-q")
	git(header, "config", "http.https://example.com/.extraheader", "Authorization: Bearer cGxhbnRlZC1leHRyYWhlYWRlcg")
	// module: only a submodule's configuration holds a credential, a URL with a password.
	module := filepath.Join(root, "module")
	mkdir(module)
	git(module, "init", "-q")
	mkdir(filepath.Join(module, ".git", "modules", "lib"))
	if err := os.WriteFile(filepath.Join(module, ".git", "modules", "lib", "config"),
		[]byte("[remote \"origin\"]\n\turl = https://user:planted-module-pw@example.com/lib.git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{header, module} {
		if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("one url\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	decideEach(t, home, []inWorkspace{
		{header, "rg --hidden -g config -e 'url|extraheader'", Ask},
		{header, "rg -uu extraheader", Ask},
		{header, "rg -uuu -l 'url|extraheader'", Ask},
		{header, "rg --hidden -i authorization .", Ask},
		{module, "rg --hidden -g config -e 'url|extraheader'", Ask},
		{module, "rg -uu -e url", Ask},
		{module, "grep -rn url .", Ask},
		{module, "rg --hidden url .git/modules", Ask},
		// What rg leaves out it does not read.
		{header, "rg -n url", Allow},
		{header, "rg --hidden -g '!.git' extraheader", Allow},
		{module, "rg --hidden -g '!config' url", Allow},
		{module, "rg --hidden -g '*.txt' url", Allow},
		{module, "grep -rn --exclude-dir=.git url .", Allow},
	})
}
