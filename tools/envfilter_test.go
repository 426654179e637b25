package tools

import (
	"slices"
	"strings"
	"testing"
)

// envOf returns childEnv's answer as a map, failing on a variable set twice.
func envOf(t *testing.T, base []string, settings BashSettings) map[string]string {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range childEnv(base, settings, "/work") {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := vars[k]; dup {
			t.Errorf("%s set twice", k)
		}
		vars[k] = v
	}
	return vars
}

// The child environment passes what the allow-list names and nothing else: an unknown variable is
// left out whatever it is called, a toolchain family's member only when its name does not say secret.
func TestChildEnvIsAnAllowList(t *testing.T) {
	t.Parallel()
	base := []string{
		"PATH=/usr/bin", "HOME=/home/u", "USER=u", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC", "TMPDIR=/tmp/u",
		"XDG_CONFIG_HOME=/home/u/.config", "GOPATH=/home/u/go", "GOFLAGS=-mod=vendor", "CARGO_HOME=/home/u/.cargo",
		"CARGO_TARGET_DIR=/tmp/t", "RUSTUP_HOME=/home/u/.rustup", "VIRTUAL_ENV=/w/.venv", "CONDA_PREFIX=/opt/conda",
		"JAVA_HOME=/usr/lib/jvm/x", "NVM_DIR=/home/u/.nvm", "PYENV_ROOT=/home/u/.pyenv", "SSH_AUTH_SOCK=/run/user/1/ssh",
		"HTTPS_PROXY=http://proxy.corp:3128", "NO_PROXY=localhost", "GIT_AUTHOR_NAME=A", "AWS_PROFILE=dev",
		"PWD=/old", "PAGER=less", "EDITOR=vim",
		// Not on the list.
		"KEEP=1", "BW_SESSION=bXlzZXNzaW9ua2V5", "VSCODE_GIT_IPC_HANDLE=/run/vscode-git.sock", "GIT_ASKPASS=/opt/code/askpass.sh",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus", "DISPLAY=:0", "OPENAI_API_KEY=sk-x", "GITHUB_TOKEN=t",
		"DATABASE_URL=postgres://app:hunter2@db/app", "OLDPWD=/prev", "MAIL=/var/mail/u", "GIT_DIR=/elsewhere/.git",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.extraheader", "GIT_CONFIG_VALUE_0=Authorization: Bearer x",
		"BUNDLE_GEMS__CONTRIBSYS__COM=user:pass",
		// Families whose member looks secret by its name.
		"CARGO_REGISTRY_TOKEN=c", "NPM_CONFIG__AUTH=dXNlcjpwYXNz", "npm_config__authToken=n", "HOMEBREW_GITHUB_API_TOKEN=h",
		"UV_INDEX_CORP_PASSWORD=p", "POETRY_HTTP_BASIC_CORP_PASSWORD=p",
		// What changes how bash itself runs, and functions exported to it.
		"CDPATH=/etc", "BASH_ENV=/tmp/evil.sh", "ENV=/tmp/evil.sh", "SHELLOPTS=xtrace", "BASH_FUNC_ls%%=() {  rm -rf ~",
		"POSIXLY_CORRECT=1", "BASH_COMPAT=3.2", "TMOUT=1", "PROMPT_COMMAND=touch /tmp/x",
	}
	vars := envOf(t, base, BashSettings{})
	for k, want := range map[string]string{
		"PATH": "/usr/bin", "HOME": "/home/u", "USER": "u", "LANG": "C.UTF-8", "LC_ALL": "C", "TZ": "UTC", "TMPDIR": "/tmp/u",
		"XDG_CONFIG_HOME": "/home/u/.config", "GOPATH": "/home/u/go", "GOFLAGS": "-mod=vendor", "CARGO_HOME": "/home/u/.cargo",
		"CARGO_TARGET_DIR": "/tmp/t", "RUSTUP_HOME": "/home/u/.rustup", "VIRTUAL_ENV": "/w/.venv", "CONDA_PREFIX": "/opt/conda",
		"JAVA_HOME": "/usr/lib/jvm/x", "NVM_DIR": "/home/u/.nvm", "PYENV_ROOT": "/home/u/.pyenv", "SSH_AUTH_SOCK": "/run/user/1/ssh",
		"HTTPS_PROXY": "http://proxy.corp:3128", "NO_PROXY": "localhost", "GIT_AUTHOR_NAME": "A", "AWS_PROFILE": "dev",
		"PWD": "/work", "WARDEN": "1", "PAGER": "cat", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "TERM": "dumb",
	} {
		if got, ok := vars[k]; !ok || got != want {
			t.Errorf("%s = %q (set: %v), want %q", k, got, ok, want)
		}
	}
	for _, gone := range []string{"KEEP", "BW_SESSION", "VSCODE_GIT_IPC_HANDLE", "GIT_ASKPASS", "DBUS_SESSION_BUS_ADDRESS",
		"DISPLAY", "OPENAI_API_KEY", "GITHUB_TOKEN", "DATABASE_URL", "OLDPWD", "MAIL", "GIT_DIR", "GIT_CONFIG_COUNT",
		"GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "BUNDLE_GEMS__CONTRIBSYS__COM", "CARGO_REGISTRY_TOKEN", "NPM_CONFIG__AUTH",
		"npm_config__authToken", "HOMEBREW_GITHUB_API_TOKEN", "UV_INDEX_CORP_PASSWORD", "POETRY_HTTP_BASIC_CORP_PASSWORD",
		"CDPATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASH_FUNC_ls%%", "POSIXLY_CORRECT", "BASH_COMPAT", "TMOUT", "PROMPT_COMMAND"} {
		if _, ok := vars[gone]; ok {
			t.Errorf("%s reached the child", gone)
		}
	}
	if !strings.Contains(vars["EDITOR"], "exit 1") {
		t.Errorf("EDITOR = %q, want an editor that fails", vars["EDITOR"])
	}
}

// Values are judged even under names the list allows: a proxy or an index URL with a password, a
// webhook URL, a token of a known form, the API key.
func TestChildEnvDropsSecretValuesOfAllowedNames(t *testing.T) {
	t.Parallel()
	base := []string{
		"HTTPS_PROXY=http://corp%5Cu:hunter2@proxy.corp:3128", "PIP_INDEX_URL=https://u:pw@pypi.corp/simple",
		"GOPROXY=https://tok@goproxy.corp", "CI=https://hooks.slack.com/services/T000/B000/XXXX",
		"NODE_OPTIONS=--require /x --header=https://discord.com/api/webhooks/1/abc",
		"GOFLAGS=-ldflags=-X=main.key=ghp_" + strings.Repeat("a", 36), "LANG=sk-the-api-key-123456",
		"XDG_CONFIG_HOME=/home/u/.config", "http_proxy=http://proxy.corp:3128",
	}
	vars := envOf(t, base, BashSettings{Secrets: []string{"sk-the-api-key-123456"}})
	for _, gone := range []string{"HTTPS_PROXY", "PIP_INDEX_URL", "GOPROXY", "CI", "NODE_OPTIONS", "GOFLAGS", "LANG"} {
		if v, ok := vars[gone]; ok {
			t.Errorf("%s=%s reached the child", gone, v)
		}
	}
	for _, kept := range []string{"XDG_CONFIG_HOME", "http_proxy"} {
		if _, ok := vars[kept]; !ok {
			t.Errorf("%s was removed", kept)
		}
	}
}

// bash.env's "NAME" passes a variable the list leaves out, whatever its name or value look like, and
// "-NAME" drops one it passes; neither brings back a value holding the API key.
func TestChildEnvTakesTheSettingsAdditions(t *testing.T) {
	t.Parallel()
	base := []string{"MY_TOOL_TOKEN=t", "KEEP=1", "AWS_PROFILE=dev", "HTTPS_PROXY=http://u:p@proxy:3128", "CDPATH=/src",
		"OPENAI_API_KEY=sk-the-api-key-123456", "HEADER=Bearer sk-the-api-key-123456", "PATH=/usr/bin", "GITHUB_TOKEN=x"}
	vars := envOf(t, base, BashSettings{
		Secrets: []string{"sk-the-api-key-123456"},
		Env:     []string{"MY_TOOL_TOKEN", "KEEP", "-AWS_PROFILE", "HTTPS_PROXY", "CDPATH", "OPENAI_API_KEY", "HEADER", "-PATH", ""},
	})
	for k, want := range map[string]string{"MY_TOOL_TOKEN": "t", "KEEP": "1", "HTTPS_PROXY": "http://u:p@proxy:3128", "CDPATH": "/src"} {
		if vars[k] != want {
			t.Errorf("%s = %q, want %q", k, vars[k], want)
		}
	}
	for _, gone := range []string{"AWS_PROFILE", "OPENAI_API_KEY", "HEADER", "PATH", "GITHUB_TOKEN"} {
		if _, ok := vars[gone]; ok {
			t.Errorf("%s reached the child", gone)
		}
	}
}

// The permission engine's look-up sees what commands get, and Warden's helpers get the list alone.
func TestChildLookupAndHelperEnvFollowTheList(t *testing.T) {
	t.Setenv("GIT_DIR", "/elsewhere/.git")
	t.Setenv("GIT_CONFIG_GLOBAL", "/home/u/.gitconfig-work")
	t.Setenv("MY_TOOL_TOKEN", "t")
	look := ChildLookup(BashSettings{Env: []string{"MY_TOOL_TOKEN"}})
	if v, ok := look("GIT_DIR"); ok {
		t.Errorf("the engine sees GIT_DIR=%s, which commands do not get", v)
	}
	if v, _ := look("GIT_CONFIG_GLOBAL"); v != "/home/u/.gitconfig-work" {
		t.Errorf("GIT_CONFIG_GLOBAL = %q", v)
	}
	if v, _ := look("GIT_CONFIG_PARAMETERS"); !strings.Contains(v, "safe.bareRepository") {
		t.Errorf("the engine does not see the fixed GIT_CONFIG_PARAMETERS: %q", v)
	}
	if v, _ := look("MY_TOOL_TOKEN"); v != "t" {
		t.Errorf("a variable bash.env passes is not seen: %q", v)
	}
	if slices.ContainsFunc(NewEnv(t.TempDir(), "").HelperEnv(), func(kv string) bool {
		return strings.HasPrefix(kv, "MY_TOOL_TOKEN=") || strings.HasPrefix(kv, "GIT_DIR=")
	}) {
		t.Error("a helper program gets what the list leaves out")
	}
}

// An Env remembers the environments it filtered, and what it remembers follows Warden's environment and
// the settings as they change; the answer it shares has no room to spare, so an append copies it.
func TestTheRememberedEnvironmentFollowsItsSources(t *testing.T) {
	t.Setenv("GOFLAGS", "-first")
	t.Setenv("MY_TOOL_TOKEN", "t")
	env := NewEnv(t.TempDir(), "")
	has := func(vars []string, kv string) bool { return slices.Contains(vars, kv) }
	if got := env.ChildEnv("/w"); !has(got, "GOFLAGS=-first") || !has(got, "PWD=/w") || has(got, "MY_TOOL_TOKEN=t") {
		t.Fatalf("first environment: %v", got)
	}
	t.Setenv("GOFLAGS", "-second")
	if got := env.ChildEnv("/w"); !has(got, "GOFLAGS=-second") || has(got, "GOFLAGS=-first") {
		t.Errorf("after GOFLAGS changed the command still gets %v", got)
	}
	env.Bash.Env = []string{"MY_TOOL_TOKEN"}
	if got := env.ChildEnv("/w"); !has(got, "MY_TOOL_TOKEN=t") {
		t.Errorf("after bash.env named MY_TOOL_TOKEN the command does not get it: %v", got)
	}
	if got := env.HelperEnv(); has(got, "MY_TOOL_TOKEN=t") {
		t.Error("Warden's own programs get what bash.env adds for commands")
	}
	if shared := env.HelperEnv(); cap(shared) != len(shared) {
		t.Error("the remembered environment has room to spare, so one caller's append writes into the next one's")
	}
}
