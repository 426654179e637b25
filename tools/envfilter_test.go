package tools

import (
	"slices"
	"strings"
	"testing"
)

func TestChildEnv(t *testing.T) {
	t.Parallel()
	base := []string{
		"PATH=/usr/bin", "HOME=/home/u", "FOO_API_KEY=k1", "GITHUB_TOKEN=t", "AWS_SECRET_ACCESS_KEY=s",
		"DB_PASSWORD=p", "GOOGLE_APPLICATION_CREDENTIALS=/c.json", "MY_CONFIG=sk-the-api-key-123",
		"HEADER=Bearer sk-the-api-key-123", "KEEP=1", "DROP_ME=1", "PAGER=less", "PWD=/old", "EDITOR=vim",
		"DATABASE_URL=postgres://app:hunter2@db:5432/app", "SITE_URL=https://example.com/a@b", "CDPATH=/etc",
		"BASH_ENV=/tmp/evil.sh", "SHELLOPTS=xtrace", "BASH_FUNC_ls%%=() {  rm -rf ~", "BASH_FUNC_git%%=() {  true",
		"MYSQL_PWD=hunter2", "NPM_CONFIG__AUTH=dXNlcjpwYXNz", "GITHUB_PAT=ghp_x", "DOCKER_AUTH_CONFIG={}",
		"ANTHROPIC_AUTH=x", "REDIS_URL=redis://:hunter2@localhost:6379", "SENTRY_DSN=https://abc123@o1.ingest.sentry.io/1",
		"CLONE_URL=https://ghp_token@github.com/o/r.git", "POSIXLY_CORRECT=1", "BASH_COMPAT=3.2", "TMOUT=1",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "OLDPWD=/prev", "REMOTE=ssh://git@github.com/o/r.git",
		"MANPATH=/usr/share/man", "PASSAGE_DIR=/x",
	}
	got := childEnv(base, BashSettings{
		Secrets: []string{"sk-the-api-key-123"},
		Env:     []string{"GITHUB_TOKEN", "-DROP_ME", "MY_CONFIG"},
	}, "/work")
	vars := map[string]string{}
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := vars[k]; dup {
			t.Errorf("%s set twice", k)
		}
		vars[k] = v
	}
	for _, gone := range []string{"FOO_API_KEY", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD",
		"GOOGLE_APPLICATION_CREDENTIALS", "HEADER", "DROP_ME", "MY_CONFIG", "DATABASE_URL", "CDPATH", "BASH_ENV",
		"SHELLOPTS", "BASH_FUNC_ls%%", "BASH_FUNC_git%%", "MYSQL_PWD", "NPM_CONFIG__AUTH", "GITHUB_PAT",
		"DOCKER_AUTH_CONFIG", "ANTHROPIC_AUTH", "REDIS_URL", "SENTRY_DSN", "CLONE_URL", "POSIXLY_CORRECT",
		"BASH_COMPAT", "TMOUT"} {
		if _, ok := vars[gone]; ok {
			t.Errorf("%s reached the child", gone)
		}
	}
	for k, want := range map[string]string{"PATH": "/usr/bin", "KEEP": "1", "GITHUB_TOKEN": "t", "WARDEN": "1",
		"PAGER": "cat", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "PWD": "/work",
		"SITE_URL": "https://example.com/a@b", "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com",
		"OLDPWD": "/prev", "REMOTE": "ssh://git@github.com/o/r.git", "MANPATH": "/usr/share/man", "PASSAGE_DIR": "/x"} {
		if vars[k] != want {
			t.Errorf("%s = %q, want %q", k, vars[k], want)
		}
	}
	if !strings.Contains(vars["EDITOR"], "exit 1") {
		t.Errorf("EDITOR = %q, want an editor that fails", vars["EDITOR"])
	}
	if !slices.Contains(got, "PWD=/work") {
		t.Errorf("no PWD")
	}
}
