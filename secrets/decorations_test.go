package secrets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An editor's swap, auto-save or backup file, and a person's copy, of a secret file is as secret as the
// file: vim's .NAME.swp (of a dotfile too: ..env.swp), Emacs's NAME~ and #NAME#, Kate's, nano's, and
// .bak, .orig, .old; a copy of an ordinary file stays ordinary.
func TestACopyOfASecretFileIsSecret(t *testing.T) {
	for _, p := range []string{
		"/w/.npmrc.swp", "/w/..npmrc.swp", "/w/.env~", "/w/#.env#", "/w/..env.swp", "/w/..env.swo", "/home/u/.netrc~",
		"/home/u/.git-credentials~", "/home/u/.pgpass.swp", "/w/key.pem~", "/w/server.key~", "/home/u/.ssh/.id_rsa.swp",
		"/w/.id_rsa.swp", "/w/.envrc.swp", "/w/terraform.tfstate~", "/w/.env.bak", "/w/.env.orig", "/w/.env.old",
		"/w/.env.local.bak~", "/w/.npmrc.~3~", "/w/.pypirc.save", "/w/.env.kate-swp", "/w/..env.kate-swp",
		"/w/credentials.json.backup", "/etc/shadow~", "/w/.dev.vars.bak",
	} {
		if !Path(p) {
			t.Errorf("%s is not secret", p)
		}
	}
	for _, p := range []string{
		"/w/main.go~", "/w/.main.go.swp", "/w/#notes.txt#", "/w/README.md.bak", "/w/.env.example~", "/w/.swp",
		"/w/~", "/w/##", "/w/id_rsa.pub~", "/w/.bashrc.orig", "/w/config.old",
	} {
		if Path(p) {
			t.Errorf("%s is secret", p)
		}
	}
	// A copy of a file judged by its content is judged by its content too.
	for _, p := range []string{"/home/u/.bashrc~", "/home/u/.zshrc.swp", "/w/.yarnrc.yml.bak", "/w/#.yarnrc#"} {
		if !ByContent(p) {
			t.Errorf("%s is not judged by what it holds", p)
		}
	}
	for _, p := range []string{"/w/.git/config.bak", "/home/u/.gitconfig~", "/w/.git/config~"} {
		if !GitConfigFile(p) {
			t.Errorf("%s is not taken for git's configuration", p)
		}
	}
}

// What today's application frameworks keep their local secrets in, and the kernel keyring's listings.
func TestPathKnowsApplicationsLocalSecrets(t *testing.T) {
	for _, p := range []string{
		"/w/.streamlit/secrets.toml", "/w/.dev.vars", "/w/.dev.vars.staging", "/w/terraform.tfvars", "/w/prod.auto.tfvars",
		"/w/terraform.tfvars.json", "/w/client_secret_1234-abc.apps.googleusercontent.com.json", "/w/client_secret.json",
		"/w/local.settings.json", "/w/serviceAccountKey.json", "/w/proj-firebase-adminsdk-x1y2z-0123456789.json",
		"/w/wp-config.php", "/w/.vault_pass", "/home/u/.mylogin.cnf", "/proc/keys", "/proc/key-users",
		"/home/u/.nvm/versions/node/v20.1.0/etc/npmrc", "/home/u/miniconda3/.condarc", "/home/u/miniconda3/condarc",
		"/home/u/.pyenv/versions/3.12.1/pip.conf", "/home/u/miniconda3/condarc.d/channels.yml", "/home/u/.rbenv/versions/3.3.0/etc/gemrc",
		"/home/u/.gemrc", "/home/u/.pub-cache/pub-tokens.json",
	} {
		if !Path(p) {
			t.Errorf("%s is not secret", p)
		}
	}
	for _, p := range []string{"/w/terraform.tfvars.example", "/w/variables.tf", "/w/client_secret.md", "/w/settings.json",
		"/proc/cpuinfo", "/w/dev.vars.md"} {
		if Path(p) {
			t.Errorf("%s is secret", p)
		}
	}
}

// Holds is the whole judgement by content: a start-up file with a token line, yarn's configuration with
// a token, and git's configuration as the caller's git reader judges it; it never asks git's reader
// about another file.
func TestHoldsJudgesEveryFileKnownByContent(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) string {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	yarn := write(".yarnrc.yml", "npmAuthToken: abcdefgh12345678\n")
	yarnClean := write("clean/.yarnrc.yml", "npmAuthToken: \"${NPM_TOKEN}\"\n")
	rc := write(".bashrc", "export GITHUB_TOKEN=abcdefgh12345678\n")
	gitCfg := write("repo/.git/config", "[remote \"origin\"]\n\turl = https://u:pw@example.com/r.git\n")
	plain := write("notes.txt", "export GITHUB_TOKEN=abcdefgh12345678\n")
	var asked []string
	git := func(p string) bool { asked = append(asked, p); return p == gitCfg }
	j := NewJudge()
	for p, want := range map[string]bool{yarn: true, yarnClean: false, rc: true, gitCfg: true, plain: false, "relative/.bashrc": false} {
		if got := j.Holds(p, git); got != want {
			t.Errorf("Holds(%s) = %v, want %v", p, got, want)
		}
	}
	if len(asked) != 1 || asked[0] != gitCfg {
		t.Errorf("git's reader was asked about %v; want only %s", asked, gitCfg)
	}
	if j.Holds(gitCfg, nil) {
		t.Error("without git's reader a git configuration file is taken to hold a credential")
	}
}

// HomeStores names the home's credential places and files, and nothing outside the home.
func TestHomeStoresNamesTheHomesCredentialPlaces(t *testing.T) {
	got := HomeStores("/home/u")
	for _, want := range []string{"/home/u/.ssh", "/home/u/.netrc", "/home/u/.config/gh", "/home/u/.git-credentials", "/home/u/.aws"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not among the home's stores", want)
		}
	}
	for _, p := range got {
		if !strings.HasPrefix(p, "/home/u/") || !Path(p) {
			t.Errorf("%s is outside the home, or not secret", p)
		}
	}
	if HomeStores("relative") != nil {
		t.Error("a relative home has stores")
	}
}
