package permissions

import (
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
)

// The credential stores today's tools write are secret places: reading one asks, jailed or not, by bash
// and by read_file, and so does a recursive read that meets one. Their neighbours without credentials
// stay readable.
func TestTodaysCredentialStoresAsk(t *testing.T) {
	l := newTrustLab(t)
	stores := []string{
		".config/github-copilot/apps.json", ".copilot/config.json", ".codex/auth.json", ".claude/.credentials.json",
		".gemini/oauth_creds.json", ".config/gh/hosts.yml", ".config/sops/age/keys.txt", ".yarnrc.yml",
		".config/pip/pip.conf", ".fly/config.yml", ".config/.wrangler/config/default.toml", ".config/ngrok/ngrok.yml",
		".local/share/atuin/key", ".local/share/atuin/history.db", ".zsh_history", ".local/share/fish/fish_history",
		".viminfo", ".local/state/nvim/shada/main.shada", ".docker/config.json", ".terraform.d/credentials.tfrc.json",
		".gem/credentials", ".config/rclone/rclone.conf", ".gitcookies",
	}
	for _, s := range stores {
		content := "token: SECRET-VALUE\n"
		if s == ".yarnrc.yml" {
			content = "npmAuthToken: abcdef0123456789\n"
		}
		l.write(filepath.Join(l.home, s), content)
	}
	l.write(filepath.Join(l.home, ".claude", "settings.json"), "{}\n")
	l.write(filepath.Join(l.home, ".codex", "config.toml"), "model = \"x\"\n")
	for _, jail := range []bool{false, true} {
		e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, ReadOnlyJail: jail})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stores {
			cmd := "cat ~/" + s
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask || !strings.Contains(v.Reason, "secret") {
				t.Errorf("jail %v: %q: %s (%s), want a question about secrets", jail, cmd, v.Decision, v.Reason)
			}
			if v := e.Decide(Request{Kind: Read, Path: filepath.Join(l.home, s), Cwd: l.ws}); v.Decision != Ask {
				t.Errorf("read_file ~/%s: %s (%s)", s, v.Decision, v.Reason)
			}
		}
		for _, cmd := range []string{"grep -r token ~/.config/github-copilot", "cat ~/.codex/*.json", "head -1 ~/.gemini/oauth_creds.json"} {
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask {
				t.Errorf("jail %v: %q: %s (%s), want ask", jail, cmd, v.Decision, v.Reason)
			}
		}
		for _, cmd := range []string{"cat ~/.claude/settings.json", "cat ~/.codex/config.toml"} {
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); jail && v.Decision != Allow {
				t.Errorf("jail: %q: %s (%s), want allow", cmd, v.Decision, v.Reason)
			}
		}
	}
}

// A file the environment names as a credential (SOPS_AGE_KEY_FILE, GOOGLE_APPLICATION_CREDENTIALS) is
// secret wherever it is.
func TestFilesTheEnvironmentNamesAsCredentialsAreSecret(t *testing.T) {
	l := newTrustLab(t)
	key, sa := filepath.Join(l.home, "keys", "age.txt"), filepath.Join(l.home, "work", "sa.json")
	l.write(key, "AGE-SECRET-KEY-1\n")
	l.write(sa, "{}\n")
	engine := func() *Engine {
		e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, ReadOnlyJail: true})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Setenv("SOPS_AGE_KEY_FILE", "")
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	e := engine()
	for _, p := range []string{key, sa} {
		if v := e.Decide(Request{Kind: Exec, Command: "cat " + p, Cwd: l.ws}); v.Decision != Allow {
			t.Fatalf("cat %s unnamed: %s (%s)", p, v.Decision, v.Reason)
		}
	}
	// The environment is read when an engine is built: it does not change while Warden runs.
	t.Setenv("SOPS_AGE_KEY_FILE", key)
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", sa)
	e = engine()
	for _, p := range []string{key, sa} {
		if v := e.Decide(Request{Kind: Exec, Command: "cat " + p, Cwd: l.ws}); v.Decision != Ask {
			t.Errorf("cat %s named by the environment: %s (%s), want ask", p, v.Decision, v.Reason)
		}
		if !shell.IsSecretPath(p, l.home) {
			t.Errorf("%s is not secret for the jail", p)
		}
	}
}

// A shell start-up file is secret when, and only when, it holds a line that sets a token: a clean
// ~/.bashrc is read unasked; one with `export X_TOKEN=...` asks, also through a login shell, which
// prints what the file exports. The jail hides it then (a login shell in the jail cannot source it).
func TestStartupFileTokenLineMakesReadingItAsk(t *testing.T) {
	l := newTrustLab(t)
	bashrc := filepath.Join(l.home, ".bashrc")
	clean := "# ~/.bashrc\nexport PATH=\"$HOME/bin:$PATH\"\nalias ll='ls -la'\nexport GITHUB_TOKEN=$(cat ~/.gh-token 2>/dev/null)\nKEYTIMEOUT=1\n"
	l.write(bashrc, clean)
	l.write(filepath.Join(l.home, ".bash_profile"), "[ -f ~/.bashrc ] && . ~/.bashrc\n")
	l.write(filepath.Join(l.home, ".config", "fish", "config.fish"), "set -gx EDITOR vim\n")
	reads := []string{"cat ~/.bashrc", "grep -n export ~/.bashrc", "head ~/.bashrc", "bash -lc env", "bash --login -c 'echo hi'",
		"cat ~/.config/fish/config.fish"}
	for _, jail := range []bool{false, true} {
		e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, ReadOnlyJail: jail})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range reads {
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Allow {
				t.Errorf("jail %v: %q with a clean start-up file: %s (%s), want allow", jail, cmd, v.Decision, v.Reason)
			}
		}
	}
	if shell.IsSecretPath(bashrc, l.home) {
		t.Error("a clean .bashrc is hidden from the jail")
	}

	l.write(bashrc, clean+"export X_TOKEN=planted-0123456789abcdef\n")
	l.write(filepath.Join(l.home, ".config", "fish", "config.fish"), "set -gx EDITOR vim\nset -gx MY_API_KEY planted-fish-0123456789\n")
	if out, _ := l.run("", "bash -lc env"); !strings.Contains(out, "planted-0123456789abcdef") {
		t.Fatalf("a login shell does not print the token, the vector is not live: %s", out)
	}
	for _, jail := range []bool{false, true} {
		e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, ReadOnlyJail: jail})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range reads {
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask {
				t.Errorf("jail %v: %q with a token line: %s (%s), want ask", jail, cmd, v.Decision, v.Reason)
			}
		}
		if v := e.Decide(Request{Kind: Read, Path: bashrc, Cwd: l.ws}); v.Decision != Ask {
			t.Errorf("read_file ~/.bashrc with a token line: %s (%s)", v.Decision, v.Reason)
		}
	}
	if !shell.IsSecretPath(bashrc, l.home) {
		t.Error("a .bashrc with a token line is not hidden from the jail")
	}
}

// yarn's configuration asks when a token is written into it, not when it names a variable.
func TestYarnrcAsksOnlyWithAWrittenToken(t *testing.T) {
	l := newTrustLab(t)
	l.write(".yarnrc.yml", "nodeLinker: node-modules\nnpmAuthToken: \"${NPM_TOKEN}\"\n")
	e := l.engine()
	if v := e.Decide(Request{Kind: Exec, Command: "cat .yarnrc.yml", Cwd: l.ws}); v.Decision != Allow {
		t.Errorf("a .yarnrc.yml naming a variable: %s (%s)", v.Decision, v.Reason)
	}
	l.write(".yarnrc.yml", "nodeLinker: node-modules\nnpmRegistries:\n  \"https://npm.corp\":\n    npmAuthToken: planted0123456789\n")
	if v := e.Decide(Request{Kind: Exec, Command: "cat .yarnrc.yml", Cwd: l.ws}); v.Decision != Ask {
		t.Errorf("a .yarnrc.yml with a token: %s (%s)", v.Decision, v.Reason)
	}
	if shell.IsSecretPath(filepath.Join(l.ws, ".yarnrc.yml"), l.home) {
		t.Error("the jail would hide the configuration yarn must read")
	}
}

// git configuration that carries a credential makes every read that prints it secret: cat, grep -r, git
// config's listings and gets, git var -l, git remote -v and get-url (which print URLs after insteadOf
// rewrote them). What prints none of it stays unasked, and the jail keeps the file, which git needs.
func TestGitCredentialKeysMakeTheirPrintingSecret(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.write(filepath.Join(l.home, ".gitconfig"), "[user]\n\tname = someone\n")
	l.sh("", "git remote add origin https://github.com/o/r.git")
	e := l.engine()
	quiet := []string{"git status", "git log --oneline", "git config --get user.name", "git config user.name",
		"git config --get remote.origin.url", "git remote -v", "git remote get-url origin", "git remote", "git var GIT_EDITOR",
		"git config -l", "git var -l", "cat .git/config", "grep -rn one ."}
	for _, cmd := range quiet {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Allow {
			t.Errorf("%q in a repository without credentials: %s (%s)", cmd, v.Decision, v.Reason)
		}
	}

	// The header actions/checkout leaves behind.
	l.sh("", `git config http.https://github.com/.extraheader "AUTHORIZATION: basic cGxhbnRlZC1leHRyYWhlYWRlcg=="`)
	for _, cmd := range []string{"cat .git/config", "git config -l", "git config --list", "git config --local -l",
		"git config --get-regexp http", "git config --get http.https://github.com/.extraheader",
		"git config --get-urlmatch http.extraheader https://github.com/o/r", "git var -l", "grep -ri authorization .",
		"grep -rn basic .", "git config -f .git/config --list", "git config --show-origin --get-regexp .",
		"find .git -name config -exec cat {} +", "grep -r basic .git", "bash -c 'cat .git/config'"} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask {
			t.Errorf("%q with an extraheader: %s (%s), want ask", cmd, v.Decision, v.Reason)
		}
		if out, _ := l.run("", cmd); !strings.Contains(out, "cGxhbnRlZC1leHRyYWhlYWRlcg") {
			t.Errorf("%q does not print the header, the vector is not live: %s", cmd, out)
		}
	}
	for _, cmd := range []string{"git status", "git log --oneline", "git config --get user.name", "git config --get remote.origin.url",
		"git remote -v", "git var GIT_EDITOR", "rg -n one ."} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Allow {
			t.Errorf("%q prints no credential: %s (%s)", cmd, v.Decision, v.Reason)
		}
	}
	if v := e.Decide(Request{Kind: Read, Path: filepath.Join(l.ws, ".git", "config"), Cwd: l.ws}); v.Decision != Ask {
		t.Errorf("read_file .git/config with an extraheader: %s (%s)", v.Decision, v.Reason)
	}
	if shell.IsSecretPath(filepath.Join(l.ws, ".git", "config"), l.home) {
		t.Error("the jail would hide the configuration git must read")
	}

	// A password in a remote's URL.
	l.sh("", "git config --unset http.https://github.com/.extraheader && git remote set-url origin https://u:planted-remote-pw@example.com/r.git")
	for _, cmd := range []string{"git remote -v", "git remote --verbose", "git remote get-url origin", "git remote show -n origin",
		"git config --get remote.origin.url", "cat .git/config"} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask {
			t.Errorf("%q with a password in the remote's URL: %s (%s), want ask", cmd, v.Decision, v.Reason)
		}
		if out, _ := l.run("", cmd); !strings.Contains(out, "planted-remote-pw") {
			t.Errorf("%q does not print the password, the vector is not live: %s", cmd, out)
		}
	}
	if v := e.Decide(Request{Kind: Exec, Command: "git remote", Cwd: l.ws}); v.Decision != Allow {
		t.Errorf("git remote prints only names: %s (%s)", v.Decision, v.Reason)
	}

	// A rewriting base with a token, in the user's configuration: git remote -v prints the rewritten URL.
	l.sh("", "git remote set-url origin https://github.com/o/r.git")
	l.write(filepath.Join(l.home, ".gitconfig"), "[user]\n\tname = someone\n[url \"https://x-access-token:planted-insteadof@github.com/\"]\n\tinsteadOf = https://github.com/\n")
	for _, cmd := range []string{"git remote -v", "git remote get-url origin", "git config -l", "cat ~/.gitconfig",
		"git config --global --get-regexp url"} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != Ask {
			t.Errorf("%q with a token in an insteadOf base: %s (%s), want ask", cmd, v.Decision, v.Reason)
		}
		if out, _ := l.run("", cmd); !strings.Contains(out, "planted-insteadof") {
			t.Errorf("%q does not print the token, the vector is not live: %s", cmd, out)
		}
	}
	if v := e.Decide(Request{Kind: Exec, Command: "git config --get user.name", Cwd: l.ws}); v.Decision != Allow {
		t.Errorf("git config --get user.name beside an insteadOf with a token: %s (%s)", v.Decision, v.Reason)
	}
}
