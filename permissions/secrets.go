package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// sensitiveVars are variables that change which programs run or what they do: assigning them is not
// read-only even when nothing else happens, because the next program in the same command obeys them.
var sensitiveVars = map[string]bool{
	"PATH": true, "IFS": true, "ENV": true, "BASH_ENV": true, "PROMPT_COMMAND": true, "PS4": true,
	"SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "HOME": true, "GLOBIGNORE": true, "SHELL": true,
	"PAGER": true, "EDITOR": true, "VISUAL": true, "MANPAGER": true, "BROWSER": true, "LESSOPEN": true,
	"LESSCLOSE": true, "TMPDIR": true, "PWD": true, "OLDPWD": true, "HISTFILE": true, "INPUTRC": true,
	"NODE_OPTIONS": true, "RUBYOPT": true, "RUBYLIB": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "ZDOTDIR": true,
	"MAKEFLAGS": true, "RIPGREP_CONFIG_PATH": true, "GREP_OPTIONS": true, "TAR_OPTIONS": true,
	"FPATH": true, "MAILPATH": true, "TERMINFO": true, "LOCPATH": true, "GCONV_PATH": true, "HOSTALIASES": true,
	"LOCALDOMAIN": true, "RES_OPTIONS": true, "NLSPATH": true, "SYSTEMD_PAGER": true, "SYSTEMD_EDITOR": true,
	"PS_FORMAT": true,
	// Programs of the read-only table that run code or read a file named by a variable: kubectl runs the
	// exec credential plugins of the kubeconfig KUBECONFIG names, file reads the magic file MAGIC names,
	// less-like pagers run LESSOPEN, jq loads modules from JQ_LIBRARY_PATH, OpenSSL loads engines its
	// configuration names, glibc reads GLIBC_TUNABLES, bash in POSIX mode finds special builtins first.
	"MAGIC": true, "MANOPT": true, "MANPATH": true, "JQ_LIBRARY_PATH": true, "TERMINFO_DIRS": true, "TERMCAP": true,
	"GLIBC_TUNABLES": true, "POSIXLY_CORRECT": true, "EXECIGNORE": true, "SSH_ASKPASS_REQUIRE": true,
	"OPENSSL_CONF": true, "OPENSSL_ENGINES": true, "OPENSSL_MODULES": true, "SSL_CERT_FILE": true,
	"SSL_CERT_DIR": true, "CURL_CA_BUNDLE": true, "REQUESTS_CA_BUNDLE": true,
}

// sensitivePrefixes cover families of such variables.
var sensitivePrefixes = []string{
	"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "BASH_", "PYTHON", "NODE_", "NPM_CONFIG_", "npm_config_", "CARGO_",
	"RUSTC", "GO", "CGO_", "LUA_", "PERL", "PHP", "CC", "CXX", "CFLAGS", "LDFLAGS", "MALLOC_",
	// kubectl (KUBECONFIG, KUBERC, KUBECTL_*, KUBE_EDITOR), gh (GH_BROWSER, GH_CONFIG_DIR, GH_PAGER),
	// docker and compose (DOCKER_CONFIG holds CLI plugins, DOCKER_HOST another daemon), pip, pagers,
	// systemd's pager, groff under man, and the XDG directories programs find their configuration in.
	"KUBE", "GH_", "DOCKER_", "COMPOSE_", "PIP_", "LESS", "SYSTEMD_", "GROFF_", "XDG_",
}

// sensitiveVar returns why assigning name is not read-only, or "".
func sensitiveVar(name string) string {
	if name == "" {
		return ""
	}
	if sensitiveVars[name] {
		return fmt.Sprintf("sets `%s`, which changes what programs run", name)
	}
	for _, p := range sensitivePrefixes {
		if strings.HasPrefix(name, p) {
			return fmt.Sprintf("sets `%s`, which changes what programs run", name)
		}
	}
	return ""
}

// secretNames are file names that hold credentials wherever they are.
var secretNames = map[string]bool{
	".netrc": true, "_netrc": true, ".git-credentials": true, ".npmrc": true, ".pypirc": true, ".pgpass": true,
	".my.cnf": true, ".htpasswd": true, "credentials": true, "credentials.json": true, "credentials.yml": true,
	".vault-token": true, ".dockercfg": true, "secrets.yml": true, "secrets.yaml": true, "secrets.json": true,
	"master.key": true, "id_rsa": true, "id_dsa": true, "id_ecdsa": true, "id_ed25519": true, "id_ecdsa_sk": true,
	"id_ed25519_sk": true, "shadow": true, "gshadow": true, ".boto": true, ".s3cfg": true,
	"service-account.json": true, "keystore.jks": true, "token.json": true, "auth.json": true,
	"kubeconfig": true, ".bash_history": true, ".zsh_history": true, ".psql_history": true, ".mysql_history": true,
	".python_history": true, ".node_repl_history": true, ".envrc": true, "terraform.tfstate": true,
	"terraform.tfstate.backup": true, "credentials.toml": true,
}

// secretExts are extensions of key and certificate stores.
var secretExts = map[string]bool{
	".pem": true, ".key": true, ".p12": true, ".pfx": true, ".jks": true, ".keystore": true, ".kdbx": true,
	".gpg": true, ".ppk": true, ".age": true, ".env": true, ".tfstate": true,
}

// secretDirs are directories whose every file is a credential.
var secretDirs = []string{
	".ssh", ".aws", ".gnupg", ".kube", ".azure", ".password-store", ".docker", ".config/gcloud",
	".config/gh", ".config/hub", ".terraform.d", ".config/op", ".local/share/keyrings", "Library/Keychains",
	".cargo/credentials", ".config/rclone", ".oci", ".m2/settings.xml", ".gradle/gradle.properties",
	// Browser and mail profiles: saved passwords (logins.json, Login Data), their keys, cookies.
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
}

// harmlessEnvFiles are .env variants that by convention hold no real values.
var harmlessEnvFiles = map[string]bool{
	".env.example": true, ".env.sample": true, ".env.template": true, ".env.dist": true, ".env.defaults": true,
}

// stdStreams are the paths of a command's standard streams. /dev/fd/N for another N, and the same
// descriptors through /proc, stay secret.
var stdStreams = map[string]bool{
	"/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/fd/0": true, "/dev/fd/1": true, "/dev/fd/2": true,
}

// isSecretPath reports whether path (absolute or as typed) names credentials: keys, .env files,
// credential stores, another process's environment.
func isSecretPath(path, home string) bool {
	if path == "" {
		return false
	}
	clean := filepath.ToSlash(filepath.Clean(path))
	if stdStreams[clean] && !strings.Contains(path, "..") {
		// The command's own standard streams: Warden gives it an empty input, and any redirection of
		// them is judged as the read it is.
		return false
	}
	base := filepath.Base(clean)
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".pub") {
		return false // public keys are meant to be shared
	}
	if secretNames[base] || secretNames[lower] {
		return true
	}
	if strings.HasPrefix(lower, ".env") && !harmlessEnvFiles[lower] && (len(lower) == 4 || lower[4] == '.' || lower[4] == '-' || lower[4] == '_') {
		return true
	}
	if strings.HasPrefix(lower, "id_") && !strings.HasSuffix(lower, ".pub") && (strings.HasPrefix(lower, "id_rsa") ||
		strings.HasPrefix(lower, "id_ed25519") || strings.HasPrefix(lower, "id_ecdsa") || strings.HasPrefix(lower, "id_dsa")) {
		return true
	}
	if secretExts[strings.ToLower(filepath.Ext(base))] {
		return true
	}
	if strings.HasPrefix(clean, "/proc/") && (base == "environ" || base == "mem") {
		return true
	}
	// A process's directory, root and descriptors lead anywhere: /proc/self/cwd/../x is not below cwd.
	// Through /proc/self or /dev/fd the file is the command's own, which Warden cannot resolve from its
	// own process.
	if procView(clean) {
		return true
	}
	if strings.HasPrefix(clean, "/proc/") || strings.HasPrefix(clean, "/dev/") {
		if _, sure := resolvePath("/", path, ""); !sure {
			return true
		}
	}
	switch clean {
	case "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/master.passwd":
		return true
	}
	// Container and orchestrator secrets, and raw disks and memory, which hold every file.
	if within("/run/secrets", clean) || within("/var/run/secrets", clean) || isBlockDevice(clean) {
		return true
	}
	switch clean {
	case "/dev/mem", "/dev/kmem", "/dev/port", "/proc/kcore":
		return true
	}
	if strings.HasPrefix(clean, "/etc/ssl/private") || strings.HasPrefix(clean, "/etc/ssh/ssh_host_") && !strings.HasSuffix(clean, ".pub") {
		return true
	}
	for _, d := range secretDirs {
		if strings.Contains("/"+clean+"/", "/"+d+"/") {
			return true
		}
	}
	return wardenOwn(clean, home)
}

// wardenOwn reports whether a path is Warden's own state or settings. The state directory holds every
// session's transcript and full outputs, the checkpoints (a copy of every workspace's files, .env and
// files under Read deny rules included), logs and the list of trusted workspaces; the settings may hold
// MCP servers' tokens. The custom commands beside them are prompts, not secrets.
func wardenOwn(clean, home string) bool {
	s := "/" + strings.TrimPrefix(clean, "/")
	if strings.Contains(s+"/", "/.local/state/warden/") {
		return true
	}
	settings := func(dir string) bool {
		i := strings.Index(s, dir+"/")
		if i < 0 {
			return false
		}
		rest := s[i+len(dir)+1:]
		return rest != "" && rest != "commands" && !strings.HasPrefix(rest, "commands/")
	}
	if settings("/.config/warden") {
		return true
	}
	if !filepath.IsAbs(clean) {
		return false
	}
	own := wardenDirs(home)
	for _, d := range own.state {
		if within(d, clean) {
			return true
		}
	}
	for _, d := range own.settings {
		if rest, ok := strings.CutPrefix(clean, d+"/"); ok && rest != "commands" && !strings.HasPrefix(rest, "commands/") {
			return true
		}
	}
	return false
}

// ownDirs are Warden's state and settings directories both as the environment and the home name them
// and with their symbolic links resolved: a command names the one or the other, and the engine judges
// a path also as it resolves (XDG_STATE_HOME may be a link, or ~/.config a dotfiles checkout's).
type ownDirs struct {
	key             [3]string // XDG_STATE_HOME, XDG_CONFIG_HOME, home
	state, settings []string
}

// ownCache keeps the last directories resolved: the environment rarely changes, and every file a walk
// meets is judged, which a resolution per file (system calls) would slow.
var ownCache atomic.Pointer[ownDirs]

func wardenDirs(home string) *ownDirs {
	key := [3]string{os.Getenv("XDG_STATE_HOME"), os.Getenv("XDG_CONFIG_HOME"), home}
	if d := ownCache.Load(); d != nil && d.key == key {
		return d
	}
	d := &ownDirs{key: key}
	add := func(list *[]string, dir string) {
		for _, p := range []string{dir, ResolvePath("/", dir, "")} {
			if !slices.Contains(*list, p) {
				*list = append(*list, p)
			}
		}
	}
	if filepath.IsAbs(key[0]) {
		add(&d.state, filepath.Join(key[0], "warden"))
	}
	if filepath.IsAbs(key[1]) {
		add(&d.settings, filepath.Join(key[1], "warden"))
	}
	if filepath.IsAbs(home) {
		add(&d.state, filepath.Join(home, ".local", "state", "warden"))
		add(&d.settings, filepath.Join(home, ".config", "warden"))
	}
	ownCache.Store(d)
	return d
}

// IsSecretPath reports whether the file at the absolute path may hold secrets (keys, credentials, .env
// files): reading it asks even though it changes nothing. The file tools use it to keep such files out of
// directory-wide searches.
func IsSecretPath(path, home string) bool { return isSecretPath(path, home) }

// procView reports whether a path goes through a process's view of the file system, whose meaning
// depends on the process: /proc/N/cwd, root, fd, fdinfo, map_files, environ (and the same below
// /proc/N/task/M), and /dev/fd.
func procView(clean string) bool {
	if within("/dev/fd", clean) {
		return true
	}
	if !strings.HasPrefix(clean, "/proc/") {
		return false
	}
	comps := strings.Split(clean, "/")[2:]
	for i := 1; i < len(comps); i++ {
		switch comps[i] {
		case "cwd", "root", "fd", "fdinfo", "map_files", "environ", "mem":
			return true
		}
	}
	return false
}
