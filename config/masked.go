package config

import (
	"strings"

	"github.com/warden-cli/warden/secrets"
)

// What the trust question, the waiting notices and `warden mcp list` show of an MCP server (its command
// line, environment, URL and headers) and of a hook's command comes from files on the screen, in
// scrollback and in trust.json, and a .mcp.json may be the person's own, git-ignored one, holding their
// tokens. So it says what runs and where it connects, and never a secret value: the names stay (of
// variables, headers, options, URL parameters), and so do references to variables (${GITHUB_TOKEN}, which
// are expanded only when the server starts), while a value the secrets catalogue judges secret, by its
// name or by its form, is shown as masked. What the person approves is the whole entry all the same: an
// item's digest covers every value, so a changed token is a changed item.

// masked stands for a secret value.
const masked = "***"

// maskValue is the value v of name (a variable, a header, an option) as shown: kept when it holds no
// literal secret; under a name that says it is secret (GITHUB_TOKEN, Authorization, X-API-Key) every
// word of it masked but references, paths and an Authorization header's scheme ("Bearer ***"); under
// another name, what maskWords masks.
func maskValue(name, v string) string {
	if !secrets.Name(strings.ReplaceAll(name, "-", "_")) {
		return strings.Join(maskWords(strings.Split(v, " ")), " ")
	}
	words := strings.Split(v, " ")
	for i, w := range words {
		if w != "" && !reference(w) && !authScheme(w) && !pathLike(w) {
			words[i] = masked
		}
	}
	return strings.Join(words, " ")
}

// maskWords masks the secrets in words, a command line's or a value's: a URL keeps all but its password,
// token-bearing user and secret parameters (maskURL); a word that is a credential by its form
// (secrets.Value) is masked, NAME=VALUE keeping NAME (-Dhttp.proxyPassword=***); the word after an
// option whose name says it is secret (--token ***), after an Authorization scheme (Bearer ***), and
// sshpass's and the MySQL clients' -p, are masked. References ($TOKEN, ${TOKEN}) stay.
func maskWords(words []string) []string {
	out := make([]string, len(words))
	next, passwordFlag := false, false
	for i, w := range words {
		out[i] = w
		switch base := w[strings.LastIndexByte(w, '/')+1:]; {
		case w == "" || reference(w):
		case next && !pathLike(w):
			out[i] = keepQuotes(w, masked)
		case base == "sshpass" || base == "mysql" || base == "mysqldump" || base == "mysqladmin" || base == "mariadb":
			passwordFlag = true
		case passwordFlag && w == "-p":
			next = true
			continue
		case passwordFlag && strings.HasPrefix(w, "-p") && len(w) > 2 && !strings.HasPrefix(w, "--"):
			out[i] = "-p" + masked
		case authScheme(w):
			next = true
			continue
		case strings.HasPrefix(w, "--") && !strings.Contains(w, "=") && secrets.Name(strings.ReplaceAll(w[2:], "-", "_")):
			next = true
			continue
		case strings.HasPrefix(w, "-") && strings.Contains(w, "=") && secrets.Name(strings.ReplaceAll(strings.TrimLeft(w[:strings.IndexByte(w, '=')], "-"), "-", "_")):
			if v := w[strings.IndexByte(w, '=')+1:]; !reference(v) && !pathLike(v) {
				out[i] = maskOption(w)
			}
		case strings.Contains(w, "://") || strings.Contains(w, "?"):
			out[i] = maskURL(w)
		case secrets.Value(w):
			out[i] = maskOption(w)
		}
		next = false
	}
	return out
}

// keepQuotes is masked with the quotes around w, which a shell command's word may begin or end with.
func keepQuotes(w, masked string) string {
	inner := strings.TrimLeft(w, `"'`)
	lead := w[:len(w)-len(inner)]
	inner = strings.TrimRight(inner, `"'`)
	return lead + masked + w[len(lead)+len(inner):]
}

// maskOption masks the value of NAME=VALUE, keeping the name, or the whole word.
func maskOption(w string) string {
	if i := strings.IndexByte(w, '='); i > 0 {
		return w[:i+1] + masked
	}
	return masked
}

// maskURL is the URL u as shown: a password in it, a user that stands for a token (https://TOKEN@host),
// and the values of parameters that are secret by name or form are masked; references are kept.
func maskURL(u string) string {
	rest, query, hasQuery := strings.Cut(u, "?")
	// bare is the URL without its user and query: a webhook or a signed URL is a credential as a whole.
	bare := rest
	if scheme, after, ok := strings.Cut(rest, "://"); ok {
		authority, path, hasPath := strings.Cut(after, "/")
		host := authority
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			host = authority[at+1:]
			user, pass, hasPass := strings.Cut(authority[:at], ":")
			switch {
			case hasPass && !reference(pass):
				authority = user + ":" + masked + "@" + host
			case !hasPass && !reference(user) && (strings.HasPrefix(scheme, "http") || secrets.Value(user)):
				authority = masked + "@" + host
			}
		}
		rest, bare = scheme+"://"+authority, scheme+"://"+host
		if hasPath {
			rest, bare = rest+"/"+path, bare+"/"+path
		}
	}
	if secrets.Value(bare) {
		return masked
	}
	if !hasQuery {
		return rest
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if ok && value != "" && !reference(value) && (secrets.Name(name) || secretParam[strings.ToLower(name)] || secrets.Value("?"+p)) {
			params[i] = name + "=" + masked
		}
	}
	return rest + "?" + strings.Join(params, "&")
}

// secretParam are URL parameters that carry a credential under a name secrets.Name does not take for a
// variable's (sig is a signature, key an API key).
var secretParam = map[string]bool{"key": true, "sig": true, "signature": true, "code": true, "auth": true,
	"access_token": true, "token": true, "x-amz-signature": true, "x-amz-credential": true, "x-goog-signature": true}

// reference reports a value that only names a variable: $NAME, ${NAME}, ${NAME:-default}.
func reference(w string) bool {
	w = strings.Trim(w, `"'`)
	if strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}") && strings.Count(w, "}") == 1 {
		return true
	}
	if !strings.HasPrefix(w, "$") || len(w) < 2 {
		return false
	}
	for _, c := range w[1:] {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// authScheme reports the first word of an Authorization header's value.
func authScheme(w string) bool {
	switch strings.ToLower(w) {
	case "bearer", "basic", "token", "digest", "bot", "apikey":
		return true
	}
	return false
}

// pathLike reports a value that names a file rather than being a secret (a key file's path).
func pathLike(w string) bool {
	return strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../")
}
