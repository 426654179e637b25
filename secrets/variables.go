package secrets

import (
	"slices"
	"strings"
)

// secretWords mark a variable name as holding a secret. They are matched anywhere in the upper-cased name,
// so OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD and SLACK_WEBHOOK_URL all are.
var secretWords = []string{"KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "WEBHOOK",
	"CONNECTION_STRING", "MNEMONIC"}

// secretParts are shorter marks, matched only as a whole part of the name between underscores, where a
// substring would catch too much (AUTH in GIT_AUTHOR_NAME, PAT in PATH): MYSQL_PWD, NPM_CONFIG__AUTH,
// GITHUB_PAT, SENTRY_DSN, DOCKER_AUTH_CONFIG, and the session keys of password managers (BW_SESSION,
// OP_SESSION_my).
var secretParts = []string{"AUTH", "AUTHORIZATION", "AUTHTOKEN", "PWD", "PAT", "DSN", "PASS", "PASSPHRASE",
	"COOKIE", "CREDS", "APIKEY", "PRIVATE", "SESSION", "BEARER"}

// Name reports whether an environment variable's name says it holds a secret.
func Name(name string) bool {
	up := strings.ToUpper(name)
	if slices.ContainsFunc(secretWords, func(w string) bool { return strings.Contains(up, w) }) {
		return true
	}
	if up == "PWD" || up == "OLDPWD" { // directories, not passwords
		return false
	}
	for part := range strings.SplitSeq(up, "_") {
		if slices.Contains(secretParts, part) {
			return true
		}
	}
	return false
}
