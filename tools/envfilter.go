package tools

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/secrets"
)

// The environment Warden gives everything it starts (commands, background tasks, MCP servers, the jail's
// commands, its own git and rg) is an allow-list: the variables a shell and the common toolchains need,
// plus what bash.env passes, and nothing else of Warden's own environment. A deny-list of secret-looking
// names let through whatever it did not know (BW_SESSION, a webhook URL under an ordinary name, a
// VS Code credential socket); an allow-list lets through only what it names. Values are checked too,
// even for names the list allows: a URL carrying a password, a webhook URL, a token of a known form or
// the API key is removed (package secrets judges the forms).

// envNames are the variables passed by their exact name.
var envNames = setOf(
	// The shell and the session: who and where, the terminal's colours (TERM itself is fixed), language
	// and time zone, where temporary files go.
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "COLORTERM", "NO_COLOR", "LANG", "LANGUAGE", "TZ", "TZDIR",
	"TMPDIR", "TMP", "TEMP", "CI",
	// XDG base directories, where programs keep their settings, caches and state.
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_DIRS",
	"XDG_CONFIG_DIRS",
	// The ssh agent's socket: a command the person approved (git push, git fetch of a private repository
	// over ssh) signs with the keys the agent holds. Read-only commands run in the jail, which refuses
	// Unix sockets, so only an approved command reaches it; without it such a push fails for keys kept
	// in an agent. GNUPGHOME lets `git commit -S` find the person's keys. Neither holds a secret itself;
	// "-SSH_AUTH_SOCK" in bash.env drops it.
	"SSH_AUTH_SOCK", "GNUPGHOME",
	// Proxies and the certificate authorities a company's network needs; a proxy URL with a password in
	// it is removed by its value.
	"HTTP_PROXY", "HTTPS_PROXY", "FTP_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "ftp_proxy",
	"all_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
	"NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH",
	// git: who commits, how it reaches remotes, where its own configuration and programs are.
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_SSH", "GIT_SSH_COMMAND",
	"GIT_SSH_VARIANT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_EXEC_PATH",
	"GIT_TEMPLATE_DIR", "GIT_CEILING_DIRECTORIES",
	// Go.
	"GOPATH", "GOROOT", "GOBIN", "GOMODCACHE", "GOCACHE", "GOENV", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOPROXY",
	"GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOINSECURE", "GOTOOLCHAIN", "GO111MODULE", "GOWORK", "GOEXPERIMENT",
	"GOTELEMETRY", "GOTMPDIR", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GODEBUG", "GOMAXPROCS", "GOGC",
	"GOMEMLIMIT",
	// Rust, beyond CARGO_* and RUSTUP_*.
	"RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC_WRAPPER", "RUST_BACKTRACE", "RUST_LOG", "RUST_MIN_STACK", "SCCACHE_DIR",
	// Node.
	"NODE_PATH", "NODE_ENV", "NODE_OPTIONS", "PNPM_HOME", "COREPACK_HOME", "YARN_CACHE_FOLDER",
	// Python.
	"VIRTUAL_ENV", "VIRTUAL_ENV_PROMPT", "PIPX_HOME", "PIPX_BIN_DIR", "WORKON_HOME",
	// Java, Kotlin, Android.
	"JAVA_HOME", "JDK_HOME", "JRE_HOME", "MAVEN_HOME", "M2_HOME", "MAVEN_OPTS", "GRADLE_HOME", "GRADLE_USER_HOME",
	"GRADLE_OPTS", "KOTLIN_HOME", "ANDROID_HOME", "ANDROID_SDK_ROOT", "ANDROID_NDK_HOME",
	// Ruby (bundler keeps credentials in BUNDLE_<HOST> variables, so only its settings are named).
	"GEM_HOME", "GEM_PATH", "RUBY_ROOT", "RUBY_ENGINE", "RUBY_VERSION", "MY_RUBY_HOME", "RUBYLIB", "RUBYOPT",
	"BUNDLE_PATH", "BUNDLE_GEMFILE", "BUNDLE_BIN", "BUNDLE_APP_CONFIG", "BUNDLE_USER_HOME", "BUNDLE_JOBS",
	"BUNDLE_WITHOUT", "BUNDLE_DEPLOYMENT", "BUNDLE_FROZEN",
	// Other toolchains: PHP, .NET, Perl's local::lib, Haskell, OCaml, Elixir, Dart and Flutter.
	"COMPOSER_HOME", "NUGET_PACKAGES", "PERL5LIB", "PERL_LOCAL_LIB_ROOT", "PERL_MB_OPT", "PERL_MM_OPT",
	"GHCUP_INSTALL_BASE_PREFIX", "STACK_ROOT", "CABAL_DIR", "OPAMROOT", "OPAM_SWITCH_PREFIX", "CAML_LD_LIBRARY_PATH",
	"OCAML_TOPLEVEL_PATH", "MIX_HOME", "HEX_HOME", "PUB_CACHE", "FLUTTER_ROOT",
	// C and C++ builds: compilers, flags, where libraries and headers are.
	"CC", "CXX", "CPP", "AR", "LD", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "PKG_CONFIG_PATH", "LD_LIBRARY_PATH",
	"LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CMAKE_PREFIX_PATH", "CMAKE_GENERATOR",
	"MAKEFLAGS", "MANPATH", "INFOPATH",
	// Containers and clouds: which daemon, context, profile and region (the credentials stay in files
	// the permission engine treats as secret).
	"DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT", "DOCKER_BUILDKIT", "COMPOSE_FILE", "COMPOSE_PROJECT_NAME",
	"KUBECONFIG", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
	"AWS_SDK_LOAD_CONFIG", "CLOUDSDK_CONFIG", "CLOUDSDK_CORE_PROJECT", "AZURE_CONFIG_DIR",
)

// envFamilies are prefixes of variables a toolchain reads as its settings, many and open-ended (cargo's
// CARGO_BUILD_*, conda's CONDA_*, the locale's LC_*). A member whose name says it is secret
// (CARGO_REGISTRY_TOKEN, NPM_CONFIG__AUTH, HOMEBREW_GITHUB_API_TOKEN) is still removed: secrets.Name.
var envFamilies = []string{
	"LC_", "CARGO_", "RUSTUP_", "CGO_", "NPM_CONFIG_", "npm_config_", "NVM_", "FNM_", "VOLTA_", "BUN_", "DENO_",
	"PYTHON", "PIP_", "POETRY_", "UV_", "CONDA_", "PYENV_", "PIPENV_", "SDKMAN_", "RBENV_", "DOTNET_", "NIX_",
	"HOMEBREW_", "ASDF_", "MISE_", "CCACHE_",
}

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

// Left out on purpose, passed only when bash.env names them: the variables that change how bash reads
// or runs a command (CDPATH moves `cd`, BASH_ENV and ENV run a file first, SHELLOPTS and BASHOPTS set
// options, POSIXLY_CORRECT and BASH_COMPAT change what builtins mean, TMOUT makes `read` give up,
// EXECIGNORE hides programs) and functions exported to bash (BASH_FUNC_ls%%), since the permission
// engine judged the command as plain bash would run it; the desktop session (DISPLAY, WAYLAND_DISPLAY,
// DBUS_SESSION_BUS_ADDRESS, which reaches the keyring); editors' and IDEs' channels back to themselves
// (VSCODE_*, GIT_ASKPASS, SSH_ASKPASS); and every variable of Warden's own (the API key's above all).

// ChildEnv is the environment of a program Warden starts in dir: the allow-list of Warden's own
// environment with bash.env's additions, the fixed settings and PWD. Commands, MCP servers and Warden's
// own helper programs all get theirs here (Env.ChildEnv, with the session's settings, remembers it).
func ChildEnv(settings BashSettings, dir string) []string {
	return childEnv(os.Environ(), settings, dir)
}

// ChildLookup looks a variable up in the environment ChildEnv gives (PWD aside), as it is now: the
// permission engine judges a command by the variables it will run with, not by Warden's own.
func ChildLookup(settings BashSettings) func(name string) (string, bool) {
	vars := map[string]string{}
	for _, kv := range filterEnv(os.Environ(), settings) {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// ChildEnv is the environment of a command started in dir with e's settings (the package's ChildEnv).
func (e *Env) ChildEnv(dir string) []string {
	return withPWD(e.filteredEnv(os.Environ(), e.Bash), dir)
}

// HelperEnv is the environment of the programs Warden runs for itself (the rg behind grep): the
// allow-list alone, since they need nothing bash.env adds for commands.
func (e *Env) HelperEnv() []string { return e.filteredEnv(os.Environ(), BashSettings{}) }

// childEnv is the environment of a command: base filtered (filterEnv), with the fixed settings and PWD.
func childEnv(base []string, settings BashSettings, cwd string) []string {
	return withPWD(filterEnv(base, settings), cwd)
}

// withPWD is filtered with PWD added. filtered may be shared: it is copied, never appended to.
func withPWD(filtered []string, cwd string) []string {
	out := make([]string, len(filtered), len(filtered)+1)
	copy(out, filtered)
	return append(out, "PWD="+cwd)
}

// envsKept bounds the filtered environments an Env remembers: one for commands, one for Warden's own
// programs, and room for a change of either.
const envsKept = 4

// filteredEnv is filterEnv(base, settings), remembered by the Env. The answer is shared, and clipped so
// that a caller's append copies it rather than writing into another caller's.
func (e *Env) filteredEnv(base []string, settings BashSettings) []string {
	// Every list and entry is written with its length first, so that no two inputs share a key.
	var key strings.Builder
	for _, list := range [][]string{base, settings.Env, settings.Secrets} {
		key.WriteString(strconv.Itoa(len(list)) + ";")
		for _, s := range list {
			key.WriteString(strconv.Itoa(len(s)) + ":" + s)
		}
	}
	e.mu.Lock()
	if e.envs == nil {
		e.envs = cache.New[string, []string](envsKept)
	}
	envs := e.envs
	e.mu.Unlock()
	if out, ok := envs.Get(key.String()); ok {
		return out
	}
	out := slices.Clip(filterEnv(base, settings))
	envs.Put(key.String(), out)
	return out
}

// filterEnv keeps a variable of base when bash.env passes it ("NAME"), or when the allow-list names it
// and its value holds no credential (secrets.Value); a family member must not look secret by its name
// either. bash.env's "-NAME" drops a variable whatever else says. Nothing that holds one of
// settings.Secrets (the API key, whatever it is called) is kept, even when bash.env names it. The fixed
// settings are appended last and replace what base has of them.
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
	out := make([]string, 0, len(envNames)+len(fixedEnv)+1)
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || fixed[name] || drop[name] || containsSecret(value, settings.Secrets) {
			continue
		}
		if pass[name] || allowedVariable(name) && !secrets.Value(value) {
			out = append(out, kv)
		}
	}
	return append(out, fixedEnv...)
}

// allowedVariable reports whether the allow-list passes a variable of this name.
func allowedVariable(name string) bool {
	if envNames[name] {
		return true
	}
	for _, f := range envFamilies {
		if strings.HasPrefix(name, f) {
			return !secrets.Name(name)
		}
	}
	return false
}

// containsSecret reports whether value holds one of the secrets. Very short "secrets" are compared whole,
// so that a misconfigured one-letter key does not empty the environment.
func containsSecret(value string, known []string) bool {
	for _, s := range known {
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

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}
