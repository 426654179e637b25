package secrets

import (
	"path/filepath"
	"slices"
	"strings"
)

// names are file names that hold credentials wherever they are.
var names = setOf(
	// Keys and the stores of network logins.
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "master.key", "keystore.jks",
	".netrc", "_netrc", ".git-credentials", ".gitcookies", ".pgpass", ".my.cnf", ".htpasswd", ".authinfo",
	".msmtprc", ".mbsyncrc", ".fetchmailrc", "shadow", "gshadow",
	// Credentials files of tools and clouds (gem and cargo write `credentials`, pulumi credentials.json,
	// podman, composer, Codex, opencode and Vercel auth.json, poetry auth.toml).
	"credentials", "credentials.json", "credentials.yml", "credentials.toml", "auth.json", "auth.toml", "token.json",
	"service-account.json", "kubeconfig", ".vault-token", ".dockercfg", ".boto", ".s3cfg", ".databrickscfg",
	".sentryclirc", "secrets.yml", "secrets.yaml", "secrets.json", "ngrok.yml",
	// Package registries' logins: npm's and pip's may carry a token or a URL with a password.
	".npmrc", ".pypirc", "pip.conf", "pip.ini", ".terraformrc", "terraform.rc",
	// npm's global and built-in configuration ($PREFIX/etc/npmrc, as nvm's and Volta's node versions
	// keep it), conda's (.condarc, condarc: channel URLs with a password, and tokens), RubyGems' (a
	// source URL with a password) and Dart's pub tokens.
	"npmrc", ".condarc", "condarc", ".gemrc", "gemrc", "pub-tokens.json",
	// AI assistants: Claude Code's login (.credentials.json) and settings (.claude.json, which held the
	// API key), Gemini CLI's OAuth tokens, aider's settings (its API keys), Claude Desktop's MCP servers
	// with their tokens.
	".credentials.json", ".claude.json", "oauth_creds.json", "mcp-oauth-tokens.json", ".aider.conf.yml",
	"claude_desktop_config.json",
	// Applications' local secrets, as their frameworks name them: Streamlit's (.streamlit/secrets.toml),
	// Cloudflare Workers' (.dev.vars), Terraform's variables (terraform.tfvars, *.auto.tfvars: exts),
	// Azure Functions' (local.settings.json), Firebase's admin key (serviceAccountKey.json, and
	// PROJECT-firebase-adminsdk-*.json: secretName), WordPress's database password (wp-config.php),
	// Ansible's vault passwords, and MySQL's obfuscated login paths (.mylogin.cnf).
	"secrets.toml", ".dev.vars", "terraform.tfvars.json", "local.settings.json", "serviceAccountKey.json",
	"wp-config.php", ".vault_pass", ".vault_pass.txt", "vault_pass.txt", ".vault-password", ".mylogin.cnf",
	// Variables direnv exports, the files a start-up file sources to keep its tokens apart, Terraform's
	// state (every resource's secrets in clear).
	".envrc", ".secrets", ".secrets.sh", ".tokens", "terraform.tfstate", "terraform.tfstate.backup",
	// Histories: what was typed holds passwords and tokens given on command lines (bash, zsh, ksh, fish,
	// PowerShell, database and language prompts, less's searches, vim's registers).
	".bash_history", ".zsh_history", ".zhistory", ".histfile", ".sh_history", ".ksh_history", "fish_history",
	"ConsoleHost_history.txt", ".psql_history", ".mysql_history", ".sqlite_history", ".rediscli_history",
	".dbshell", "mongosh_repl_history", ".clickhouse-client-history", ".python_history", ".node_repl_history",
	".irb_history", ".pry_history", ".Rhistory", ".scala_history", "repl_history.jl", ".lesshst", ".viminfo",
)

// exts are extensions of key and certificate stores, encrypted vaults, .env files, Terraform's state and
// variables, and Neovim's shada (its registers and history, vim's .viminfo).
var exts = setOf(".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".gpg", ".ppk", ".age", ".env",
	".tfstate", ".ovpn", ".shada", ".tfvars")

// places are directories whose every file is a credential, and files known by where they are, matched
// as whole components anywhere in a path (so under any home, and under XDG_CONFIG_HOME as `.config`).
var places = []string{
	// Keys and clouds.
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".oci", ".kube", ".docker", ".password-store",
	".config/op", ".config/Bitwarden CLI", ".local/share/gopass", ".local/share/keyrings", ".local/share/kwalletd",
	"Library/Keychains", ".config/rclone", ".terraform.d", ".cargo/credentials", ".m2/settings.xml",
	".m2/settings-security.xml", ".gradle/gradle.properties", ".config/helm/registry", ".config/doctl",
	".config/hcloud", ".config/stripe", ".snowsql", ".dbt/profiles.yml",
	// Forges and deployment tools: gh (hosts.yml), hub, glab, tea, fly, wrangler (old and new homes),
	// cloudflared's tunnel credentials, ngrok, Netlify and the tokens configstore keeps (firebase-tools).
	".config/gh", ".config/hub", ".config/glab-cli", ".config/tea", ".fly/config.yml", ".wrangler/config",
	".cloudflared", ".config/ngrok", ".ngrok2", ".config/netlify", ".config/configstore",
	// sops's age keys (~/.config/sops/age/keys.txt, and macOS's Application Support/sops/age), and
	// conda's configuration directory beside a .condarc.
	"sops/age", "condarc.d",
	// AI assistants' logins: Copilot's editor plugins (hosts.json, apps.json, auth.db) and its CLI, the
	// Codeium/Windsurf key, Continue's settings, llm's keys, Hugging Face's tokens, Cursor's store.
	".config/github-copilot", ".copilot/config.json", ".copilot/mcp-oauth-config", ".codeium",
	".continue/config.json", ".continue/config.yaml", ".config/io.datasette.llm/keys.json",
	".cache/huggingface/token", ".cache/huggingface/stored_tokens", ".huggingface/token",
	".config/Cursor/User/globalStorage",
	// Other agents' transcripts and prompt histories, for the reason Warden's own are secret: they hold
	// what those sessions read, secrets the person allowed there included.
	".claude/projects", ".claude/history.jsonl", ".codex/sessions", ".codex/history.jsonl", ".gemini/tmp",
	// Shell histories kept in directories: atuin's (with its key and sync session), nushell's, xonsh's.
	".local/share/atuin", ".config/nushell/history.txt", ".config/nushell/history.sqlite3", ".local/share/xonsh",
	// Browser and mail profiles: saved passwords (logins.json, Login Data), their keys, cookies.
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
}

// systemFiles and systemDirs are the system's credential stores, raw disks' and memory's views, which
// hold every file, and the kernel keyring's listings (/proc/keys names the keys a process may see, the
// services and accounts they are for; key-users who holds how many).
var (
	systemFiles = setOf("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/master.passwd", "/dev/mem", "/dev/kmem",
		"/dev/port", "/proc/kcore", "/proc/keys", "/proc/key-users")
	systemDirs = []string{"/run/secrets", "/var/run/secrets", "/etc/ssl/private", "/etc/wireguard",
		"/etc/NetworkManager/system-connections"}
)

// harmlessEnvFiles are .env variants that by convention hold no real values.
var harmlessEnvFiles = setOf(".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults")

// placeIndex maps the first component of each place to the components that must follow it, so that a
// path is matched with one map look-up per component rather than a search per place.
var placeIndex = func() map[string][][]string {
	idx := map[string][][]string{}
	for _, p := range places {
		comps := strings.Split(p, "/")
		idx[comps[0]] = append(idx[comps[0]], comps[1:])
	}
	return idx
}()

// Path reports whether the file or directory at path (absolute, or as typed) is a known credential
// store by its name and place: keys, .env files, tools' and AI assistants' tokens, histories, the
// system's password files, and an editor's or a person's copy of any of them (decorations.go). It reads
// nothing. Public keys (.pub) are not secret.
func Path(path string) bool {
	if path == "" {
		return false
	}
	clean := filepath.ToSlash(filepath.Clean(path))
	slash := strings.LastIndexByte(clean, '/')
	dir, base := clean[:slash+1], clean[slash+1:]
	if strings.HasSuffix(strings.ToLower(base), ".pub") {
		return false // public keys are meant to be shared, wherever they are kept
	}
	for _, name := range undecorated(base) {
		if secretName(name) || systemFiles[dir+name] || strings.HasPrefix(dir+name, "/etc/ssh/ssh_host_") &&
			!strings.HasSuffix(name, ".pub") {
			return true
		}
	}
	for _, d := range systemDirs {
		if clean == d || strings.HasPrefix(clean, d+"/") {
			return true
		}
	}
	return inPlace(clean)
}

// secretName reports whether a file of this name holds credentials wherever it is.
func secretName(base string) bool {
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".pub") {
		return false // public keys are meant to be shared
	}
	if names[base] || names[lower] || exts[strings.ToLower(filepath.Ext(base))] {
		return true
	}
	if strings.HasPrefix(lower, ".env") && !harmlessEnvFiles[lower] && (len(lower) == 4 || lower[4] == '.' || lower[4] == '-' || lower[4] == '_') {
		return true
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(lower, p.prefix) && strings.HasSuffix(lower, p.suffix) {
			return true
		}
	}
	return strings.Contains(lower, "-firebase-adminsdk-") && strings.HasSuffix(lower, ".json")
}

// secretPrefixes are names known by how they start (and end): keys whatever their suffix, Google's OAuth
// client secrets as the console names them (client_secret_NNN.apps.googleusercontent.com.json), and
// Cloudflare's local secrets per environment (.dev.vars.staging).
var secretPrefixes = []struct{ prefix, suffix string }{
	{"id_rsa", ""}, {"id_ed25519", ""}, {"id_ecdsa", ""}, {"id_dsa", ""}, {"client_secret", ".json"},
	{".dev.vars.", ""},
}

// inPlace reports whether the components of one of places follow each other somewhere in clean.
func inPlace(clean string) bool {
	for i := 0; i < len(clean); {
		end := strings.IndexByte(clean[i:], '/')
		if end < 0 {
			end = len(clean)
		} else {
			end += i
		}
		if rests, ok := placeIndex[clean[i:end]]; ok {
			for _, rest := range rests {
				if follows(clean[end:], rest) {
					return true
				}
			}
		}
		i = end + 1
	}
	return false
}

// follows reports whether s (empty, or starting with a slash) goes on with the components comps.
func follows(s string, comps []string) bool {
	for _, c := range comps {
		if len(s) < 1+len(c) || s[0] != '/' || s[1:1+len(c)] != c || len(s) > 1+len(c) && s[1+len(c)] != '/' {
			return false
		}
		s = s[1+len(c):]
	}
	return true
}

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}

// HomeStores returns where, in the home directory home, the catalogue's credential stores are kept: each
// place (~/.ssh, ~/.config/gh…) and each name a person keeps in the home itself (~/.netrc,
// ~/.git-credentials…), as absolute paths, whether or not they exist. It reads nothing. Whoever must
// recognise a credential file of the home under another name (a hard link to ~/.ssh/id_rsa) looks there.
func HomeStores(home string) []string {
	if !filepath.IsAbs(home) {
		return nil
	}
	home = filepath.Clean(home)
	var out []string
	for _, p := range places {
		out = append(out, filepath.Join(home, filepath.FromSlash(p)))
	}
	for n := range names {
		if strings.HasPrefix(n, ".") {
			out = append(out, filepath.Join(home, n))
		}
	}
	slices.Sort(out)
	return out
}
