package secrets

import (
	"regexp"
	"strings"
)

// urlCredentials finds credentials inside a URL, which a variable such as DATABASE_URL carries under a
// name that says nothing of it: a password with or without a user (postgres://user:secret@host,
// redis://:secret@host), and, for http(s), a user alone, which is how tokens ride in URLs
// (https://ghp_x@github.com, a Sentry DSN). ssh://git@host names no secret.
var urlCredentials = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://[^/@\s:]*:[^/@\s]+@|https?://[^/@\s:]+@`)

// secretValues are the forms a credential takes in a value, whatever the value is called.
var secretValues = []*regexp.Regexp{
	urlCredentials,
	// Webhook URLs are their own credential: whoever holds one posts as its owner (Slack, Discord,
	// Microsoft Teams, Google Chat, Telegram bots, Zapier, IFTTT, Feishu/Lark, DingTalk, WeCom).
	regexp.MustCompile(`(?i)hooks\.slack\.com/(services|workflows|triggers)/|discord(app)?\.com/api/webhooks/|` +
		`\.webhook\.office\.com/|outlook\.office(365)?\.com/webhook|chat\.googleapis\.com/v1/spaces/|` +
		`api\.telegram\.org/bot|hooks\.zapier\.com/hooks/|maker\.ifttt\.com/trigger/|` +
		`open\.(feishu\.cn|larksuite\.com)/open-apis/bot/|oapi\.dingtalk\.com/robot/|qyapi\.weixin\.qq\.com/cgi-bin/webhook/`),
	// A secret passed as a URL's parameter: signed URLs (S3, GCS, Azure's sig), tokens and keys.
	regexp.MustCompile(`(?i)[?&](access_token|token|api[_-]?key|key|secret|client_secret|password|passwd|sig|signature|` +
		`x-amz-signature|x-amz-credential|x-goog-signature|private_token|auth)=[^&\s]{8,}`),
	// Tokens whose form gives them away: GitHub's, GitLab's, Slack's, OpenAI's and Anthropic's (sk-),
	// Stripe's, AWS access key ids, Google API keys, npm's, PyPI's, Hugging Face's, DigitalOcean's,
	// SendGrid's, Shopify's, Groq's, Perplexity's, xAI's, Replicate's, age secret keys, and JWTs.
	regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|` +
		`gl(pat|ptt|dt|rt|cbt|ft|soat|imt)-[A-Za-z0-9_-]{20,}|xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,}|` +
		`sk-[A-Za-z0-9_-]{20,}|[rs]k_(live|test)_[A-Za-z0-9]{16,}|(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}|AIza[0-9A-Za-z_-]{35}|` +
		`npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|do[opr]_v1_[a-f0-9]{64}|` +
		`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|shp(at|ss|ca|pa)_[a-fA-F0-9]{32}|gsk_[A-Za-z0-9]{20,}|` +
		`pplx-[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|r8_[A-Za-z0-9]{20,}|AGE-SECRET-KEY-1[0-9A-Z]{20,}|` +
		`eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`),
	regexp.MustCompile(`-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----`),
	// An Authorization header's value, Azure's connection strings, and Nix's access-tokens setting
	// (NIX_CONFIG="access-tokens = github.com=...").
	regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{16,}|AccountKey=[A-Za-z0-9+/=]{20,}|SharedAccess(Signature|Key)=|` +
		`\baccess-tokens\s*=\s*\S`),
	// Passwords given to programs in options that a variable carries to them: a JVM's system properties
	// in *_OPTS (-Dhttp.proxyPassword=..., -Djavax.net.ssl.keyStorePassword=...), a long option
	// (--password=..., --token ...), sshpass's -p in GIT_SSH_COMMAND or RSYNC_RSH, the MySQL clients'
	// -pPASSWORD, and curl's -u user:password. A value taken from a variable ($PW) is none.
	regexp.MustCompile(`(?i)-D[A-Za-z0-9_.-]*(password|passwd|pwd|secret|token|apikey|api\.key)[A-Za-z0-9_.-]*=["']?[^\s"'$/~]|` +
		`(^|\s)--(password|passwd|token|api-?key|client-secret|auth-token|access-token)[= ]["']?[^\s"'$-]|` +
		`\bsshpass\s+(?-i:(?:-[^p\s]\S*\s+)*-p)\s*["']?[^\s"'$]|` +
		`\b(mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^;&|]*\s(?-i:-p)["']?[^\s"'$-]|` +
		`\bcurl\b[^;&|]*\s(-u|--user)[= ]["']?[^\s:"'$]*:[^\s"'$]`),
}

// bareProxyCredentials finds a user and password before a host where no scheme says it is a URL, as
// proxy variables are often written (HTTPS_PROXY=alice:secret@proxy:3128, CARGO_HTTP_PROXY): user, a
// colon, a password, an @ and a host name, alone or after a blank, `=` or a quote. mailto:, sip: and
// the like name an address, not a login.
var bareProxyCredentials = regexp.MustCompile(`(?:^|[\s="',;(])([A-Za-z0-9._%+~-]+):[^\s/@:"']+@[A-Za-z0-9][A-Za-z0-9.-]*(?::[0-9]+)?(?:[/\s"',;)]|$)`)

// addressSchemes are schemes written without // whose part before @ is an address, not a login.
var addressSchemes = map[string]bool{"mailto": true, "sip": true, "sips": true, "tel": true, "xmpp": true, "im": true}

func bareCredentials(s string) bool {
	for _, m := range bareProxyCredentials.FindAllStringSubmatch(s, -1) {
		if !addressSchemes[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}

// Value reports whether s holds a credential by its form: a URL carrying a password or token (with or
// without its scheme), a webhook URL, a signed URL, a token of a known form, a private key, an
// Authorization header's value, a password given to a program as an option. It does
// not know the API key Warden was given; callers compare that themselves.
func Value(s string) bool {
	for _, re := range secretValues {
		if re.MatchString(s) {
			return true
		}
	}
	return bareCredentials(s)
}
