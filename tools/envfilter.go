package tools

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// secretWords mark a variable name as holding a secret. They are matched anywhere in the upper-cased name,
// so OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY and DB_PASSWORD are all removed.
var secretWords = []string{"KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL"}

// secretParts are shorter marks, matched only as a whole part of the name between underscores, where a
// substring would catch too much (AUTH in GIT_AUTHOR_NAME, PAT in PATH): MYSQL_PWD, NPM_CONFIG__AUTH,
// GITHUB_PAT, SENTRY_DSN, DOCKER_AUTH_CONFIG.
var secretParts = []string{"AUTH", "AUTHORIZATION", "AUTHTOKEN", "PWD", "PAT", "DSN", "PASS", "PASSPHRASE",
	"COOKIE", "CREDS", "APIKEY", "PRIVATE"}

// noEditor is what every editor variable points at: git and others run it through the shell, so it prints
// why and fails at once instead of waiting for a person who is not there.
const noEditor = `sh -c 'echo "warden: no interactive editor is available to commands; give the text on the command line (git commit -m MESSAGE, git rebase without -i, git merge --no-edit)" >&2; exit 1' warden-editor`

// fixedEnv is set in every command, over what Warden's own environment says. WARDEN=1 lets scripts tell that
// they run under Warden, the way CI=true tells them they run in CI.
var fixedEnv = []string{
	"WARDEN=1",
	"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=cat", "GH_PAGER=cat",
	"GIT_EDITOR=" + noEditor, "GIT_SEQUENCE_EDITOR=" + noEditor, "EDITOR=" + noEditor, "VISUAL=" + noEditor,
	"GIT_TERMINAL_PROMPT=0",
	"DEBIAN_FRONTEND=noninteractive",
	"TERM=dumb",
	// A bare repository inside the workspace (a test fixture, a vendored .git) may carry config that runs
	// programs on a read-only git command; git must not pick one up unless it is named explicitly.
	"GIT_CONFIG_PARAMETERS='safe.bareRepository'='explicit'",
}

// shellEnv are variables that change how bash reads or runs a command (CDPATH moves `cd`, BASH_ENV and ENV
// run a file first, SHELLOPTS and BASHOPTS set options, POSIXLY_CORRECT and BASH_COMPAT change what
// builtins mean, down to the unit of `ulimit -f`, TMOUT makes `read` give up, EXECIGNORE hides programs).
// The permission engine judged the command as plain bash would run it, so these are never passed on unless
// listed in bash.env.
var shellEnv = map[string]bool{"CDPATH": true, "BASH_ENV": true, "ENV": true, "SHELLOPTS": true, "BASHOPTS": true,
	"GLOBIGNORE": true, "PROMPT_COMMAND": true, "BASH_XTRACEFD": true, "PS4": true, "POSIXLY_CORRECT": true,
	"BASH_COMPAT": true, "TMOUT": true, "EXECIGNORE": true, "BASH_LOADABLES_PATH": true}

// bashFuncPrefix starts the name of a function exported to bash (BASH_FUNC_ls%%): bash defines it before
// it runs the command, so an inherited `ls` or `git` could do anything. Like shellEnv, never passed unless
// listed in bash.env.
const bashFuncPrefix = "BASH_FUNC_"

// urlCredentials finds credentials inside a URL, which a variable such as DATABASE_URL carries under a name
// that says nothing of it: a password with or without a user (postgres://user:secret@host,
// redis://:secret@host), and, for http(s), a user alone, which is how tokens ride in URLs
// (https://ghp_x@github.com, a Sentry DSN). ssh://git@host names no secret and passes.
var urlCredentials = regexp.MustCompile(`(?i)://[^/@\s:]*:[^/@\s]+@|https?://[^/@\s:]+@`)

// childEnv is the environment of a command: Warden's own minus secrets, with the fixed settings and PWD.
//
// A variable is dropped when its name contains a secret word, its value is a URL with a password in it, it
// is one of shellEnv or an exported bash function, or its value contains one of secrets (the API key, whatever it is called). settings lists exceptions: "NAME" passes a variable despite its name, "-NAME"
// drops one that would pass. A listed name never brings back a value that contains a secret.
func childEnv(base []string, settings BashSettings, cwd string) []string {
	filtered := filteredEnv(base, settings)
	out := make([]string, len(filtered), len(filtered)+1)
	copy(out, filtered)
	return append(out, "PWD="+cwd)
}

// filteredEnv is childEnv without PWD. The last answer is kept: the environment and the settings rarely
// change within a session, and filtering costs a tenth of a short command's run.
func filteredEnv(base []string, settings BashSettings) []string {
	envMemo.Lock()
	defer envMemo.Unlock()
	if envMemo.out != nil && slices.Equal(envMemo.base, base) && slices.Equal(envMemo.names, settings.Env) &&
		slices.Equal(envMemo.secrets, settings.Secrets) {
		return envMemo.out
	}
	out := filterEnv(base, settings)
	envMemo.base, envMemo.out = slices.Clone(base), out
	envMemo.names, envMemo.secrets = slices.Clone(settings.Env), slices.Clone(settings.Secrets)
	return out
}

var envMemo struct {
	sync.Mutex
	base, names, secrets, out []string
}

func filterEnv(base []string, settings BashSettings) []string {
	pass, drop := map[string]bool{}, map[string]bool{}
	for _, n := range settings.Env {
		if name, ok := strings.CutPrefix(n, "-"); ok {
			drop[name] = true
		} else if n != "" {
			pass[n] = true
		}
	}
	fixed := map[string]bool{"PWD": true}
	for _, kv := range fixedEnv {
		name, _, _ := strings.Cut(kv, "=")
		fixed[name] = true
	}
	out := make([]string, 0, len(base)+len(fixedEnv)+1)
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || fixed[name] || drop[name] {
			continue
		}
		if (secretName(name) || shellEnv[name] || strings.HasPrefix(name, bashFuncPrefix) ||
			urlCredentials.MatchString(value)) && !pass[name] {
			continue
		}
		if containsSecret(value, settings.Secrets) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, fixedEnv...)
}

func secretName(name string) bool {
	up := strings.ToUpper(name)
	if slices.ContainsFunc(secretWords, func(w string) bool { return strings.Contains(up, w) }) {
		return true
	}
	if up == "PWD" || up == "OLDPWD" { // directories, not passwords
		return false
	}
	return slices.ContainsFunc(strings.Split(up, "_"), func(part string) bool { return slices.Contains(secretParts, part) })
}

// containsSecret reports whether value holds one of the secrets. Very short "secrets" are compared whole,
// so that a misconfigured one-letter key does not empty the environment.
func containsSecret(value string, secrets []string) bool {
	for _, s := range secrets {
		switch {
		case s == "":
		case len(s) < 8 && value == s:
			return true
		case len(s) >= 8 && strings.Contains(value, s):
			return true
		}
	}
	return false
}
