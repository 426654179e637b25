package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// The credential stores of today's tools are secret by their name and place, under any home; their
// neighbours that hold no credential are not.
func TestPathKnowsTodaysCredentialStores(t *testing.T) {
	for _, p := range []string{
		// AI assistants and Copilot.
		"/home/u/.config/github-copilot/hosts.json", "/home/u/.config/github-copilot/apps.json",
		"/home/u/.copilot/config.json", "/home/u/.copilot/mcp-oauth-config/srv.tokens.json",
		"/home/u/.codex/auth.json", "/home/u/.claude/.credentials.json", "/home/u/.claude.json",
		"/home/u/.gemini/oauth_creds.json", "/home/u/.gemini/mcp-oauth-tokens.json", "/home/u/.codeium/config.json",
		"/home/u/.cache/huggingface/token", "/home/u/.config/io.datasette.llm/keys.json",
		"/home/u/.claude/projects/-home-u-proj/abc.jsonl", "/home/u/.codex/sessions/2025/01/01/r.jsonl",
		// Forges, deployment tools, registries.
		"/home/u/.config/gh/hosts.yml", "/home/u/.config/glab-cli/config.yml", "/home/u/.fly/config.yml",
		"/home/u/.wrangler/config/default.toml", "/home/u/.config/.wrangler/config/default.toml",
		"/home/u/.config/ngrok/ngrok.yml", "/home/u/Library/Application Support/ngrok/ngrok.yml",
		"/home/u/.docker/config.json", "/home/u/.config/rclone/rclone.conf", "/home/u/.terraform.d/credentials.tfrc.json",
		"/home/u/.terraformrc", "/home/u/.gem/credentials", "/home/u/.cargo/credentials.toml",
		"/home/u/.config/pypoetry/auth.toml", "/home/u/.config/pip/pip.conf", "/home/u/.npmrc",
		"/home/u/.config/configstore/firebase-tools.json", "/home/u/.gitcookies",
		// sops and age.
		"/home/u/.config/sops/age/keys.txt", "/home/u/Library/Application Support/sops/age/keys.txt",
		// Histories and editors' memories.
		"/home/u/.bash_history", "/home/u/.zsh_history", "/home/u/.local/share/fish/fish_history",
		"/home/u/.local/share/atuin/key", "/home/u/.local/share/atuin/history.db", "/home/u/.local/share/atuin/session",
		"/home/u/.viminfo", "/home/u/.local/state/nvim/shada/main.shada", "/home/u/.config/nushell/history.txt",
		"/home/u/.local/share/powershell/PSReadLine/ConsoleHost_history.txt", "/home/u/.lesshst",
		// What was known before.
		"/home/u/.secrets", "/home/u/.ssh/id_ed25519", "/home/u/proj/.env", "/home/u/proj/.env.local", "/etc/shadow", "/run/secrets/db",
		"~/.aws/credentials", ".ssh/config", "/etc/ssh/ssh_host_rsa_key", "/etc/wireguard/wg0.conf",
	} {
		if !Path(p) {
			t.Errorf("%s is not secret", p)
		}
	}
	for _, p := range []string{
		"/home/u/.ssh/id_ed25519.pub", "/home/u/proj/.env.example", "/home/u/proj/main.go",
		"/home/u/.config/ghostty/config", "/home/u/.copilot/settings.md", "/home/u/.fly/bin/flyctl",
		"/home/u/.claude/skills/x/SKILL.md", "/home/u/.claude/settings.json", "/home/u/.codex/config.toml",
		"/home/u/.config/sops/config.yaml", "/home/u/.gemini/settings.json", "/home/u/.config/nushell/config.nu",
		"/home/u/proj/environment/gh/hosts.yml", "/home/u/proj/docs/history.txt", "/etc/ssh/ssh_host_rsa_key.pub",
		"/home/u/.sshx/id", "/home/u/x.ssh/y", "",
	} {
		if Path(p) {
			t.Errorf("%s is secret", p)
		}
	}
}

func TestNameSaysSecret(t *testing.T) {
	for _, n := range []string{"OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PWD",
		"NPM_CONFIG__AUTH", "GITHUB_PAT", "SENTRY_DSN", "BW_SESSION", "OP_SESSION_my", "SLACK_WEBHOOK_URL",
		"AZURE_STORAGE_CONNECTION_STRING", "CARGO_REGISTRY_TOKEN", "github_token"} {
		if !Name(n) {
			t.Errorf("%s does not look secret", n)
		}
	}
	for _, n := range []string{"PATH", "PWD", "OLDPWD", "GIT_AUTHOR_NAME", "HOME", "GOPATH", "PASSAGE_DIR", "MANPATH",
		"CARGO_HOME", "SESSIONS_DIR"} {
		if Name(n) {
			t.Errorf("%s looks secret", n)
		}
	}
}

func TestValueFindsCredentialsByTheirForm(t *testing.T) {
	for _, v := range []string{
		"postgres://app:hunter2@db:5432/app", "redis://:hunter2@localhost:6379", "https://ghp_token@github.com/o/r.git",
		"http://user:pass@proxy.corp:3128", "https://abc123@o1.ingest.sentry.io/1",
		"https://hooks.slack.com/services/T000/B000/XXXXXXXX", "https://discord.com/api/webhooks/123/abc",
		"https://discordapp.com/api/webhooks/123/abc", "https://corp.webhook.office.com/webhookb2/x",
		"https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t", "https://api.telegram.org/bot123:ABC/sendMessage",
		"https://bucket.s3.amazonaws.com/f?X-Amz-Signature=abcdef0123456789", "https://x.blob.core.windows.net/c?sv=2020&sig=abcdefgh12",
		"ghp_" + strings.Repeat("a", 36), "github_pat_" + strings.Repeat("B", 40), "glpat-" + strings.Repeat("x", 20),
		"xoxb-1234-5678-abcdefghij", "sk-proj-" + strings.Repeat("z", 30), "sk-ant-api03-" + strings.Repeat("q", 40),
		"AKIAIOSFODNN7EXAMPLE", "AIza" + strings.Repeat("0", 35), "npm_" + strings.Repeat("n", 36),
		"hf_" + strings.Repeat("h", 34), "Bearer " + strings.Repeat("t", 20), "Authorization: Basic dXNlcjpwYXNzd29yZA==",
		"-----BEGIN OPENSSH PRIVATE KEY-----", "AGE-SECRET-KEY-1" + strings.Repeat("Q", 58),
		"DefaultEndpointsProtocol=https;AccountName=a;AccountKey=" + strings.Repeat("k", 40),
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmno",
		"experimental-features = nix-command\naccess-tokens = git.corp.example=opaque123",
	} {
		if !Value(v) {
			t.Errorf("%q is not taken for a credential", v)
		}
	}
	for _, v := range []string{
		"/usr/local/bin:/usr/bin:/bin", "https://example.com/a@b", "ssh://git@github.com/o/r.git", "git@github.com:o/r.git",
		"https://proxy.corp:3128", "en_US.UTF-8", "/home/u/.cache/task-runner-aaaaaaaaaaaaaaaaaaaaaaa", "xterm-256color",
		"https://example.com/search?q=hello+world", "https://hooks.example.com/services/x", "-mod=vendor",
	} {
		if Value(v) {
			t.Errorf("%q is taken for a credential", v)
		}
	}
}

func TestTokenLineFindsAssignedSecrets(t *testing.T) {
	for _, l := range []string{
		"export GITHUB_TOKEN=abcdef0123456789", `export OPENAI_API_KEY="sk-live-anything-goes-here"`,
		"  export MY_SERVICE_TOKEN='Zm9vYmFyYmF6cXV4'", "X_TOKEN=abcdefgh12345678", "declare -x NPM_TOKEN=abcdefgh1234",
		"typeset -gx ANTHROPIC_API_KEY=abcdefgh1234", "setenv GITLAB_TOKEN abcdefgh1234", "set -gx HF_TOKEN abcdefgh1234",
		"set -Ux BW_SESSION abcdefghijklmnop==", `SETUVAR --export MY_TOKEN:abcdefgh1234`, `$env.MY_API_KEY = "abcdefgh1234"`,
		"MY_PASSWORD DEFAULT=abcdefgh1234", "# export OLD_TOKEN=abcdefgh1234", "export A=1 B_TOKEN=abcdefgh1234",
		"alias deploy='curl -H \"Authorization: Bearer abcdefghijklmnopqrst\" https://x'",
		"launchctl setenv MY_TOKEN abcdefgh1234", "alias deploy='DEPLOY_TOKEN=abcdefgh1234 ./deploy.sh'",
		"[ -n \"$CI\" ] || export NPM_TOKEN=abcdefgh1234",
		"export SLACK_URL=https://hooks.slack.com/services/T0/B0/abcdefgh",
	} {
		if !TokenLine(l) {
			t.Errorf("%q does not give a secret away", l)
		}
	}
	for _, l := range []string{
		"export PATH=$HOME/bin:$PATH", "export GITHUB_TOKEN=$(gh auth token)", "export OPENAI_API_KEY=`pass show openai`",
		`export NPM_TOKEN="${NPM_TOKEN:-}"`, "KEYTIMEOUT=1", `export SSH_KEY_PATH="~/.ssh/rsa_id"`,
		"export GOOGLE_APPLICATION_CREDENTIALS=/home/u/sa.json", "export EDITOR=vim", "# The TOKEN: see the wiki page",
		"export GITHUB_TOKEN=", `export GITHUB_TOKEN=""`, "if [ \"$TOKEN\" == \"abcdefgh1234\" ]; then", "set -o vi",
		"source ~/.secrets", "export HISTCONTROL=ignoreboth:erasedups", "# PASSWORD requirements: at least eight characters",
		"export SSH_AUTH_SOCK=\"$XDG_RUNTIME_DIR/ssh-agent.socket\"", "zstyle ':completion:*' menu select",
	} {
		if TokenLine(l) {
			t.Errorf("%q is taken for a secret", l)
		}
	}
}

func TestStartupFileByName(t *testing.T) {
	for _, p := range []string{"/home/u/.bashrc", "/home/u/.zshrc", "/home/u/.profile", "/home/u/.bash_profile",
		"/home/u/.zshenv", "/home/u/.config/fish/config.fish", "/home/u/.config/fish/fish_variables",
		"/home/u/.config/fish/conf.d/tokens.fish", "/home/u/.bashrc.d/work.sh", "/home/u/.oh-my-zsh/custom/env.zsh",
		"/home/u/.zshrc.local", "/etc/profile", "/etc/profile.d/proxy.sh", "/etc/environment", "/etc/zsh/zshenv",
		"/home/u/.config/nushell/env.nu", "/home/u/.pam_environment", "/home/u/.config/environment.d/10-tokens.conf",
		"/home/u/dotfiles/bashrc", "/home/u/.dotfiles/zsh/zshrc"} {
		if !StartupFile(p) {
			t.Errorf("%s is not a start-up file", p)
		}
	}
	for _, p := range []string{"/home/u/proj/profile", "/home/u/proj/environment", "/home/u/proj/conf.d/x.conf",
		"/home/u/proj/custom/x.go", "/home/u/proj/main.go", "/home/u/proj/bashrc.md"} {
		if StartupFile(p) {
			t.Errorf("%s is a start-up file", p)
		}
	}
}

// A start-up file is judged by what it holds, and judged again when it changes.
func TestHoldsSecretFollowsTheFile(t *testing.T) {
	j := NewJudge()
	dir := t.TempDir()
	rc := filepath.Join(dir, ".bashrc")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(rc, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clean := "# .bashrc\nexport PATH=$HOME/bin:$PATH\nalias ll='ls -la'\nexport GITHUB_TOKEN=$(gh auth token)\n"
	write(clean)
	if j.HoldsSecret(rc) {
		t.Fatal("a clean .bashrc holds a token")
	}
	write(clean + "export X_TOKEN=abcdefgh12345678\n")
	if !j.HoldsSecret(rc) {
		t.Fatal("the token line is not found")
	}
	write(clean)
	// The same size and, on a coarse clock, the same modification time: the change time still moves.
	if j.HoldsSecret(rc) {
		t.Fatal("the old answer was kept after the line went")
	}
	// Past the bound is not read.
	write(strings.Repeat("# padding line\n", maxContentRead/15+1) + "export X_TOKEN=abcdefgh12345678\n")
	if j.HoldsSecret(rc) {
		t.Error("a line past the read bound was read")
	}
	if j.HoldsSecret(filepath.Join(dir, "missing")) {
		t.Error("a missing file holds a token")
	}
}

// A FIFO standing where a start-up file is expected is never opened for reading: judging it must not wait.
func TestHoldsSecretDoesNotWaitOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".bashrc")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { done <- NewJudge().HoldsSecret(fifo) }()
	select {
	case holds := <-done:
		if holds {
			t.Error("a FIFO holds a token")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("judging a FIFO waited for a writer")
	}
}

// Each Judge remembers what it judged, and nothing another Judge judged, and never more files than its
// bound; a file it forgot is judged again, alike.
func TestJudgesKeepTheirAnswersToThemselvesWithinABound(t *testing.T) {
	dir := t.TempDir()
	file := func(i int) string { return filepath.Join(dir, fmt.Sprintf("rc%d", i)) }
	for i := range maxJudged + 10 {
		line := "export PATH=$HOME/bin:$PATH\n"
		if i%2 == 1 {
			line = "export X_TOKEN=abcdefgh12345678\n"
		}
		if err := os.WriteFile(file(i), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	one, other := NewJudge(), NewJudge()
	if !one.HoldsSecret(file(1)) || one.judged.Len() != 1 || other.judged.Len() != 0 {
		t.Fatalf("after one Judge judged one file: it holds %d answers, the other %d", one.judged.Len(), other.judged.Len())
	}
	for i := range maxJudged + 10 {
		if got := one.HoldsSecret(file(i)); got != (i%2 == 1) {
			t.Fatalf("%s: %v", file(i), got)
		}
	}
	if one.judged.Len() != maxJudged || other.judged.Len() != 0 {
		t.Errorf("after %d files the Judge holds %d answers (its bound is %d), the other %d", maxJudged+10,
			one.judged.Len(), maxJudged, other.judged.Len())
	}
	if _, held := one.judged.Get(file(0)); held || one.HoldsSecret(file(0)) || !one.HoldsSecret(file(1)) {
		t.Error("the first files judged were kept past the bound, or judged otherwise when judged again")
	}
}

func TestGitConfigEntryCarriesCredentials(t *testing.T) {
	yes := map[string]string{
		"http.https://github.com/.extraheader":                 "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz",
		"http.extraheader":                                     "X-Anything: 1",
		"url.https://x-access-token:tok@github.com/.insteadof": "https://github.com/",
		"url.https://ghp_abc@github.com/.pushinsteadof":        "git@github.com:",
		"remote.origin.url":                                    "https://user:hunter2@example.com/r.git",
		"remote.origin.pushurl":                                "https://oauth2:tok@gitlab.com/r.git",
		"sendemail.smtppass":                                   "hunter2",
		"github.token":                                         "abc",
		"pypi.password":                                        "x",
		"http.proxy":                                           "http://u:p@proxy:3128",
		"credential.helper":                                    "!f() { echo password=" + "ghp_" + strings.Repeat("a", 36) + "; }; f",
		"credential.https://git.corp.helper":                   "!f() { echo username=me; echo password=hunter2hunter; }; f",
	}
	for k, v := range yes {
		if !GitConfigEntry(k, v) {
			t.Errorf("%s = %q carries no credential", k, v)
		}
	}
	for k, v := range map[string]string{
		"remote.origin.url": "https://github.com/o/r.git", "user.signingkey": "ABCDEF0123456789",
		"url.git@github.com:.insteadof": "https://github.com/", "credential.helper": "store",
		"credential.https://github.com.username": "me", "credential.https://x.helper": "!f() { echo password=$GIT_PW; }; f", "http.cookiefile": "~/.gitcookies", "core.editor": "vim",
		"user.name": "Someone",
	} {
		if GitConfigEntry(k, v) {
			t.Errorf("%s = %q carries a credential", k, v)
		}
	}
}

func TestGitConfigFileByName(t *testing.T) {
	for _, p := range []string{"/w/.git/config", ".git/config", "/w/.git/modules/sub/config", "/srv/r.git/config",
		"/home/u/.gitconfig", "/home/u/.gitconfig.local", "/home/u/.config/git/config", "/etc/gitconfig",
		"/w/.git/worktrees/x/config.worktree"} {
		if !GitConfigFile(p) {
			t.Errorf("%s is not a git configuration file", p)
		}
	}
	for _, p := range []string{"/w/config", "/w/src/config", "/w/.gitignore", "/w/.git/HEAD"} {
		if GitConfigFile(p) {
			t.Errorf("%s is a git configuration file", p)
		}
	}
}

func TestEnvPathsNamesTheTargets(t *testing.T) {
	env := map[string]string{"SOPS_AGE_KEY_FILE": "/home/u/keys/age.txt", "KUBECONFIG": "/a/k1:/b/k2:relative",
		"DOCKER_CONFIG": "/home/u/dock", "GNUPGHOME": "rel"}
	got := EnvPaths(func(n string) string { return env[n] })
	want := []string{"/home/u/keys/age.txt", "/a/k1", "/b/k2", "/home/u/dock"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("EnvPaths = %v, want %v", got, want)
	}
}
